// transport "slow_body": the handler's answer, its body sent at `bytes_per_s` (real time: ten writes a second, or one byte per write).
import type { Context, Next } from 'koa';
import { bodyBytes, writeHead } from './body-bytes.js';
import { endOf, sleep } from '../../../request-waits.js';

export async function slowBody(ctx: Context, next: Next, bytesPerS: number): Promise<void> {
  await next();
  const bytes = bodyBytes(ctx);
  writeHead(ctx, bytes.length);
  const res = ctx.res;
  const chunk = Math.max(1, Math.floor(bytesPerS / 10));
  const interval = (chunk / bytesPerS) * 1000;
  const ended = endOf(ctx);
  for (let at = 0; at < bytes.length; at += chunk) {
    if (at > 0) await sleep(interval);
    // A client that left ends the writing; so does the end of the sandbox (its answer began before the end: the
    // connection closes, its status already sent).
    if (res.destroyed) return;
    if (ended?.ended) return void res.destroy();
    res.write(bytes.subarray(at, at + chunk));
  }
  res.end();
}
