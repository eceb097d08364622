// Models that forbid unknown keys, as pydantic's `extra="forbid"`: each unknown key is an `extra_forbidden` item at
// its own loc (after the field items, in input order), carrying the closest known key as `ctx.did_you_mean`.
import * as v from 'valibot';
import { addPydanticIssue, model } from './schemas.js';

/** Keys longer than this get no suggestion: the distance below costs (key length x known length). */
const MAX_SUGGEST_LENGTH = 64;

/** Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one substring). */
function distance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0].push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}

/**
 * The known key closest to `key`: the same letters in another case, or at most a third of the longer key's length
 * away in edits (at least one edit is always allowed), nearest first, ties in declaration order. None when nothing
 * is that close.
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  if (key.length > MAX_SUGGEST_LENGTH) return undefined;
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = candidate.toLowerCase() === lower ? 0.5 : distance(lower, candidate.toLowerCase());
    const allowed = Math.max(1, Math.floor(Math.max(key.length, candidate.length) / 3));
    if (d <= allowed && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Adds one extra_forbidden issue per unknown own key of `input` (a key whose value is undefined is no JSON key). */
function addExtraIssues(
  dataset: v.UnknownDataset,
  config: v.Config<v.BaseIssue<unknown>>,
  input: Record<string, unknown>,
  known: readonly string[],
  names: ReadonlySet<string>,
): void {
  for (const key of Object.keys(input)) {
    if (names.has(key) || input[key] === undefined) continue;
    const suggestion = closestKey(key, known);
    addPydanticIssue(dataset, config, 'extra_forbidden', suggestion === undefined ? undefined : { did_you_mean: suggestion });
    const issue = (dataset as unknown as { issues: v.BaseIssue<unknown>[] }).issues.at(-1)!;
    // The issue's input is the key (never undefined, so it cannot read as a missing field); the item's is the value.
    (issue as { input: unknown }).input = key;
    (issue as { path?: unknown[] }).path = [{ type: 'object', origin: 'key', input, key, value: input[key] }];
  }
}

/**
 * A pydantic model with `extra="forbid"`: validates like `model` (declaration order, arrays refused), then refuses
 * every key it does not name. Its type is valibot's strict_object, so its JSON Schema says additionalProperties false.
 */
export function strictModel<const E extends v.ObjectEntries>(entries: E): v.ObjectSchema<E, undefined> {
  const base = model(entries);
  const known = Object.keys(entries);
  const names = new Set(known);
  return v._standardSchema({
    ...base,
    type: 'strict_object',
    reference: v.strictObject,
    '~run'(dataset: v.UnknownDataset, config: v.Config<v.BaseIssue<unknown>>) {
      const input = dataset.value;
      const out = base['~run'](dataset, config) as unknown as v.UnknownDataset;
      if (input && typeof input === 'object' && !Array.isArray(input) && !(config.abortEarly && out.issues)) {
        addExtraIssues(out, config, input as Record<string, unknown>, known, names);
      }
      return out;
    },
  } as never) as unknown as v.ObjectSchema<E, undefined>;
}

type Any = v.GenericSchema<unknown, unknown>;
type Node = Any & { type: string; entries?: v.ObjectEntries; wrapped?: Any; default?: unknown; item?: Any; options?: Any[]; key?: string; pipe?: unknown[] };

const strictCopies = new WeakMap<object, Any>();
const suggestingCopies = new WeakMap<object, Any>();
/** The strict copies handed out before they were made (one per schema, so a schema named twice is one object). */
const lazyCopies = new WeakMap<object, Any>();

/**
 * The same schema with every model in it strict (objects inside optionals, nullables, arrays, pipes and unions;
 * free-form values, records and loose objects stay open). For documents whose shared parts are lax elsewhere: the
 * fixture's records are the stored records, and a control body may embed a v3 response shape.
 */
export function forbidExtra<S extends v.GenericSchema<unknown, unknown>>(schema: S): S {
  const hit = strictCopies.get(schema) ?? lazyCopies.get(schema);
  if (hit) return hit as unknown as S;
  // A copy expects what its schema expects (each kind is remade from parts that do): wrapping it (v.optional) makes nothing.
  const lazy = madeAtFirstUse(() => convert(schema as Any, true), { expects: (schema as Any).expects });
  lazyCopies.set(schema, lazy);
  return lazy as unknown as S;
}

/**
 * A schema that is `make()`'s, made at its first use (a parse, a property read but `expects`, a key listing): the control and
 * fixture schemas are module constants, and copying them whole at import cost a fresh process more than the rest of
 * the schemas together, while most mocks never validate a control body or a fixture.
 */
function madeAtFirstUse(make: () => Any, known: { expects: string }): Any {
  let made: Any | undefined;
  const target = () => (made ??= make());
  return new Proxy({} as Any, {
    get: (_, key) => (key === 'expects' && made === undefined ? known.expects : Reflect.get(target(), key)),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    // Reported configurable: the proxy's own (empty) object has no such key, and a proxy may not say otherwise of it.
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(target(), key);
      return found && { ...found, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
    set: (_, key, value) => Reflect.set(target(), key, value),
    deleteProperty: (_, key) => Reflect.deleteProperty(target(), key),
  });
}

/**
 * The same schema with each of valibot's own strictObjects (at any depth) made a strictModel: every unknown key
 * reported, with its suggestion. Lax objects stay lax; a schema without a strictObject is returned as it is.
 * parse() applies it, so a body written with `v.strictObject` answers as a strictModel would.
 */
export function withSuggestions<S extends v.GenericSchema<unknown, unknown>>(schema: S): S {
  return convert(schema as Any, false) as unknown as S;
}

function convert(schema: Any, all: boolean): Any {
  const memo = all ? strictCopies : suggestingCopies;
  const hit = memo.get(schema);
  if (hit) return hit;
  const s = schema as Node;
  const inner = (x: Any) => convert(x, all);
  let out: Any = schema;
  if (s.pipe) {
    const [head, ...actions] = s.pipe as [Any, ...v.PipeItem<unknown, unknown, v.BaseIssue<unknown>>[]];
    const converted = inner(head);
    out = converted === head ? schema : (v.pipe(converted, ...actions) as Any);
  } else if ((s.type === 'object' || s.type === 'strict_object') && s.entries) {
    const entries = Object.entries(s.entries).map(([k, e]) => [k, inner(e as Any)] as const);
    const changed = entries.some(([k, e]) => e !== s.entries![k]);
    if (all || s.type === 'strict_object') out = strictModel(Object.fromEntries(entries));
    else if (changed) out = model(Object.fromEntries(entries));
  } else if ((s.type === 'optional' || s.type === 'nullable' || s.type === 'nullish') && s.wrapped) {
    const make = { optional: v.optional, nullable: v.nullable, nullish: v.nullish }[s.type] as (w: Any, d?: unknown) => Any;
    const converted = inner(s.wrapped);
    out = converted === s.wrapped ? schema : 'default' in s && s.default !== undefined ? make(converted, s.default) : make(converted);
  } else if (s.type === 'array' && s.item) {
    const converted = inner(s.item);
    out = converted === s.item ? schema : v.array(converted);
  } else if (s.type === 'union' && s.options) {
    const options = s.options.map(inner);
    out = options.every((o, i) => o === s.options![i]) ? schema : v.union(options as [Any, ...Any[]]);
  } else if (s.type === 'variant' && s.options && s.key) {
    const options = s.options.map(inner);
    out = options.every((o, i) => o === s.options![i]) ? schema : v.variant(s.key, options as never);
  }
  memo.set(schema, out);
  return out;
}
