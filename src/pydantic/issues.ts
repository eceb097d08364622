// One valibot issue -> the pydantic item it stands for: loc, type, input (as pydantic reports it) and ctx. The message
// is rendered afterwards from the table in src/validation.ts, which also turns unknown types into value_error.
import type * as v from 'valibot';
import { MAX_INT } from './numbers.js';
import { parseUuid } from './uuid.js';
import { parseDatetime } from './datetime.js';
import { pyOrList, pyRepr } from './repr.js';

export interface RawItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

type PathItem = { origin?: string; input?: unknown; key?: unknown; value?: unknown };

/** `"a" | "b"` or `("a" | "b")` (valibot's expects of string picklists and literals) -> ['a', 'b']. */
function expectedValues(expected: string | null): string[] {
  if (!expected) return [];
  return expected
    .replace(/^\(|\)$/g, '')
    .split(' | ')
    .map((s) => (s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s));
}

const requirement = (issue: v.BaseIssue<unknown>) => (issue as { requirement?: unknown }).requirement;

/** The pydantic type and ctx for a valibot issue (schema issues by schema type, pipe actions by action type). */
function typeAndCtx(issue: v.BaseIssue<unknown>, input: unknown): { type: string; ctx?: Record<string, unknown> } {
  const req = requirement(issue);
  switch (issue.type) {
    case 'object':
    case 'loose_object':
    case 'strict_object':
      return { type: 'model_attributes_type' };
    case 'record':
      return { type: 'dict_type' };
    case 'array':
    case 'tuple':
      return { type: 'list_type' };
    case 'string':
      return { type: 'string_type' };
    case 'number':
      return { type: typeof input === 'string' ? 'float_parsing' : 'float_type' };
    case 'boolean':
      return { type: 'bool_type' };
    case 'picklist':
    case 'enum':
      return { type: 'enum', ctx: { expected: pyOrList(expectedValues(issue.expected)) } };
    case 'literal':
      return { type: 'literal_error', ctx: { expected: pyOrList(expectedValues(issue.expected)) } };
    case 'min_value':
      return { type: 'greater_than_equal', ctx: { ge: req } };
    case 'max_value':
      return { type: 'less_than_equal', ctx: { le: req } };
    case 'gt_value':
      return { type: 'greater_than', ctx: { gt: req } };
    case 'lt_value':
      return { type: 'less_than', ctx: { lt: req } };
    case 'min_length':
    case 'non_empty':
      if (Array.isArray(input)) return { type: 'too_short', ctx: { field_type: 'List', min_length: req ?? 1, actual_length: input.length } };
      return { type: 'string_too_short', ctx: { min_length: req ?? 1 } };
    case 'max_length':
      if (Array.isArray(input)) return { type: 'too_long', ctx: { field_type: 'List', max_length: req, actual_length: input.length } };
      return { type: 'string_too_long', ctx: { max_length: req } };
    case 'regex':
      return { type: 'string_pattern_mismatch', ctx: { pattern: (req as RegExp).source } };
    case 'starts_with':
      return { type: 'string_pattern_mismatch', ctx: { pattern: `^${String(req).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}` } };
    case 'integer':
    case 'safe_integer':
      if (typeof input === 'number' && !Number.isFinite(input)) return { type: 'finite_number' };
      if (typeof input === 'number' && !Number.isInteger(input)) return { type: 'int_from_float' };
      if (typeof input === 'number' && input > MAX_INT) return { type: 'less_than_equal', ctx: { le: MAX_INT } };
      if (typeof input === 'number' && input < -MAX_INT) return { type: 'greater_than_equal', ctx: { ge: -MAX_INT } };
      return { type: 'int_type' };
    case 'finite':
      return { type: 'finite_number' };
    case 'uuid': {
      const r = typeof input === 'string' ? parseUuid(input) : undefined;
      return r && !r.ok ? { type: 'uuid_parsing', ctx: { error: r.error } } : { type: 'uuid_type' };
    }
    case 'iso_timestamp': {
      const r = parseDatetime(input);
      return !r.ok && r.error ? { type: 'datetime_parsing', ctx: { error: r.error } } : { type: 'datetime_type' };
    }
    default:
      // Issues of src/pydantic schemas already carry pydantic's type and ctx; anything else is a rule of the mock's own.
      return { type: issue.type, ctx: req as Record<string, unknown> | undefined };
  }
}

/**
 * The item for one issue. `input` is what pydantic reports: the raw parameter string for query and path (the value
 * before any coercion), the enclosing object for a missing field (null for a missing parameter), else the value as
 * received at that loc.
 */
export function issueToItem(issue: v.BaseIssue<unknown>, part: string, root: unknown): RawItem {
  const path = (issue.path ?? []) as PathItem[];
  const loc: (string | number)[] = [part, ...path.map((p) => p.key as string | number)];
  const last = path.at(-1);
  const missing = issue.kind === 'schema' && issue.input === undefined && last?.origin === 'key';
  if (missing) return { loc, msg: 'Field required', type: 'missing', input: part === 'body' ? last.input : null };
  const param = part === 'query' || part === 'path';
  const raw = param && path.length > 0 ? path[0].value : last ? last.value : root;
  // valibot's own strictObject reports an unknown key (the first) at the key: pydantic's extra_forbidden, input the value.
  if (issue.type === 'strict_object' && issue.expected === 'never' && last?.origin === 'key')
    return { loc, msg: issue.message, type: 'extra_forbidden', input: last.value };
  if (issue.type === 'variant' && issue.expected === 'Object') return { loc, msg: issue.message, type: 'model_attributes_type', input: raw };
  if (issue.type === 'variant') {
    // The discriminated union's own loc is the object holding the tag, and its input is that object.
    const object = last?.input;
    loc.pop();
    if (Array.isArray(object)) return { loc, msg: issue.message, type: 'model_attributes_type', input: object };
    const discriminator = `'${String(last?.key)}'`;
    if (issue.input === undefined) return { loc, msg: issue.message, type: 'union_tag_not_found', input: object, ctx: { discriminator } };
    const tags = expectedValues(issue.expected)
      .map((t) => pyRepr(t))
      .join(', ');
    const tag = typeof issue.input === 'string' ? issue.input : pyRepr(issue.input);
    return { loc, msg: issue.message, type: 'union_tag_invalid', input: object, ctx: { discriminator, tag, expected_tags: tags } };
  }
  const { type, ctx } = typeAndCtx(issue, issue.input);
  return { loc, msg: issue.message, type, input: raw === undefined ? issue.input : raw, ...(ctx ? { ctx } : {}) };
}
