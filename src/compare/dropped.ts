// Fields the mock sends and the target left out: a required one (by the answer's schema) is a difference, an
// optional one a warning. Lists are compared by the keys their items carry (their data differs between the sides).
import { resolve, type Schema } from './shape.js';

interface Dropped {
  field: string;
  mock: unknown;
  target: unknown;
}
export interface DroppedFindings {
  differences: Map<string, Dropped>;
  warnings: Map<string, Dropped>;
}

/** Nesting deeper than this is not walked (answers are bounded; a hostile target must not overflow the stack). */
const MAX_DEPTH = 64;
const REQUIRED_DROPPED = { mock: 'present (required)', target: 'absent' } as const;
const OPTIONAL_DROPPED = { mock: 'present', target: 'absent' } as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The object schema among a schema's branches (anyOf/oneOf of an object and null, as optional models are served). */
function objectSchema(doc: Schema, schema: Schema | undefined): Schema | undefined {
  if (!schema) return undefined;
  const s = resolve(doc, schema);
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (!branches) return s;
  for (const b of branches) {
    const r = resolve(doc, b);
    if (r.properties || r.type === 'object' || r.type === 'array') return r;
  }
  return undefined;
}

/** Every key any item carries, with the first value seen under it: the shape of a list's items. */
function keysOfItems(items: unknown[]): Json | undefined {
  const merged: Json = {};
  let objects = 0;
  for (const item of items) {
    if (!isObject(item)) continue;
    objects++;
    for (const [k, v] of Object.entries(item)) if (!Object.hasOwn(merged, k)) merged[k] = v;
  }
  return objects > 0 ? merged : undefined;
}

/** Walks the mock's answer beside the target's, noting at `path` each field the target dropped. */
export function droppedFields(doc: Schema, schema: Schema | undefined, mock: unknown, target: unknown, path: string, out: DroppedFindings, depth = 0): void {
  if (depth > MAX_DEPTH) return;
  const s = objectSchema(doc, schema);
  if (Array.isArray(mock) && Array.isArray(target)) {
    // An empty list on either side says nothing of its items' fields.
    const m = keysOfItems(mock);
    const t = keysOfItems(target);
    if (m && t) droppedFields(doc, s?.items as Schema | undefined, m, t, `${path}[]`, out, depth + 1);
    return;
  }
  if (!isObject(mock) || !isObject(target)) return;
  const properties = (s?.properties ?? {}) as Record<string, Schema>;
  const required = new Set((s?.required ?? []) as string[]);
  const extra = s?.additionalProperties;
  for (const [key, value] of Object.entries(mock)) {
    const field = `${path}.${key}`;
    if (!Object.hasOwn(target, key)) {
      // Already a difference of its own (a next_action the envelope check named): not reported twice.
      if (out.differences.has(field)) continue;
      const into = required.has(key) ? out.differences : out.warnings;
      if (!into.has(field)) into.set(field, { field, ...(required.has(key) ? REQUIRED_DROPPED : OPTIONAL_DROPPED) });
      continue;
    }
    const below = Object.hasOwn(properties, key) ? properties[key] : typeof extra === 'object' && extra !== null ? (extra as Schema) : undefined;
    droppedFields(doc, below, value, target[key], field, out, depth + 1);
  }
}
