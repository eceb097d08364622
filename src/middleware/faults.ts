// Fault injection middleware: a matching fault delays, answers, rate-limits or breaks the request; /_mock routes are never faulted.
import type { Context, Middleware, Next } from 'koa';
import { applyTransport, type FaultDecision, type FaultRegistry, type RequestFacts } from '../control/index.js';
import type { FaultMarker } from '../control/index.js';
import { isJsonContentType, jsonFromBytes, readRawBody } from '../body/index.js';
import { isControlPath } from './journal.js';
import { ApiError } from '../errors.js';
import { principalOf } from '../domain/index.js';
import { addressed } from '../pipeline/index.js';
import { endOf, sleep } from '../request-waits.js';

export interface FaultMiddlewareOptions {
  /** The request body limit: a fault matching on the body reads at most this much (the handler then reuses it). */
  bodyLimit: number;
}

/** Injects the faults of the mock the request addresses; the principal a fault matches is read from that mock's store. */
export function faultMiddleware(options: FaultMiddlewareOptions): Middleware {
  const facts = (ctx: Context, body?: unknown): RequestFacts => ({
    method: ctx.method,
    path: ctx.path,
    query: ctx.query,
    headers: ctx.headers,
    body,
    principal: () => principalOf(addressed(ctx).deps.store, ctx.get('authorization') || undefined),
  });
  const decide = async (ctx: Context, next: Next, faults: FaultRegistry, candidates: ReturnType<FaultRegistry['candidates']>) => {
    let body: unknown;
    try {
      const raw = await readRawBody(ctx, options.bodyLimit);
      if (raw.length > 0 && isJsonContentType(ctx.get('content-type') || undefined)) body = jsonFromBytes(raw);
    } catch {
      // Unreadable or not JSON: no body fault matches; the handler meets the same problem and answers it.
    }
    const decision = faults.fire(candidates, facts(ctx, body));
    return decision ? applyFault(ctx, next, decision) : next();
  };
  // Not async itself: a request no fault could match (almost every one) passes through without an extra promise.
  return function injectFaults(ctx, next) {
    if (isControlPath(ctx.path)) return next();
    const faults = addressed(ctx).control.faultRegistry;
    const candidates = faults.candidates(ctx.method, ctx.path);
    if (candidates.length === 0) return next();
    if (faults.needsBody(candidates)) return decide(ctx, next, faults, candidates);
    const decision = faults.fire(candidates, facts(ctx));
    return decision ? applyFault(ctx, next, decision) : next();
  };
}

async function applyFault(ctx: Context, next: Next, d: FaultDecision): Promise<void> {
  const marker: FaultMarker = { id: d.fault.id };
  if (d.delay_ms !== undefined) marker.delay_ms = d.delay_ms;
  if (d.status !== undefined) marker.status = d.status;
  if (d.retry_after_s !== undefined) marker.retry_after_s = d.retry_after_s;
  if (d.transport !== undefined) marker.transport = d.transport;
  ctx.state.fault = marker;
  addressed(ctx).meter.fault(d.transport ?? (d.retry_after_s !== undefined ? 'rate_limit' : d.status !== undefined ? 'status' : 'delay'));
  // The delay is part of the request's time in flight; the end of its sandbox cuts it short (the request answers 404).
  if (d.delay_ms) await sleep(d.delay_ms, endOf(ctx));
  if (d.transport) return applyTransport(d.transport, ctx, next, d.fault.bytes_per_s);
  if (d.status === undefined) return next();
  // The injected answer replaces the handler entirely: nothing is read, nothing stored.
  ctx.status = d.status;
  if (d.retry_after_s !== undefined) {
    ctx.body = new ApiError('rate_limited', { message: `Too many requests: retry after ${d.retry_after_s} s.` }).body();
    ctx.set('Retry-After', String(d.retry_after_s));
  } else if (d.fault.body === undefined || d.fault.body === null) ctx.body = '';
  else ctx.body = d.fault.body as object;
  for (const [k, v] of Object.entries(d.fault.headers ?? {})) ctx.set(k, v);
  ctx.set('X-Mock-Fault', d.fault.id);
}
