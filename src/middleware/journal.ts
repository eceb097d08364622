// Outermost middleware: records each API request in the instance's journal as bounded text (redacted when read); /_mock
// traffic and the documentation pages (/docs, its assets, /openapi.json) are not journaled.
import type { Context, Middleware } from 'koa';
import { jsonBody, rawBody, type KeptBody } from '../control/index.js';
import { isJsonContentType } from '../body/index.js';
import { operationOf } from '../control/index.js';
import { addressed, type AddressedMock } from '../pipeline/index.js';
import type { Arrival, Departure } from '../judge/index.js';
import type { FaultMarker } from '../control/index.js';

/** /_mock and below, in any letter case: the router matches paths case-insensitively, so `/_MOCK/reset` is a control route too. */
export const isControlPath = (path: string): boolean => /^\/_mock(?:\/|$)/i.test(path);

/** The body as the handler read it: the raw bytes a signature check kept, or the parsed JSON (written out bounded). */
function requestBody(ctx: Context, limit: number): KeptBody | null {
  const raw = ctx.state.rawBody as Buffer | string | undefined;
  // Sent as JSON, a bare scalar is that value (a verify pattern's `body: 0` matches it), as the handler read it.
  if (raw !== undefined) return raw.length === 0 ? null : rawBody(raw.toString(), limit, isJsonContentType(ctx.get('content-type') || undefined));
  const parsed = (ctx.request as { body?: unknown }).body;
  if (parsed === undefined || parsed === null) return null;
  return jsonBody(parsed, limit, undefined, ctx.request.length);
}

/**
 * The response body. A JSON body is serialized here (instead of by Koa, which would do it next) and
 * the journal keeps that one string when it fits: no second serialization, no object graph held.
 */
function responseBodyOf(ctx: Context, limit: number): KeptBody | null {
  const b = ctx.body;
  if (b === undefined || b === null || b === '') return null;
  if (typeof b === 'string') return rawBody(b, limit);
  if (Buffer.isBuffer(b)) return rawBody(JSON.stringify(`<${b.length} bytes>`), limit);
  if (typeof b === 'object' && typeof (b as { pipe?: unknown }).pipe === 'function') return rawBody('"<stream>"', limit);
  const text = JSON.stringify(b);
  ctx.body = text; // Content-Type stays application/json: Koa set it when the object was assigned
  return jsonBody(b, limit, text);
}

/** Either of the two above, in one test: every request is checked against it. */
const NOT_JOURNALED = /^\/(?:_mock(?:\/|$)|docs(?:\/|$)|openapi\.json\/?$)/i;

/** What one answered request leaves: the observer's view of it (the answer still an object), and the journal's text. */
export interface Answered extends Departure {
  atMs: number;
  /** performance.now() at arrival. */
  started: number;
  arrival: Arrival;
  method: string;
  querystring: string;
  status: number;
  /** The request body as the journal keeps it. */
  kept: KeptBody | null;
  responseHeaders: Record<string, unknown>;
  responseBody: KeptBody | null;
  fault: FaultMarker | undefined;
}

/**
 * Counts and journals one answered request in the mock it addressed, by that mock's clock (the journal middleware's
 * and the fast path's one way to do it); answers the entry's id.
 */
export function journalAnswered(mock: AddressedMock, a: Answered): number {
  const client = mock.observer.depart(a, a.arrival);
  const ms = performance.now() - a.started;
  // A fault that answered before the handler ran still names the operation the request was for.
  const operation = (a.operation as string | undefined) ?? (a.fault ? operationOf(a.method, a.path) : null);
  mock.meter.request(operation, a.status, ms / 1000);
  // A fresh record per request: the journal keeps this very object as its entry.
  // Shadow mode adds the target's differences to this entry later.
  return mock.control.journal.add({
    atMs: a.atMs,
    method: a.method,
    path: a.path,
    querystring: a.querystring,
    status: a.status,
    duration_ms: Math.round(ms * 1000) / 1000,
    operation,
    requestHeaders: a.headers,
    requestBody: a.kept,
    responseHeaders: a.responseHeaders,
    responseBody: a.responseBody,
    fault: a.fault,
    ...(client ? { client } : {}),
  });
}

/** Journals each request in the journal of the mock it addresses, by that mock's clock. */
export function journalMiddleware(): Middleware {
  return async function journalRequests(ctx, next) {
    if (NOT_JOURNALED.test(ctx.path)) return next();
    const mock = addressed(ctx);
    const { control, deps, observer } = mock;
    const journal = control.journal;
    const atMs = deps.clock.nowMs();
    const started = performance.now();
    // Read from Node's headers directly (Koa's ctx.get goes through two delegates and a switch on the name).
    const arrival = observer.arrive(ctx.req.headers.authorization);
    try {
      await next();
    } finally {
      const limit = journal.bodyBytes;
      const answer = ctx.body; // the observer reads it as an object
      const responseBody = responseBodyOf(ctx, limit); // it may turn an object body into the text Koa sends
      ctx.state.journalId = journalAnswered(mock, {
        atMs,
        started,
        arrival,
        method: ctx.method,
        path: ctx.path,
        querystring: ctx.querystring,
        headers: ctx.headers,
        // A connection reset or left hanging by a fault answered nothing: status 0, as HAR writes an aborted request.
        status: ctx.state.unanswered ? 0 : ctx.status,
        operation: ctx.state.operation,
        answer,
        rawBody: ctx.state.rawBody as Buffer | string | undefined,
        requestBody: (ctx.request as { body?: unknown }).body,
        kept: requestBody(ctx, limit),
        // Node's header object is made without a prototype, which V8 keeps as a dictionary: a plain copy holds less.
        responseHeaders: { ...(ctx.response.headers as Record<string, unknown>) },
        responseBody,
        fault: ctx.state.fault as FaultMarker | undefined,
      });
    }
  };
}
