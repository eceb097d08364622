// transport "hang": no answer is sent until the client gives up (its socket closes, or in process its AbortSignal fires).
import type { Context } from 'koa';
import { MAX_DELAY_MS } from '../../../schemas/index.js';
import { endOf } from '../../../request-waits.js';

/**
 * Waits for the client to leave; after MAX_DELAY_MS, or when the sandbox it addresses ends, the connection is closed
 * anyway, so nothing is held for ever.
 */
export function hang(ctx: Context): Promise<void> {
  ctx.respond = false;
  ctx.state.unanswered = true;
  return new Promise<void>((resolve) => {
    const ended = endOf(ctx);
    const close = () => {
      ctx.res.destroy();
      done();
    };
    const done = () => {
      clearTimeout(timer);
      off?.();
      resolve();
    };
    const timer = setTimeout(close, MAX_DELAY_MS);
    timer.unref();
    const off = ended?.onEnd(close);
    // A socket's close reaches the response; an in-process caller's AbortSignal destroys the request with an error.
    ctx.res.once('close', done);
    ctx.req.once('error', done);
    if (ctx.res.destroyed || ctx.req.destroyed) done();
    else if (ended?.ended) close();
  });
}
