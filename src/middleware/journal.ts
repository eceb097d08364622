// Outermost middleware: records each v3 request (redacted) in the instance's journal; /_mock traffic is not journaled.
import type { Context, Middleware } from 'koa';
import type { MockClock } from '../domain/clock.js';
import type { Journal } from '../control/journal.js';
import { redactDeep, redactHeaders } from '../control/redact.js';

export const isControlPath = (path: string): boolean => path === '/_mock' || path.startsWith('/_mock/');

/** The body as the handler read it: parsed JSON, or the raw bytes a signature check kept (as JSON when they are). */
function requestBody(ctx: Context): unknown {
  const parsed = (ctx.request as { body?: unknown }).body;
  if (parsed !== undefined) return parsed;
  const raw = ctx.state.rawBody as Buffer | string | undefined;
  if (raw === undefined) return null;
  const text = raw.toString();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function responseBody(ctx: Context): unknown {
  const b = ctx.body;
  if (b === undefined || b === null) return null;
  if (Buffer.isBuffer(b)) return `<${b.length} bytes>`;
  if (typeof b === 'object' && typeof (b as { pipe?: unknown }).pipe === 'function') return '<stream>';
  return b;
}

export function journalMiddleware(journal: Journal, clock: MockClock): Middleware {
  return async function journalRequests(ctx, next) {
    if (isControlPath(ctx.path)) return next();
    const at = clock.nowIso();
    const started = performance.now();
    try {
      await next();
    } finally {
      journal.add({
        at,
        method: ctx.method,
        path: ctx.path,
        query: redactDeep({ ...ctx.query }) as Record<string, unknown>,
        status: ctx.status,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        operation: (ctx.state.operation as string | undefined) ?? null,
        request: { headers: redactHeaders(ctx.headers), body: redactDeep(requestBody(ctx)) },
        response: { headers: redactHeaders(ctx.response.headers as Record<string, unknown>), body: redactDeep(responseBody(ctx)) },
        ...(ctx.state.fault ? { fault: ctx.state.fault } : {}),
      });
    }
  };
}
