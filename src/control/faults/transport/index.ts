// The transport faults, one file per kind; each acts on the Node response, so a socket and the in-process client see the same.
import type { Context, Next } from 'koa';
import type { TransportKind } from '../../../schemas/transport-faults.js';
import { hang } from './hang.js';
import { malformedJson } from './malformed-json.js';
import { reset } from './reset.js';
import { slowBody } from './slow-body.js';
import { truncate } from './truncate.js';

type Injector = (ctx: Context, next: Next, bytesPerS: number) => void | Promise<void>;

/** One injector per kind of the table (a kind without one does not compile): in place of the handler or around it. */
const INJECTORS: { readonly [K in TransportKind]: Injector } = {
  reset: (ctx) => reset(ctx),
  hang: (ctx) => hang(ctx),
  truncate: (ctx, next) => truncate(ctx, next),
  malformed_json: (ctx, next) => malformedJson(ctx, next),
  slow_body: (ctx, next, bytesPerS) => slowBody(ctx, next, bytesPerS),
};

/** Applies a transport fault in place of (reset, hang) or around (truncate, malformed_json, slow_body) the handler. */
export async function applyTransport(kind: TransportKind, ctx: Context, next: Next, bytesPerS = 1): Promise<void> {
  await INJECTORS[kind](ctx, next, bytesPerS);
}
