// Coverage middleware: after the error renderer, notes each v3 operation's status, reason code and the transitions its writes caused.
import type { Middleware } from 'koa';
import { OPERATION_NAMES } from '../control/index.js';
import { addressed } from '../pipeline/index.js';

const V3 = new Set(OPERATION_NAMES);

/** Counts each v3 answer in the coverage report of the mock the request addresses. */
export function coverageMiddleware(): Middleware {
  return async function trackCoverage(ctx, next) {
    // The endpoint pipeline attributes the request's commits to ctx.state (see Store.attributeTo).
    const transitions: string[] = (ctx.state.transitions = []);
    await next();
    const operation = ctx.state.operation as string | undefined;
    // An injected fault answer says nothing about the mock's behaviour, so it is not counted.
    if (!operation || !V3.has(operation) || ctx.state.fault?.status !== undefined) return;
    const detail = (ctx.body as { detail?: unknown } | undefined)?.detail;
    const reason = detail && typeof detail === 'object' && !Array.isArray(detail) ? (detail as { reason_code?: string }).reason_code : undefined;
    addressed(ctx).control.coverageTracker.record(operation, ctx.status, reason, transitions);
  };
}
