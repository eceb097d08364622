// Shared storage (several instances on one database): every request sees every write acknowledged before it began. A
// read catches up first; a write, while others are not writing, runs at once and is confirmed afterwards.
import type { Context, Middleware, Next } from 'koa';
import type { Store } from '../storage/index.js';
import type { RouteTable } from '../routes/index.js';
import { addressed } from '../pipeline/index.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Routes requests through `table` once the addressed mock's store is current enough. A v3 write request skips its catch-up when the
 * store allows it (`Store.optimism`): its commit's compare-and-set proves that no other instance committed anything
 * this instance lacked, or a catch-up begun after the request ran finds nothing new. When neither holds, nothing it
 * wrote was stored: its answer is dropped and it runs again after catching up, as any request would have.
 */
export function sharedStorage(table: RouteTable): Middleware {
  const current = async (ctx: Context, next: Next, store: Store) => {
    const optimism = !READS.has(ctx.method) && !ctx.path.startsWith('/_mock') && 'handler' in table.lookup(ctx.method, ctx.path) ? store.optimism() : null;
    if (!optimism) {
      await store.sync();
      return table(ctx, next);
    }
    const headers = { ...ctx.response.headers };
    ctx.state.optimism = optimism; // the scope its transactions are attributed to (endpoint: attributeTo(ctx.state))
    let failure: { error: unknown } | undefined;
    try {
      await table(ctx, next);
    } catch (error) {
      failure = { error };
    }
    if (await store.confirm(optimism)) {
      if (failure) throw failure.error;
      return;
    }
    // Another instance wrote this mock meanwhile: a conflict, and the request runs once more on the caught-up state.
    const { meter } = addressed(ctx);
    meter.conflict();
    meter.rerun();
    ctx.state.optimism = undefined;
    restoreHeaders(ctx, headers);
    await store.sync();
    await table(ctx, next);
  };
  // Not async itself: a store of its own (memory, the JSON file) is always current, and its request gets no extra promise.
  return (ctx, next) => {
    const store = addressed(ctx).deps.store;
    return store.shared ? current(ctx, next, store) : table(ctx, next);
  };
}

/** The response headers as they were before the dropped run (the run again sets its own status and body). */
function restoreHeaders(ctx: Context, headers: Record<string, unknown>): void {
  for (const name of ctx.res.getHeaderNames()) if (!(name in headers)) ctx.remove(name);
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value as string | string[]);
}
