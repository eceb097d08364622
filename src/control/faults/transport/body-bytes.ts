// The bytes the handler's answer would send, for the transport faults that send it differently.
import type { Context } from 'koa';

/** ctx.body as bytes: text and JSON serialised, a Buffer as is, nothing (or a stream, which no v3 answer is) as empty. */
export function bodyBytes(ctx: Context): Buffer {
  const b = ctx.body;
  if (b === undefined || b === null) return Buffer.alloc(0);
  if (typeof b === 'string') return Buffer.from(b);
  if (Buffer.isBuffer(b)) return b;
  if (typeof (b as { pipe?: unknown }).pipe === 'function') return Buffer.alloc(0);
  return Buffer.from(JSON.stringify(b));
}

/** Takes the response over from Koa: the status and headers the handler set, with the body's full length. */
export function writeHead(ctx: Context, length: number): void {
  ctx.respond = false;
  ctx.res.removeHeader('transfer-encoding');
  ctx.res.setHeader('content-length', length);
  ctx.res.writeHead(ctx.status);
}
