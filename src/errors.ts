// The one error type of the mock, the validation error, and the middleware that renders both wire shapes.
import type { Context, Next } from 'koa';
import { ValidationError } from './validation.js';
import { REASON_CODES, type ReasonCode, type ReasonCodeSpec } from './reason-codes.js';
import { StorageUnavailable } from './storage/index.js';
import { SandboxGone } from './storage/index.js';

export interface EnvelopeExtras {
  message?: string;
  affected_resource?: string;
  next_action?: string;
  operation_id?: string;
  phase?: string;
  /** Seconds to wait, sent as `Retry-After` (not part of the body). */
  retry_after?: number;
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

// The 422 error and its items live with the pydantic table (src/validation.ts); they are re-exported here so that
// every error type of the mock can be imported from one place.
export { ValidationError, invalid, type ValidationItem } from './validation.js';

/** 404 `sandbox_not_found` for the sandbox `id` (cut to 64 characters: an id is never longer than 40). */
export const sandboxNotFound = (id: string) => new ApiError('sandbox_not_found', { affected_resource: `sandbox:${id.slice(0, 64)}` });

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
      const answer = errorAnswer(raw);
      if (answer.report) report(raw, ctx);
      ctx.status = answer.status;
      ctx.body = answer.body;
      for (const [name, value] of answer.headers) ctx.set(name, value);
    }
  };
}

/** What a thrown error answers: its status, its body and the headers it adds (in that order), and whether it is a defect to report. */
export interface ErrorAnswer {
  status: number;
  body: unknown;
  headers: [string, string][];
  report: boolean;
}

/** The answer to `raw` in the contract's shapes (the error renderer's, and the fast path's). */
export function errorAnswer(raw: unknown): ErrorAnswer {
  const err = normalizeError(raw);
  const headers: [string, string][] = [];
  if (err.status === 401) headers.push(['WWW-Authenticate', 'Bearer']);
  if (err.reason_code === 'storage_unavailable') headers.push(['Retry-After', String(STORAGE_RETRY_AFTER_S)]);
  if (err instanceof ApiError && err.extras.retry_after !== undefined) headers.push(['Retry-After', String(err.extras.retry_after)]);
  // Storage that is down is an operating condition, not a defect: the adapter reports it once, not per request.
  const report = err.status >= 500 && err.reason_code !== undefined && err.reason_code !== 'storage_unavailable';
  return { status: err.status, body: err.body(), headers, report };
}

/** Socket-level failures that are the client's doing: a slow or vanished client, not a defect of the mock. */
const CLIENT_ERRORS: Record<string, string> = {
  ERR_HTTP_REQUEST_TIMEOUT: 'the request timed out (the client sent it too slowly)',
  ECONNRESET: 'the client reset the connection',
  EPIPE: 'the client closed the connection',
  ECONNABORTED: 'the client aborted the request',
  ERR_STREAM_PREMATURE_CLOSE: 'the client closed the connection early',
};

/**
 * The Koa app's 'error' listener (replacing Koa's default, which prints a stack trace for each): a client that
 * timed out or went away is one log line; anything else is reported as a defect.
 */
export function appErrorListener(log: (line: string) => void, report: ErrorReporter = (err) => console.error(err)) {
  return (err: unknown, ctx?: Context): void => {
    const e = err as NodeJS.ErrnoException & { type?: string };
    const reason = (e?.code && CLIENT_ERRORS[e.code]) || (e?.type === 'request.aborted' ? CLIENT_ERRORS.ECONNABORTED : undefined);
    if (reason) log(`project-runtime-mock: ${ctx ? `${ctx.method} ${ctx.path}` : 'a request'}: ${reason}`);
    else if (ctx) report(err, ctx);
    else console.error(err);
  };
}

function normalizeError(raw: unknown): { status: number; reason_code?: string; body(): unknown } {
  if (raw instanceof ApiError) return raw;
  // Storage's own refusal (a change not stored, state not readable): 503, never the storage's message or a path.
  if (raw instanceof StorageUnavailable) return new ApiError('storage_unavailable');
  // A sandbox that ended while its request was on its way: the request answers as one sent after the end would.
  if (raw instanceof SandboxGone) return sandboxNotFound(raw.id);
  if (raw instanceof ValidationError) return { status: 422, body: () => ({ detail: raw.items }) };
  const e = raw as { status?: number } | undefined;
  if (e?.status === 413) return new ApiError('payload_too_large');
  if (e?.status === 405) return new ApiError('method_not_allowed');
  if (e?.status === 404) return new ApiError('route_not_found');
  if (e?.status === 501) return new ApiError('method_not_allowed');
  return new ApiError('internal_error');
}
