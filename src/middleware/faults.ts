// Fault injection middleware: a matching rule answers the request itself or delays it; /_mock routes are never faulted.
import type { Middleware } from 'koa';
import type { FaultRegistry } from '../control/faults.js';
import type { FaultMarker } from '../control/journal.js';
import { isControlPath } from './journal.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function faultMiddleware(faults: FaultRegistry): Middleware {
  return async function injectFaults(ctx, next) {
    if (isControlPath(ctx.path)) return next();
    const fault = faults.take(ctx.method, ctx.path);
    if (!fault) return next();
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
  };
}
