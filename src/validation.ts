// Validation items exactly as FastAPI + pydantic v2 write them: the one table of error types (message templates from
// pydantic-core 2.41.5, src/errors/types.rs, the core of pydantic 2.12), the translation of valibot issues into those
// items, and the 422 error that carries them. Every 422 item passes through this table, whoever builds it.
import * as v from 'valibot';
import { issueToItem, withSuggestions } from './pydantic/index.js';
import { jsonValueTooDeep } from './json-depth.js';

type CtxKind = 'number' | 'integer' | 'string';

interface ErrorRow {
  /** pydantic-core's message template; `{expected_plural}` is "" for 1 and "s" otherwise. */
  template: string;
  /** The ctx keys pydantic reports (absent: the item has no ctx). */
  ctx?: Record<string, CtxKind>;
  /** ctx keys of the mock's own, kept when given (pydantic's item has no ctx then). */
  optionalCtx?: Record<string, CtxKind>;
}

/** Every error `type` this API answers with, in pydantic-core's words. */
export const PYDANTIC_ERRORS = {
  missing: { template: 'Field required' },
  model_attributes_type: { template: 'Input should be a valid dictionary or object to extract fields from' },
  dict_type: { template: 'Input should be a valid dictionary' },
  list_type: { template: 'Input should be a valid list' },
  string_type: { template: 'Input should be a valid string' },
  string_too_short: { template: 'String should have at least {min_length} character{expected_plural}', ctx: { min_length: 'integer' } },
  string_too_long: { template: 'String should have at most {max_length} character{expected_plural}', ctx: { max_length: 'integer' } },
  string_pattern_mismatch: { template: "String should match pattern '{pattern}'", ctx: { pattern: 'string' } },
  int_type: { template: 'Input should be a valid integer' },
  int_parsing: { template: 'Input should be a valid integer, unable to parse string as an integer' },
  int_from_float: { template: 'Input should be a valid integer, got a number with a fractional part' },
  float_type: { template: 'Input should be a valid number' },
  float_parsing: { template: 'Input should be a valid number, unable to parse string as a number' },
  finite_number: { template: 'Input should be a finite number' },
  bool_type: { template: 'Input should be a valid boolean' },
  bool_parsing: { template: 'Input should be a valid boolean, unable to interpret input' },
  greater_than: { template: 'Input should be greater than {gt}', ctx: { gt: 'number' } },
  greater_than_equal: { template: 'Input should be greater than or equal to {ge}', ctx: { ge: 'number' } },
  less_than: { template: 'Input should be less than {lt}', ctx: { lt: 'number' } },
  less_than_equal: { template: 'Input should be less than or equal to {le}', ctx: { le: 'number' } },
  enum: { template: 'Input should be {expected}', ctx: { expected: 'string' } },
  literal_error: { template: 'Input should be {expected}', ctx: { expected: 'string' } },
  union_tag_invalid: {
    template: "Input tag '{tag}' found using {discriminator} does not match any of the expected tags: {expected_tags}",
    ctx: { discriminator: 'string', tag: 'string', expected_tags: 'string' },
  },
  union_tag_not_found: { template: 'Unable to extract tag using discriminator {discriminator}', ctx: { discriminator: 'string' } },
  uuid_type: { template: 'UUID input should be a string, bytes or UUID object' },
  uuid_parsing: { template: 'Input should be a valid UUID, {error}', ctx: { error: 'string' } },
  datetime_type: { template: 'Input should be a valid datetime' },
  datetime_parsing: { template: 'Input should be a valid datetime, {error}', ctx: { error: 'string' } },
  /**
   * A rule of the service's own (a validator raising ValueError). FastAPI renders the exception in ctx as `{}`. The
   * mock adds ctx.did_you_mean when the rule names a value meant (an operation id), as extra_forbidden names a key.
   */
  value_error: { template: 'Value error, {error}', ctx: { error: 'string' }, optionalCtx: { did_you_mean: 'string' } },
  /**
   * An unknown key in a document that forbids them (fixtures and control bodies; pydantic's extra="forbid"). The
   * mock adds ctx.did_you_mean, the closest known key, when one is close (docs/decisions.md).
   */
  extra_forbidden: { template: 'Extra inputs are not permitted', optionalCtx: { did_you_mean: 'string' } },
  /** FastAPI's own item for a body json.loads refuses: loc ["body", char offset], input {}, ctx.error = Python's message. */
  json_invalid: { template: 'JSON decode error', ctx: { error: 'string' } },
} as const satisfies Record<string, ErrorRow>;

export type PydanticErrorType = keyof typeof PYDANTIC_ERRORS;
export const PYDANTIC_ERROR_TYPES = Object.keys(PYDANTIC_ERRORS) as PydanticErrorType[];
const isTableType = (t: string): t is PydanticErrorType => Object.hasOwn(PYDANTIC_ERRORS, t);

export type LocPart = 'body' | 'query' | 'path' | 'header';

/** One FastAPI/pydantic validation item. */
export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** Python's str() of a ctx number in a message: integers without exponent (Rust's Display). */
function numberText(n: unknown): string {
  if (typeof n !== 'number') return String(n);
  return Number.isInteger(n) && Math.abs(n) >= 1e21 ? BigInt(n).toString() : String(n);
}

/** The message of a table row for a ctx. */
function renderMessage(type: PydanticErrorType, ctx: Record<string, unknown> = {}): string {
  const row: ErrorRow = PYDANTIC_ERRORS[type];
  return row.template.replace(/\{(\w+)\}/g, (_, key: string) => {
    if (key === 'expected_plural') return (ctx.min_length ?? ctx.max_length) === 1 ? '' : 's';
    return numberText(ctx[key]);
  });
}

/** The ctx keys of the mock's own a row allows (`optionalCtx`) that `ctx` gives, or undefined when it gives none. */
function ownCtx(row: ErrorRow, ctx: Record<string, unknown>): Record<string, unknown> | undefined {
  const own = Object.keys(row.optionalCtx ?? {}).filter((k) => ctx[k] !== undefined);
  return own.length > 0 ? Object.fromEntries(own.map((k) => [k, ctx[k]])) : undefined;
}

/**
 * The item as it goes on the wire: type from the table, msg rendered from its template, ctx only with the table's
 * keys, input always present. A type outside the table, or one without its ctx, becomes a value_error carrying the
 * given msg, so no other item shape can leave the mock.
 */
function toPydanticItem(item: ValidationItem): ValidationItem {
  const input = item.input === undefined ? null : item.input;
  const ctx = item.ctx ?? {};
  const row = isTableType(item.type) ? (PYDANTIC_ERRORS[item.type] as ErrorRow) : undefined;
  const complete = row && Object.keys(row.ctx ?? {}).every((k) => ctx[k] !== undefined);
  if (!row || !complete || item.type === 'value_error') {
    const error = item.msg.replace(/^Value error, /, '');
    // A rule of the mock's own may name the value meant (an operation id), as extra_forbidden names a key.
    const hint = ownCtx(PYDANTIC_ERRORS.value_error, ctx);
    return { type: 'value_error', loc: item.loc, msg: renderMessage('value_error', { error }), input, ctx: { error: {}, ...hint } };
  }
  const type = item.type as PydanticErrorType;
  if (type === 'json_invalid') return { type, loc: item.loc, msg: row.template, input: {}, ctx: { error: ctx.error } };
  const out: ValidationItem = { type, loc: item.loc, msg: renderMessage(type, ctx), input };
  if (row.ctx) out.ctx = Object.fromEntries(Object.keys(row.ctx).map((k) => [k, ctx[k]]));
  const own = ownCtx(row, ctx);
  if (own) out.ctx = { ...out.ctx, ...own };
  return out;
}

/** ` (did you mean "key"?)` for an item whose ctx names the closest known key or value, unless its message says it already. */
function didYouMean(item: ValidationItem): string {
  const hint = item.ctx?.did_you_mean;
  return typeof hint === 'string' && !item.msg.includes(`"${hint}"`) ? ` (did you mean "${hint}"?)` : '';
}

export class ValidationError extends Error {
  readonly status = 422;
  readonly items: ValidationItem[];
  constructor(items: ValidationItem[]) {
    const wire = items.map(toPydanticItem);
    // The message names the closest known key or value as the HTTP answer's ctx.did_you_mean does.
    super(wire.map((i) => `${i.loc.join('.')}: ${i.msg}${didYouMean(i)}`).join('; '));
    this.items = wire;
  }
}

/**
 * A single-item 422. `type` names a row of the table and `ctx` its values (the msg is rendered from the template);
 * for a rule of the mock's own, leave type as value_error and say what is wrong in `msg`.
 */
export function invalid(loc: (string | number)[], msg: string, type = 'value_error', input?: unknown, ctx?: Record<string, unknown>): ValidationError {
  return new ValidationError([{ loc, msg, type, input, ctx }]);
}

/** valibot issues as pydantic items, in pydantic's order; `root` is the validated value (for issues at the root). */
export function issuesToItems(issues: readonly v.BaseIssue<unknown>[], part: LocPart, root?: unknown): ValidationItem[] {
  return issues.flatMap((issue) => issueToItem(issue, part, root)).map(toPydanticItem);
}

/** Renders issues as `runs[3].status: message` lines (pydantic's messages), for fixture and data-file errors. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return issuesToItems(issues, 'body').map((item) => {
    let path = '';
    for (const key of item.loc.slice(1)) path += typeof key === 'number' ? `[${key}]` : path === '' ? String(key) : `.${String(key)}`;
    return `${path || '(root)'}: ${item.msg}${didYouMean(item)}`;
  });
}

/** A parsed body that the reader already checked for depth (src/body): parse() need not walk it again. */
export const depthChecked = new WeakSet<object>();

/**
 * Validates `input` (one request part) and returns the typed output, or throws a 422 whose items come in pydantic's
 * order (field declaration order), one per failing value. Objects handed in by code (the in-process API, fixtures)
 * are refused when nested deeper than the JSON limit, before anything recursive sees them.
 */
export function parse<S extends v.GenericSchema<unknown, unknown>>(schema: S, input: unknown, part: LocPart): v.InferOutput<S> {
  // Path and query values are flat strings; a body the reader parsed was checked on its text.
  if (part === 'body' && typeof input === 'object' && input !== null && !depthChecked.has(input) && jsonValueTooDeep(input)) {
    throw invalid([part], 'JSON nested deeper than the limit', 'value_error', null);
  }
  // valibot's strictObject reports one unknown key and no suggestion: its strictModel copy reports each, as pydantic.
  const result = v.safeParse(withSuggestions(schema), input, { abortEarly: false, abortPipeEarly: true });
  if (result.success) return result.output as v.InferOutput<S>;
  throw new ValidationError(issuesToItems(result.issues, part, input));
}
