// The request router of sandboxes: hands a request that names a sandbox to that sandbox's mock (its life counting it),
// and renders the directory's refusals (422 items under the create body's key) in the management envelope.
import type { Context, Next } from 'koa';
import { ApiError, STORAGE_RETRY_AFTER_S, ValidationError, sandboxNotFound } from '../errors.js';
import { SandboxGone } from '../storage/index.js';
import { endsWith } from '../request-waits.js';
import { addressOf } from './address.js';
import { markPathPrefix } from '../pipeline/index.js';
import { address, type AddressedMock } from '../pipeline/index.js';
import type { SandboxLife } from './life.js';

/** Runs `fn`, locating its 422 items under `["body", key, ...]` (it validated a part of the create body as a whole). */
export async function within<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    throw new ValidationError(err.items.map((i) => ({ ...i, loc: ['body', key, ...i.loc.slice(1)] })));
  }
}

/** Answers `err` in the management envelope (the select middleware runs before the mock's error renderer). */
function refuse(ctx: Context, err: ApiError): void {
  ctx.status = err.status;
  ctx.body = err.body();
}

/** A sandbox as its requests reach it: its mock, and its life (requests in flight, its end). */
export interface Served {
  readonly core: AddressedMock;
  readonly life: SandboxLife;
}

/**
 * The select middleware: a request that names a sandbox is readdressed to the mock `find` gives for its id (or `find`'s
 * refusal: an ApiError, 404 for a sandbox gone, else 503 `storage_unavailable` as storage that cannot be read); any
 * other goes on to `next`. The request counts as in flight until it is answered (`answered` is then called).
 */
export function handOver<S extends Served>(ctx: Context, next: Next, find: (id: string) => S | Promise<S>, answered: (s: S) => void): unknown {
  let to: ReturnType<typeof addressOf>;
  try {
    to = addressOf(ctx.req);
  } catch (err) {
    return refuse(ctx, err as ApiError);
  }
  if (!to) return next();
  const named = to;
  const serve = (s: S) => {
    // Ended between its lookup and now (a shared sandbox is looked up in the database): as if sent after the end.
    if (s.life.ended) return refuse(ctx, sandboxNotFound(named.id));
    ctx.url = named.url;
    if (named.prefix) markPathPrefix(ctx.req, named.prefix);
    // The same middleware and routes answer it, from the sandbox's own state.
    address(ctx, s.core);
    endsWith(ctx, s.life);
    s.life.enter();
    let out: unknown;
    try {
      out = next();
    } catch (err) {
      out = Promise.reject(err);
    }
    return Promise.resolve(out).then(
      () => settle(s),
      (err: unknown) => settle(s, { err }),
    );
  };
  // A request in flight when its sandbox ended answers as one sent after the end, unless it succeeded before the end
  // (a write it stored then, or what it read then): a refusal, a failure or a wait the end cut short is 404.
  const settle = (s: S, thrown?: { err: unknown }) => {
    answered(s);
    if (s.life.ended && (thrown || ctx.status >= 400)) return refuse(ctx, sandboxNotFound(named.id));
    if (thrown) throw thrown.err;
  };
  const failed = (err: unknown) => {
    if (err instanceof ApiError) return refuse(ctx, err);
    if (err instanceof SandboxGone) return refuse(ctx, sandboxNotFound(named.id));
    refuse(ctx, new ApiError('storage_unavailable'));
    ctx.set('Retry-After', String(STORAGE_RETRY_AFTER_S));
  };
  let found: S | Promise<S>;
  try {
    found = find(named.id);
  } catch (err) {
    return failed(err);
  }
  // In memory the sandbox is found at once: no promise on the way of its requests.
  return found instanceof Promise ? found.then(serve, failed) : serve(found);
}
