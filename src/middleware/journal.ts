// Outermost middleware: records each v3 request in the instance's journal (redacted when read); /_mock traffic is not journaled.
import type { Context, Middleware } from 'koa';
import type { MockClock } from '../domain/clock.js';
import { JsonText, type Journal } from '../control/journal.js';

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

/**
 * The response body. A JSON body is serialized here (instead of by Koa, which would do it next) and
 * kept as that one string: a flat string is far cheaper for the GC to hold than 1000 object graphs.
 */
function responseBody(ctx: Context): unknown {
  const b = ctx.body;
  if (b === undefined || b === null) return null;
  if (Buffer.isBuffer(b)) return `<${b.length} bytes>`;
  if (typeof b === 'object' && typeof (b as { pipe?: unknown }).pipe === 'function') return '<stream>';
  if (typeof b === 'object') {
    const text = JSON.stringify(b);
    ctx.body = text; // Content-Type stays application/json: Koa set it when the object was assigned
    return new JsonText(text);
  }
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
      // Stored as references (request and response bodies are never mutated afterwards) and
      // redacted when read: the journal costs next to nothing on requests nobody inspects.
      journal.add({
        at,
        method: ctx.method,
        path: ctx.path,
        query: ctx.query,
        status: ctx.status,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        operation: (ctx.state.operation as string | undefined) ?? null,
        request: { headers: ctx.headers, body: requestBody(ctx) },
        response: { headers: ctx.response.headers as Record<string, unknown>, body: responseBody(ctx) },
        ...(ctx.state.fault ? { fault: ctx.state.fault } : {}),
      });
    }
  };
}
