// Parses input with valibot schemas and maps failures to FastAPI-style validation items.
import * as v from 'valibot';
import { ValidationError, type LocPart, type ValidationItem } from './errors.js';

type AnySchema = v.GenericSchema<unknown, unknown>;

/** valibot issue type -> pydantic error type, so clients written against FastAPI see familiar names. */
const TYPE_NAMES: Record<string, string> = {
  string: 'string_type',
  number: 'float_type',
  integer: 'int_type',
  boolean: 'bool_type',
  object: 'model_attributes_type',
  strict_object: 'model_attributes_type',
  loose_object: 'model_attributes_type',
  record: 'dict_type',
  custom: 'dict_type',
  array: 'list_type',
  picklist: 'enum',
  literal: 'literal_error',
  variant: 'union_tag_invalid',
  union: 'union_error',
  uuid: 'uuid_parsing',
  iso_timestamp: 'datetime_parsing',
  min_value: 'greater_than_equal',
  max_value: 'less_than_equal',
  min_length: 'too_short',
  max_length: 'too_long',
  non_empty: 'too_short',
  regex: 'string_pattern_mismatch',
  finite: 'finite_number',
  safe_integer: 'int_type',
};

function issueToItem(issue: v.BaseIssue<unknown>, part: LocPart): ValidationItem {
  const loc: (string | number)[] = [part];
  for (const p of issue.path ?? []) loc.push(p.key as string | number);
  const missing = issue.kind === 'schema' && issue.received === 'undefined' && issue.input === undefined;
  if (missing) return { loc, msg: 'Field required', type: 'missing', input: null };
  const item: ValidationItem = {
    loc,
    msg: issue.message,
    type: TYPE_NAMES[issue.type] ?? 'value_error',
    input: issue.input === undefined ? null : issue.input,
  };
  const ctx: Record<string, unknown> = {};
  if (issue.expected !== null && issue.expected !== undefined) ctx.expected = issue.expected;
  const req = (issue as { requirement?: unknown }).requirement;
  if (issue.type === 'min_value') ctx.ge = req;
  if (issue.type === 'max_value') ctx.le = req;
  if (issue.type === 'min_length' || issue.type === 'max_length') ctx.length = req;
  if (Object.keys(ctx).length > 0) item.ctx = ctx;
  return item;
}

export function issuesToItems(issues: readonly v.BaseIssue<unknown>[], part: LocPart): ValidationItem[] {
  return issues.map((i) => issueToItem(i, part));
}

/** Validates `input` (one request part) and returns the typed output, or throws a 422. */
export function parse<S extends AnySchema>(schema: S, input: unknown, part: LocPart): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (result.success) return result.output as v.InferOutput<S>;
  throw new ValidationError(issuesToItems(result.issues, part));
}

/** Renders issues as `runs[3].status: message` lines, for fixture and data-file errors. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string[] {
  return issues.map((issue) => {
    let path = '';
    for (const p of issue.path ?? []) {
      path += typeof p.key === 'number' ? `[${p.key}]` : path === '' ? String(p.key) : `.${String(p.key)}`;
    }
    const missing = issue.received === 'undefined' && issue.input === undefined;
    return `${path || '(root)'}: ${missing ? 'field required' : issue.message}`;
  });
}
