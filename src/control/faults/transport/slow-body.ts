// transport "slow_body": the handler's answer, its body sent at `bytes_per_s` (real time: ten writes a second, or one byte per write).
import type { Context, Next } from 'koa';
import { bodyBytes, writeHead } from './body-bytes.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function slowBody(ctx: Context, next: Next, bytesPerS: number): Promise<void> {
  await next();
  const bytes = bodyBytes(ctx);
  writeHead(ctx, bytes.length);
  const res = ctx.res;
  const chunk = Math.max(1, Math.floor(bytesPerS / 10));
  const interval = (chunk / bytesPerS) * 1000;
  for (let at = 0; at < bytes.length; at += chunk) {
    if (at > 0) await sleep(interval);
    // A client that left ends the writing.
    if (res.destroyed) return;
    res.write(bytes.subarray(at, at + chunk));
  }
  res.end();
}
