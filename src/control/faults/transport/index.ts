// The transport faults, one file per kind; each acts on the Node response, so a socket and the in-process client see the same.
import type { Context, Next } from 'koa';
import type { TransportKind } from '../../../schemas/index.js';
import { hang } from './hang.js';
import { malformedJson } from './malformed-json.js';
import { reset } from './reset.js';
import { slowBody } from './slow-body.js';
import { truncate } from './truncate.js';

/** Applies a transport fault in place of (reset, hang) or around (truncate, malformed_json, slow_body) the handler. */
export async function applyTransport(kind: TransportKind, ctx: Context, next: Next, bytesPerS = 1): Promise<void> {
  switch (kind) {
    case 'reset':
      return reset(ctx);
    case 'hang':
      return hang(ctx);
    case 'truncate':
      return truncate(ctx, next);
    case 'malformed_json':
      return malformedJson(ctx, next);
    case 'slow_body':
      return slowBody(ctx, next, bytesPerS);
  }
}
