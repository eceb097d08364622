// Endpoints 16 and 19: the inbound callbacks, each verifying its own secret before reading what it says.
import Router from '@koa/router';
import type { Context } from 'koa';
import * as v from 'valibot';
import type { Deps } from '../deps.js';
import { fromBodyParserError, invalid } from '../errors.js';
import { Uuid } from '../schemas/common.js';
import { parse } from '../validation.js';
import { ChatUpdateSchema, acceptChatUpdate, findBinding, verifyChatSecret } from '../domain/chat-webhook.js';
import { parseBrokerEvent, reconcileBrokerEvent, verifyBrokerSignature } from '../domain/broker-events.js';
import { endpoint, hasBody, type ReadBody } from './endpoint.js';

const BindingPath = v.object({ binding_id: Uuid });

/** The exact request bytes, bounded by the body limit: the HMAC must see what the broker signed. */
async function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  try {
    // raw-body loads with the first broker call: most servers never receive one (start-up time, bench g).
    const { default: getRawBody } = await import('raw-body');
    return await getRawBody(ctx.req, { limit, length: ctx.get('content-length') || undefined });
  } catch (err) {
    throw fromBodyParserError(err as Error) ?? err;
  }
}

export function webhookRoutes(deps: Deps, readBody: ReadBody): Router {
  const router = new Router();

  // The body is read only after the binding and its secret check out: strangers learn nothing.
  router.post(
    '/api/v3/connections/:binding_id/chatapp/webhook',
    endpoint(deps, readBody, { operation: 'chatWebhook', level: 'public', path: BindingPath }, async ({ path, ctx }) => {
      const binding = findBinding(deps, path.binding_id);
      verifyChatSecret(binding, ctx.headers['x-chatapp-secret-token'] as string | undefined);
      if (!hasBody(ctx)) throw invalid(['body'], 'Field required', 'missing', null);
      const update = parse(ChatUpdateSchema, await readBody(ctx), 'body');
      // The body was awaited: attribute the commit to this request again.
      return deps.store.attributeTo(ctx.state, () => acceptChatUpdate(deps, binding, update));
    }),
  );

  // No koa-body here: the signature covers raw bytes, and re-serialized JSON would not match them.
  router.post(
    '/api/v3/webhooks/broker',
    endpoint(deps, readBody, { operation: 'brokerWebhook', level: 'public' }, async ({ ctx }) => {
      const raw = await readRawBody(ctx, deps.config.bodyLimit);
      ctx.state.rawBody = raw; // for the journal: koa-body never saw these bytes
      verifyBrokerSignature(raw, ctx.headers['x-broker-hmac-sha256'] as string | undefined, deps.config.brokerSecret());
      return deps.store.attributeTo(ctx.state, () => reconcileBrokerEvent(deps, parseBrokerEvent(raw)));
    }),
  );

  return router;
}
