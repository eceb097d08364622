// Endpoints 16 and 19: the inbound callbacks, each verifying its own secret before reading what it says.
import { Router } from './route-list.js';
import type { Deps } from '../deps.js';
import { invalid } from '../errors.js';
import { readRawBody } from '../body/index.js';
import { Uuid, model } from '../schemas/common.js';
import { parse } from '../validation.js';
import { ChatUpdateSchema, acceptChatUpdate, findBinding, verifyChatSecret } from '../domain/chat-webhook.js';
import { parseBrokerEvent, reconcileBrokerEvent, verifyBrokerSignature } from '../domain/broker-events.js';
import { endpoint, type ReadBody } from './endpoint.js';

const BindingPath = model({ binding_id: Uuid });

export function webhookRoutes(deps: Deps, readBody: ReadBody): Router {
  const router = new Router();

  // The body is read only after the binding and its secret check out: strangers learn nothing.
  router.post(
    '/api/v3/connections/:binding_id/chatapp/webhook',
    endpoint(deps, readBody, { operation: 'chatWebhook', level: 'public', path: BindingPath }, async ({ path, ctx }) => {
      const binding = findBinding(deps.view, path.binding_id);
      verifyChatSecret(binding, ctx.headers['x-chatapp-secret-token'] as string | undefined);
      const raw = await readBody(ctx);
      if (raw === undefined || raw === null) throw invalid(['body'], 'Field required', 'missing', null);
      const update = parse(ChatUpdateSchema, raw, 'body');
      // The body was awaited: attribute the commit to this request again.
      return deps.store.attributeTo(ctx.state, () => acceptChatUpdate(deps, binding, update));
    }),
  );

  // The signature covers the raw bytes (re-serialized JSON would not match them): verify first, then decode the same
  // bytes by the same rules as every body.
  router.post(
    '/api/v3/webhooks/broker',
    endpoint(deps, readBody, { operation: 'brokerWebhook', level: 'public' }, async ({ ctx }) => {
      const raw = await readRawBody(ctx, deps.config.bodyLimit);
      verifyBrokerSignature(raw, ctx.headers['x-broker-hmac-sha256'] as string | undefined, deps.config.brokerSecret());
      const json = await readBody(ctx);
      if (json === undefined || json === null) throw invalid(['body'], 'Field required', 'missing', null);
      const event = parseBrokerEvent(json);
      return deps.store.attributeTo(ctx.state, () => reconcileBrokerEvent(deps, event));
    }),
  );

  return router;
}
