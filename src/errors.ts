// The one error type of the mock, the validation error, and the middleware that renders both wire shapes.
import type { Context, Next } from 'koa';
import { createRequire } from 'node:module';
import type { ParseError, parse as ParseJsonc } from 'jsonc-parser';
import { REASON_CODES, type ReasonCode, type ReasonCodeSpec } from './reason-codes.js';

export interface EnvelopeExtras {
  message?: string;
  affected_resource?: string;
  next_action?: string;
  operation_id?: string;
  phase?: string;
}

/** A management-envelope error: status and wording come from the reason-code table. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly reason_code: ReasonCode,
    readonly extras: EnvelopeExtras = {},
  ) {
    super(extras.message ?? REASON_CODES[reason_code].message);
    this.status = REASON_CODES[reason_code].status;
  }

  body(): { detail: Record<string, unknown> } {
    const spec: ReasonCodeSpec = REASON_CODES[this.reason_code];
    const detail: Record<string, unknown> = { reason_code: this.reason_code, message: this.message };
    const nextAction = this.extras.next_action ?? spec.next_action;
    if (this.extras.affected_resource !== undefined) detail.affected_resource = this.extras.affected_resource;
    if (nextAction !== undefined) detail.next_action = nextAction;
    if (this.extras.operation_id !== undefined) detail.operation_id = this.extras.operation_id;
    if (this.extras.phase !== undefined) detail.phase = this.extras.phase;
    return { detail };
  }
}

export type LocPart = 'body' | 'query' | 'path' | 'header';

/** One FastAPI/pydantic-style validation item. */
export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export class ValidationError extends Error {
  readonly status = 422;
  constructor(readonly items: ValidationItem[]) {
    super(items.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
  }
}

/** Shorthand for a single-item validation error. */
export function invalid(loc: (string | number)[], msg: string, type = 'value_error', input?: unknown, ctx?: Record<string, unknown>): ValidationError {
  const item: ValidationItem = { loc, msg, type };
  if (input !== undefined) item.input = input;
  if (ctx !== undefined) item.ctx = ctx;
  return new ValidationError([item]);
}

/** koa-body / co-body / raw-body errors carry these fields. */
interface BodyParseError extends Error {
  status?: number;
  type?: string;
  body?: string;
}

let jsonc: { parse: typeof ParseJsonc } | undefined;

/**
 * The offset where the text stops being JSON. V8's messages do not always carry a position, so a
 * tolerant parser (jsonc-parser, comments disallowed) locates the first error.
 */
function jsonErrorOffset(err: BodyParseError): number {
  if (typeof err.body !== 'string') return 0;
  const errors: ParseError[] = [];
  // Loaded on the first malformed body only (it is a CommonJS module, so require keeps this synchronous).
  const parseJsonc: typeof ParseJsonc = (jsonc ??= createRequire(import.meta.url)('jsonc-parser')).parse;
  parseJsonc(err.body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0) return errors[0].offset;
  const m = /position (\d+)/.exec(err.message);
  return m ? Number(m[1]) : 0;
}

/** Maps a body-parser failure to our shapes; returns undefined for anything else. */
export function fromBodyParserError(err: BodyParseError): ApiError | ValidationError | undefined {
  if (err.status === 413 || err.type === 'entity.too.large') return new ApiError('payload_too_large');
  if (typeof err.body === 'string' || err instanceof SyntaxError) {
    if (/prototype/i.test(err.message)) {
      return invalid(['body'], 'Keys named __proto__ are not allowed', 'value_error', undefined, { error: 'forbidden key __proto__' });
    }
    return invalid(['body', jsonErrorOffset(err)], 'JSON decode error', 'json_invalid', {}, { error: err.message });
  }
  if (err.status === 400 || err.status === 415 || err.type === 'request.aborted' || err.type === 'encoding.unsupported' || err.type === 'charset.unsupported') {
    return invalid(['body'], 'The request body could not be read', 'json_invalid', {}, { error: err.message });
  }
  return undefined;
}

/** Seconds a client is told to wait (`Retry-After`) after a 503 `storage_unavailable`. */
export const STORAGE_RETRY_AFTER_S = 1;

export interface ErrorReporter {
  (err: unknown, ctx: Context): void;
}

/** Renders every thrown error as the contract's shapes; anything unrecognised is a 500 defect. */
export function errorMiddleware(report: ErrorReporter = (err) => console.error(err)) {
  return async function renderErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      // The router answers unmatched paths with a bare 404 and wrong methods with 405/501 plus Allow.
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) throw new ApiError('route_not_found');
        if (ctx.status === 405 || ctx.status === 501) throw new ApiError('method_not_allowed');
      }
    } catch (raw) {
      const err = normalizeError(raw);
      // Storage that is down is an operating condition, not a defect: the adapter reports it once, not per request.
      if (err.status >= 500 && err.reason_code !== undefined && err.reason_code !== 'storage_unavailable') report(raw, ctx);
      ctx.status = err.status;
      ctx.body = err.body();
      if (err.status === 401) ctx.set('WWW-Authenticate', 'Bearer');
      if (err.reason_code === 'storage_unavailable') ctx.set('Retry-After', String(STORAGE_RETRY_AFTER_S));
    }
  };
}

function normalizeError(raw: unknown): { status: number; reason_code?: string; body(): unknown } {
  if (raw instanceof ApiError) return raw;
  if (raw instanceof ValidationError) return { status: 422, body: () => ({ detail: raw.items }) };
  const e = raw as BodyParseError;
  const mapped = e && typeof e === 'object' ? fromBodyParserError(e) : undefined;
  if (mapped instanceof ValidationError) return { status: 422, body: () => ({ detail: mapped.items }) };
  if (mapped) return mapped;
  if (e?.status === 405) return new ApiError('method_not_allowed');
  if (e?.status === 404) return new ApiError('route_not_found');
  if (e?.status === 501) return new ApiError('method_not_allowed');
  return new ApiError('internal_error');
}
