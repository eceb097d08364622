// valibot schemas that validate like pydantic v2 fields in lax mode (int, float, bool, UUID, datetime, dict, model):
// they coerce what pydantic coerces and raise issues whose `type` is already pydantic's, with its ctx in `requirement`.
import * as v from 'valibot';
import { MAX_INT, toBool, toFloat, toInt, type Coerced } from './numbers.js';
import { parseUuid } from './uuid.js';
import { parseDatetime } from './datetime.js';

type Check<T> = (x: unknown) => Coerced<T> | { ok: false; type: string; ctx?: Record<string, unknown>; at?: (string | number)[] };

/** A schema of this module: a valibot schema that also carries its JSON Schema (for the OpenAPI document). */
export type PydanticSchema<T> = v.BaseSchema<T, T, v.BaseIssue<unknown>> & { readonly jsonSchema: Record<string, unknown> };

/** Adds an issue the way valibot's own schemas do, with pydantic's type and ctx. */
export function addPydanticIssue(dataset: v.UnknownDataset, config: v.Config<v.BaseIssue<unknown>>, type: string, ctx?: Record<string, unknown>): void {
  const issue: v.BaseIssue<unknown> = {
    kind: 'schema',
    type,
    input: dataset.value,
    expected: null,
    received: typeof dataset.value,
    message: type, // rendered from the pydantic table by src/validation.ts
    requirement: ctx,
    path: undefined,
    issues: undefined,
    lang: config.lang,
    abortEarly: config.abortEarly,
    abortPipeEarly: config.abortPipeEarly,
  };
  (dataset as { typed: boolean }).typed = false;
  const d = dataset as { issues?: v.BaseIssue<unknown>[] };
  if (d.issues) d.issues.push(issue);
  else d.issues = [issue];
}

function pydanticSchema<T>(name: string, jsonSchema: Record<string, unknown>, check: Check<T>): PydanticSchema<T> {
  const schema = {
    kind: 'schema' as const,
    type: name,
    reference: pydanticSchema,
    expects: name,
    async: false as const,
    jsonSchema,
    '~run'(dataset: v.UnknownDataset, config: v.Config<v.BaseIssue<unknown>>) {
      const r = check(dataset.value);
      if (r.ok) {
        (dataset as { value: unknown }).value = r.value;
        (dataset as { typed: boolean }).typed = true;
      } else {
        const fail = r as { type: string; ctx?: Record<string, unknown>; at?: (string | number)[] };
        addPydanticIssue(dataset, config, fail.type, fail.ctx);
        // An issue inside a free-form value names its place and the value there, as pydantic would for a typed field:
        // valibot's object and array schemas prefix their own keys to the path.
        if (fail.at?.length) {
          const issue = (dataset as unknown as { issues: { path?: unknown[]; input: unknown }[] }).issues.at(-1)!;
          issue.path = fail.at.map((key) => ({ type: typeof key === 'number' ? 'array' : 'object', origin: 'value', input: undefined, key, value: undefined }));
          issue.input = fail.at.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], dataset.value);
        }
      }
      return dataset;
    },
  };
  return v._standardSchema(schema as never) as unknown as PydanticSchema<T>;
}

/** pydantic `int`: also bounded to ±(2^53 - 1), the integers a JSON number holds exactly (less_than_equal / greater_than_equal). */
export const int = (): PydanticSchema<number> =>
  pydanticSchema('py_int', { type: 'integer', minimum: -MAX_INT, maximum: MAX_INT }, (x) => {
    const r = toInt(x);
    if (!r.ok) return r;
    if (r.value > MAX_INT) return { ok: false, type: 'less_than_equal', ctx: { le: MAX_INT } };
    if (r.value < -MAX_INT) return { ok: false, type: 'greater_than_equal', ctx: { ge: -MAX_INT } };
    return r;
  });

/** pydantic `float` with allow_inf_nan=False: 1e400 and "inf" are finite_number. */
export const float = (): PydanticSchema<number> =>
  pydanticSchema('py_float', { type: 'number' }, (x) => {
    const r = toFloat(x);
    if (r.ok && !Number.isFinite(r.value)) return { ok: false, type: 'finite_number' };
    return r;
  });

/** pydantic `bool` (lax). */
export const bool = (): PydanticSchema<boolean> => pydanticSchema('py_bool', { type: 'boolean' }, toBool);

/** pydantic `UUID`: the uuid crate's forms, canonicalized to lowercase hyphenated; ctx.error is the crate's message. */
export const uuid = (): PydanticSchema<string> =>
  pydanticSchema('py_uuid', { type: 'string', format: 'uuid' }, (x) => {
    if (typeof x !== 'string') return { ok: false, type: 'uuid_type' };
    const r = parseUuid(x);
    return r.ok ? r : { ok: false, type: 'uuid_parsing', ctx: { error: r.error } };
  });

/** pydantic `datetime` (speedate, lax): RFC 3339 text or a unix timestamp; the value is an ISO 8601 string. */
export const datetime = (): PydanticSchema<string> =>
  pydanticSchema('py_datetime', { type: 'string', format: 'date-time' }, (x) => {
    const r = parseDatetime(x);
    if (r.ok) return r;
    return r.error === undefined ? { ok: false, type: r.type } : { ok: false, type: r.type, ctx: { error: r.error } };
  });

const isDict = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Where a free-form value holds a number JSON cannot carry (1e400 reads as Infinity): such a value would be sent
 * and stored as null, so it is refused as pydantic refuses a non-finite float. Walked with an explicit stack (never
 * recursion: a fixture's depth is not checked by the body reader); the first place found, depth first.
 */
function nonFinitePlace(root: unknown): (string | number)[] | undefined {
  return hasNonFinite(root) ? placeOf(root) : undefined;
}

/** Whether any number under `root` is non-finite: the common answer (no) without a path per value. */
function hasNonFinite(root: unknown): boolean {
  if (typeof root === 'number') return !Number.isFinite(root);
  if (root === null || typeof root !== 'object') return false;
  const stack: object[] = [root];
  while (stack.length > 0) {
    const value = stack.pop()!;
    for (const item of Array.isArray(value) ? (value as unknown[]) : Object.values(value)) {
      if (typeof item === 'number') {
        if (!Number.isFinite(item)) return true;
      } else if (item !== null && typeof item === 'object') stack.push(item);
    }
  }
  return false;
}

/** The first non-finite number's place under `root`, depth first. */
function placeOf(root: unknown): (string | number)[] | undefined {
  const stack: [unknown, (string | number)[]][] = [[root, []]];
  while (stack.length > 0) {
    const [value, at] = stack.pop()!;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return at;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], [...at, i]]);
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) stack.push([(value as Record<string, unknown>)[keys[i]], [...at, keys[i]]]);
    }
  }
  return undefined;
}

/** pydantic `dict[str, Any]`: any JSON object (never an array) of finite numbers, kept as given. */
export const dict = (): PydanticSchema<Record<string, unknown>> =>
  pydanticSchema('py_dict', { type: 'object', additionalProperties: true }, (x) => {
    if (!isDict(x)) return { ok: false, type: 'dict_type' };
    const at = nonFinitePlace(x);
    return at ? { ok: false, type: 'finite_number', at } : { ok: true, value: x };
  });

/** pydantic `Any`: any JSON value whose numbers are finite (see nonFinitePlace), kept as given. */
export const anyJson = (): PydanticSchema<unknown> =>
  pydanticSchema('py_any', {}, (x) => {
    const at = nonFinitePlace(x);
    return at ? { ok: false, type: 'finite_number', at } : { ok: true, value: x };
  });

/**
 * A pydantic model: valibot's object schema (fields in declaration order, unknown keys dropped), except that a JSON
 * array is model_attributes_type, as for any other non-object (valibot's object accepts arrays).
 */
export function model<const E extends v.ObjectEntries>(entries: E): v.ObjectSchema<E, undefined> {
  const base = v.object(entries);
  const run = base['~run'];
  return v._standardSchema({
    ...base,
    '~run'(dataset: v.UnknownDataset, config: v.Config<v.BaseIssue<unknown>>) {
      if (Array.isArray(dataset.value)) {
        addPydanticIssue(dataset, config, 'model_attributes_type');
        return dataset;
      }
      return run.call(this, dataset, config);
    },
  } as never) as unknown as v.ObjectSchema<E, undefined>;
}

/**
 * pydantic's smart union over scalar members, tried in order (the first that validates wins, which for str | int is
 * what smart mode picks). When every member fails, each member's errors are reported with its label appended to the
 * loc, as pydantic does (`["body", "message", "from", "id", "int"]`).
 */
export function union<const M extends Record<string, v.GenericSchema>>(
  members: M,
  jsonSchema: Record<string, unknown>,
): PydanticSchema<v.InferOutput<M[keyof M]>> {
  const schema = {
    kind: 'schema' as const,
    type: 'py_union',
    reference: union,
    expects: Object.keys(members).join(' | '),
    async: false as const,
    jsonSchema,
    '~run'(dataset: v.UnknownDataset, config: v.Config<v.BaseIssue<unknown>>) {
      const input = dataset.value;
      const issues: v.BaseIssue<unknown>[] = [];
      for (const [label, member] of Object.entries(members)) {
        const out = member['~run']({ typed: false, value: input } as v.UnknownDataset, config);
        if (!out.issues) return out;
        for (const issue of out.issues) {
          const item = { type: 'object', origin: 'value', input, key: label, value: input } as unknown as v.IssuePathItem;
          (issue as { path?: v.IssuePathItem[] }).path = [item, ...(issue.path ?? [])];
          issues.push(issue);
        }
      }
      (dataset as { typed: boolean }).typed = false;
      const d = dataset as { issues?: v.BaseIssue<unknown>[] };
      d.issues = [...(d.issues ?? []), ...issues];
      return dataset;
    },
  };
  return v._standardSchema(schema as never) as unknown as PydanticSchema<v.InferOutput<M[keyof M]>>;
}
