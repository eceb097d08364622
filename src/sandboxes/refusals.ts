// How requests reach a sandbox's mock, and how the sandbox directory refuses: 422 items located under the create body's
// key, and refusals rendered before the default mock's error renderer (in the same envelope).
import type { Context, Next } from 'koa';
import { ApiError, STORAGE_RETRY_AFTER_S, ValidationError } from '../errors.js';
import { addressOf, markPathPrefix } from './address.js';
import { address, type AddressedMock } from '../middleware/addressed.js';

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
export function refuse(ctx: Context, err: ApiError): void {
  ctx.status = err.status;
  ctx.body = err.body();
}

/**
 * The select middleware: a request that names a sandbox is readdressed to the mock `find` gives for its id (or `find`'s
 * refusal: an ApiError, else 503 `storage_unavailable` as storage that cannot be read); any other goes on to `next`.
 */
export function handOver(ctx: Context, next: Next, find: (id: string) => AddressedMock | Promise<AddressedMock>): unknown {
  let to: ReturnType<typeof addressOf>;
  try {
    to = addressOf(ctx.req);
  } catch (err) {
    return refuse(ctx, err as ApiError);
  }
  if (!to) return next();
  const named = to;
  const serve = (mock: AddressedMock) => {
    ctx.url = named.url;
    if (named.prefix) markPathPrefix(ctx.req, named.prefix);
    // The same middleware and routes answer it, from the sandbox's own state.
    address(ctx, mock);
    return next();
  };
  const failed = (err: unknown) => {
    if (err instanceof ApiError) return refuse(ctx, err);
    refuse(ctx, new ApiError('storage_unavailable'));
    ctx.set('Retry-After', String(STORAGE_RETRY_AFTER_S));
  };
  let found: AddressedMock | Promise<AddressedMock>;
  try {
    found = find(named.id);
  } catch (err) {
    return failed(err);
  }
  // In memory the sandbox is found at once: no promise on the way of its requests.
  return found instanceof Promise ? found.then(serve, failed) : serve(found);
}
