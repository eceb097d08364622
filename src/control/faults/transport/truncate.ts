// transport "truncate": the handler's answer announces its full length, half of the body is sent, then the connection closes.
import type { Context, Next } from 'koa';
import { bodyBytes, writeHead } from './body-bytes.js';

export async function truncate(ctx: Context, next: Next): Promise<void> {
  await next();
  const bytes = bodyBytes(ctx);
  writeHead(ctx, bytes.length);
  const res = ctx.res;
  // Destroyed once the half is handed to the socket, so the client reads headers and part of the body, then a reset.
  await new Promise<void>((resolve) => res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => resolve()));
  res.destroy();
}
