// The validation error's schema for the OpenAPI document (one item shape per row of the pydantic table): built when the
// document is first asked for, in its own chunk, since a mock that never serves the document never needs it.
import * as v from 'valibot';
import { PYDANTIC_ERRORS, PYDANTIC_ERROR_TYPES, type PydanticErrorType } from '../validation.js';

const CTX_SCHEMAS = { number: v.number(), integer: v.pipe(v.number(), v.integer()), string: v.string() };

/** A message template as a pattern: the fixed text exactly, each placeholder as some text. */
function templatePattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\{expected_plural\}/g, 's?').replace(/\{\w+\}/g, '[\\s\\S]+')}$`);
}

/** One item of a row of the pydantic table (src/validation.ts): its type, its exact msg, its input, its ctx keys. */
function itemSchema(type: PydanticErrorType) {
  const row: { template: string; ctx?: Record<string, keyof typeof CTX_SCHEMAS>; optionalCtx?: Record<string, keyof typeof CTX_SCHEMAS> } =
    PYDANTIC_ERRORS[type];
  const msg = row.template.includes('{') ? v.pipe(v.string(), v.regex(templatePattern(row.template))) : v.literal(row.template);
  const entries: v.ObjectEntries = {
    type: v.literal(type),
    // body, query, path or header first (JSON Schema's strict mode has no open tuples to say so)
    loc: v.pipe(v.array(v.union([v.string(), v.number()])), v.minLength(type === 'json_invalid' ? 2 : 1)),
    msg,
    input: type === 'json_invalid' ? v.object({}) : v.unknown(),
  };
  const given = Object.entries(row.ctx ?? {}).map(([k, kind]) => [k, type === 'value_error' ? v.object({}) : CTX_SCHEMAS[kind]]);
  const optional = Object.entries(row.optionalCtx ?? {}).map(([k, kind]) => [k, v.optional(CTX_SCHEMAS[kind])]);
  const ctx = v.object(Object.fromEntries([...given, ...optional]) as v.ObjectEntries);
  if (given.length > 0) entries.ctx = ctx;
  else if (optional.length > 0) entries.ctx = v.optional(ctx);
  return v.object(entries);
}

/** FastAPI/pydantic validation error: one item per failing value, each exactly a row of the pydantic table. */
export const ValidationErrorSchema = v.object({
  detail: v.pipe(v.array(v.variant('type', PYDANTIC_ERROR_TYPES.map(itemSchema) as unknown as v.VariantOptions<'type'>)), v.minLength(1)),
});
