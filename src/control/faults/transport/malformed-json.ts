// transport "malformed_json": a 200 with Content-Type application/json whose body is not JSON (the first half of the real one).
import type { Context, Next } from 'koa';
import { bodyBytes } from './body-bytes.js';

function notJson(text: string): string {
  const half = text.slice(0, Math.floor(text.length / 2));
  try {
    JSON.parse(half);
  } catch {
    return half;
  }
  // The half still parses (a short scalar, or nothing): an object opened and never closed never does.
  return '{"detail":';
}

export async function malformedJson(ctx: Context, next: Next): Promise<void> {
  await next();
  const text = bodyBytes(ctx).toString('utf8');
  ctx.status = 200;
  ctx.body = notJson(text);
  ctx.type = 'application/json';
}
