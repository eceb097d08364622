// Checks one answer body against an OpenAPI response schema: required fields, nullable-ness, value sets, types and
// patterns are differences; keys the schema does not name are compatible (the contract allows extra fields).
import { jsonValueTooDeep, MAX_JSON_DEPTH } from '../json-depth.js';

/** A JSON Schema (the subset the served document uses), or a `$ref` into its components. */
export type Schema = Record<string, unknown>;
interface Finding {
  field: string;
  mock: unknown;
  target: unknown;
}
export interface ShapeFindings {
  differences: Map<string, Finding>;
  compatible: Map<string, Finding>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// RFC 3339 date-time, as pydantic serializes it (Z or an offset; fractional seconds optional).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/;
/** Nesting deeper than this is not walked: answers are bounded, and a hostile target must not overflow the stack. */
const MAX_DEPTH = 64;

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;
const fits = (type: string, v: unknown) => {
  const t = typeOf(v);
  return t === type || (type === 'number' && t === 'integer');
};
/** Longest JSON text of a value a finding keeps whole; a longer one is kept as its first characters and `…`. */
export const MAX_SHOWN = 300;
/** A value as a finding shows it: whole when small, else the start of its JSON text (reports stay bounded). */
export function bounded(v: unknown): unknown {
  if (v === undefined || v === null || typeof v === 'number' || typeof v === 'boolean') return v;
  if (jsonValueTooDeep(v)) return `(nested deeper than ${MAX_JSON_DEPTH} levels)`;
  const text = JSON.stringify(v);
  return text.length <= MAX_SHOWN ? v : `${text.slice(0, MAX_SHOWN)}…`;
}
const note = (into: Map<string, Finding>, field: string, mock: unknown, target: unknown) => {
  if (!into.has(field)) into.set(field, { field, mock: bounded(mock), target: bounded(target) });
};

/** Resolves a local `$ref` (`#/components/...`) against the document; other schemas pass through. */
export function resolve(doc: Schema, schema: Schema): Schema {
  let s = schema;
  for (let hops = 0; typeof s.$ref === 'string' && hops < 16; hops++) {
    let at: unknown = doc;
    for (const part of (s.$ref as string).replace(/^#\//, '').split('/')) at = (at as Schema | undefined)?.[part];
    s = (at as Schema | undefined) ?? {};
  }
  return s;
}

/** Walks `value` against `schema`, recording at `path` (`body.items[].status`) what differs and what is only extra. */
export function checkShape(doc: Schema, schema: Schema, value: unknown, path: string, out: ShapeFindings, depth = 0): void {
  const s = resolve(doc, schema);
  if (depth > MAX_DEPTH) return;
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches) return checkBranches(doc, branches, value, path, out, depth);
  if (s.const !== undefined && value !== s.const) return note(out.differences, path, s.const, value);
  if (Array.isArray(s.enum) && !s.enum.includes(value)) return note(out.differences, path, s.enum, value);
  const type = s.type as string | string[] | undefined;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (!types.some((t) => fits(t, value))) return note(out.differences, path, value === null ? 'not nullable' : types.join(' | '), value);
  }
  if (typeof value === 'string') {
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value)) return note(out.differences, path, `pattern ${s.pattern}`, value);
    if (s.format === 'uuid' && !UUID.test(value)) return note(out.differences, path, 'format uuid', value);
    if (s.format === 'date-time' && !DATE_TIME.test(value)) return note(out.differences, path, 'format date-time', value);
  }
  if (Array.isArray(value) && s.items && typeof s.items === 'object') {
    for (const item of value) checkShape(doc, s.items as Schema, item, `${path}[]`, out, depth + 1);
  }
  if (typeOf(value) === 'object' && (s.properties || s.required)) checkObject(doc, s, value as Record<string, unknown>, path, out, depth);
}

function checkObject(doc: Schema, s: Schema, value: Record<string, unknown>, path: string, out: ShapeFindings, depth: number): void {
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  for (const key of (s.required ?? []) as string[]) {
    if (!Object.hasOwn(value, key)) note(out.differences, `${path}.${key}`, 'present (required)', 'absent');
  }
  const extra = s.additionalProperties;
  for (const [key, v] of Object.entries(value)) {
    if (Object.hasOwn(properties, key)) checkShape(doc, properties[key], v, `${path}.${key}`, out, depth + 1);
    else if (extra && typeof extra === 'object') checkShape(doc, extra as Schema, v, `${path}.${key}`, out, depth + 1);
    else if (extra !== true) note(out.compatible, `${path}.${key}`, 'absent', v);
  }
}

/** anyOf/oneOf: the value conforms when one branch finds no difference; else the closest branch's findings count. */
function checkBranches(doc: Schema, branches: Schema[], value: unknown, path: string, out: ShapeFindings, depth: number): void {
  let best: ShapeFindings | null = null;
  for (const branch of branches) {
    const trial: ShapeFindings = { differences: new Map(), compatible: new Map() };
    checkShape(doc, branch, value, path, trial, depth + 1);
    if (!best || trial.differences.size < best.differences.size) best = trial;
    if (trial.differences.size === 0) break;
  }
  if (!best) return;
  // A null no branch takes is a nullable-ness difference, named as such (a branch takes it by its type list, `type:
  // 'null'`, or no type at all).
  if (value === null && best.differences.size > 0) return note(out.differences, path, 'not nullable', null);
  for (const [k, f] of best.differences) note(out.differences, k, f.mock, f.target);
  for (const [k, f] of best.compatible) note(out.compatible, k, f.mock, f.target);
}
