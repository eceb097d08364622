// Path and query checks remembered by their input: a schema is a pure function of a flat record of strings, so the same
// record always parses to the same value, and a request that repeats one (a client polling a run) skips the schema.
import type * as v from 'valibot';
import { parse, type LocPart } from '../validation.js';

/** Inputs remembered per schema (the oldest dropped first): bounded whatever the traffic. */
const LIMIT = 128;

type Flat = Record<string, string | string[] | undefined>;

/** The input written out unambiguously (each name and value length-prefixed), or null for one that is not flat strings. */
function keyOf(input: Flat): string | null {
  let key = '';
  for (const name in input) {
    const value = input[name];
    if (value === undefined) key += `${name.length}:${name}!`;
    else if (typeof value === 'string') key += `${name.length}:${name}${value.length}:${value}`;
    else return null;
  }
  return key;
}

/** A parsed value that can be shared: an object whose own values are all primitives (frozen, so no reader can change it). */
function shareable(output: unknown): output is object {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return false;
  for (const value of Object.values(output)) if (typeof value === 'object' && value !== null) return false;
  return true;
}

/**
 * `parse` of `schema` for `part`, remembering each accepted input. A refused input is parsed every time (its 422 is
 * built anew); so is one whose value holds arrays or objects, which a reader could change.
 */
export function parseMemo<S extends v.GenericSchema<unknown, unknown>>(schema: S, part: LocPart): (input: Flat) => v.InferOutput<S> {
  const seen = new Map<string, v.InferOutput<S>>();
  // A frozen input (the fast path hands the same frozen parameters to every request with one target) is also known by
  // itself: no key is written out. Held weakly, so it lives only as long as whoever holds that input.
  const byInput = new WeakMap<Flat, v.InferOutput<S>>();
  return (input) => {
    const same = byInput.get(input);
    if (same !== undefined) return same;
    const key = keyOf(input);
    if (key === null) return parse(schema, input, part);
    let known = seen.get(key);
    if (known === undefined) {
      const output = parse(schema, input, part);
      if (!shareable(output)) return output;
      if (seen.size >= LIMIT) seen.delete(seen.keys().next().value as string);
      seen.set(key, (known = Object.freeze(output)));
    }
    if (Object.isFrozen(input)) byInput.set(input, known);
    return known;
  };
}
