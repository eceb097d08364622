// Fault injection middleware: a matching rule answers the request itself or delays it; /_mock routes are never faulted.
import type { Context, Middleware, Next } from 'koa';
import type { Fault, FaultRegistry } from '../control/faults/index.js';
import type { FaultMarker } from '../control/journal.js';
import { isControlPath } from './journal.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function faultMiddleware(faults: FaultRegistry): Middleware {
  // Not async itself: a request no fault matches (almost every one) passes through without an extra promise.
  return function injectFaults(ctx, next) {
    if (isControlPath(ctx.path)) return next();
    const fault = faults.take(ctx.method, ctx.path);
    return fault ? applyFault(ctx, next, fault) : next();
  };
}

async function applyFault(ctx: Context, next: Next, fault: Fault): Promise<void> {
  const marker: FaultMarker = { id: fault.id };
  if (fault.delay_ms !== undefined) marker.delay_ms = fault.delay_ms;
  if (fault.status !== undefined) marker.status = fault.status;
  ctx.state.fault = marker;
  if (fault.delay_ms) await sleep(fault.delay_ms);
  if (fault.status === undefined) return next();
  // The injected answer replaces the handler entirely: nothing is read, nothing stored.
  ctx.status = fault.status;
  if (fault.body === undefined || fault.body === null) ctx.body = '';
  else ctx.body = fault.body as object;
  ctx.set('X-Mock-Fault', fault.id);
}
