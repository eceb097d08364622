// transport "reset": the connection is destroyed without an answer; in process, fetch rejects with a TypeError as undici's does.
import type { Context } from 'koa';

export function reset(ctx: Context): void {
  ctx.respond = false;
  ctx.state.unanswered = true;
  // On a socket this destroys the connection; light-my-request (mock.fetch, inject, intercept) reports it as a reset.
  ctx.res.destroy();
}
