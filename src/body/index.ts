// Request bodies read as FastAPI reads them: the bytes as sent (Content-Encoding is not decoded, as Starlette does
// not), JSON only for a JSON Content-Type, decoded as json.loads does, no deeper than MAX_JSON_DEPTH, and every refusal
// a 4xx of the contract's shape. The public face of src/body.
import type { Context } from 'koa';
import { ApiError } from '../errors.js';
import { ValidationError, depthChecked, invalid } from '../validation.js';
import { MAX_JSON_DEPTH, textTooDeepAt } from '../json-depth.js';
import { isJsonContentType } from './content-type.js';
import { decodeJsonBytes } from './decode.js';
import { readBody } from './read.js';
import { codePointIndex, pyJsonLoads } from './python-json.js';
import { endOf, until } from '../request-waits.js';

export { isJsonContentType };

/**
 * The request's bytes, read once (later calls get the same Buffer, kept in `ctx.state.rawBody` for the journal and
 * for signature checks). Larger than `limit`: 413 `payload_too_large`; a stream that ends early: 400 `body_unreadable`.
 */
export async function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  const cached = ctx.state.rawBody as Buffer | undefined;
  if (cached) return cached;
  // A read that failed fails the same way again (the stream is spent: a second read would wait for ever).
  if (ctx.state.rawBodyError) throw ctx.state.rawBodyError;
  let bytes: Buffer;
  try {
    // A slow body stops being waited for when the sandbox the request addresses ends (it then answers 404).
    bytes = await until(readBody(ctx.req, limit, ctx.get('content-length') || undefined), endOf(ctx));
  } catch (err) {
    const e = err as { reason?: string };
    ctx.state.rawBodyError =
      e.reason === 'too_large'
        ? new ApiError('payload_too_large')
        : new ApiError('body_unreadable', { message: 'The request body could not be read to its end.' });
    throw ctx.state.rawBodyError;
  }
  ctx.state.rawBody = bytes;
  return bytes;
}

/** Keys spelled `__proto__` (with or without \u escapes) followed by a colon: refused, never handed to code. */
const PROTO_KEY =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

/**
 * JSON text -> value, as json.loads would read it: over MAX_JSON_DEPTH levels is a json_invalid item at the offset of
 * the bracket that goes too deep (checked before any parsing); a syntax error is FastAPI's json_invalid item with
 * Python's message and character offset; NaN and Infinity are read as Python reads them.
 */
function jsonFromText(text: string): unknown {
  const deep = textTooDeepAt(text);
  if (deep >= 0) {
    throw invalid(['body', codePointIndex(text, deep)], 'JSON decode error', 'json_invalid', {}, { error: `Nesting deeper than ${MAX_JSON_DEPTH} levels` });
  }
  if ((text.includes('__proto__') || text.includes('\\u')) && PROTO_KEY.test(text)) {
    throw invalid(['body'], 'Keys named __proto__ are not allowed', 'value_error', null);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const py = pyJsonLoads(text);
    if (!py.ok) throw invalid(['body', py.pos], 'JSON decode error', 'json_invalid', {}, { error: py.msg });
    value = py.value;
  }
  if (typeof value === 'object' && value !== null) depthChecked.add(value);
  return value;
}

/**
 * Where JSON text breaks, as Python's json module says it: its message (`Expecting ',' delimiter`) and the line and
 * column (1-based, in code points, as Python counts them); undefined when json.loads reads the text.
 */
export function jsonSyntaxAt(text: string): { message: string; line: number; column: number } | undefined {
  const py = pyJsonLoads(text);
  if (py.ok) return undefined;
  let line = 1;
  let column = 1;
  let seen = 0;
  for (const ch of text) {
    if (seen++ === py.pos) break;
    if (ch === '\n') {
      line++;
      column = 1;
    } else column++;
  }
  return { message: py.msg, line, column };
}

/** Bytes -> JSON value: bytes that are not text are FastAPI's 400, then as jsonFromText. */
export function jsonFromBytes(bytes: Uint8Array): unknown {
  const text = decodeJsonBytes(bytes);
  if (text === undefined) throw new ApiError('body_unreadable');
  return jsonFromText(text);
}

/**
 * A non-empty body that is not JSON: FastAPI hands the bytes to the body model, which refuses them with one
 * model_attributes_type item at ["body"] whose input is the body as text.
 */
function notJsonBody(bytes: Buffer): ValidationError {
  return invalid(['body'], '', 'model_attributes_type', bytes.toString('utf8'));
}

/**
 * The body reader of the request pipeline: `undefined` for an empty body (no bytes at all, as FastAPI sees "no
 * body"), else the JSON value. The value is also left in `ctx.request.body` for the journal.
 */
export function bodyReader(limit: number) {
  return async (ctx: Context): Promise<unknown> => {
    if (ctx.state.bodyRead) return (ctx.request as { body?: unknown }).body;
    const bytes = await readRawBody(ctx, limit);
    let value: unknown;
    if (bytes.length > 0) {
      if (!isJsonContentType(ctx.get('content-type') || undefined)) throw notJsonBody(bytes);
      value = jsonFromBytes(bytes);
    }
    (ctx.request as { body?: unknown }).body = value;
    ctx.state.bodyRead = true;
    return value;
  };
}

export type ReadBody = ReturnType<typeof bodyReader>;
