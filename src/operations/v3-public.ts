// The v3 operations that take no bearer token: the token exchange (1) and the two inbound webhooks (16, 19).
import { Uuid, model } from '../schemas/common.js';
import { TokenRequestSchema, TokenResponseSchema } from '../schemas/auth.js';
import { invalid } from '../errors.js';
import { readRawBody } from '../body/index.js';
import { parse } from '../validation.js';
import { exchangeToken } from '../domain/tokens.js';
import { ChatUpdateSchema, acceptChatUpdate, findBinding, verifyChatSecret } from '../domain/chat-webhook.js';
import { BrokerEventSchema, parseBrokerEvent, reconcileBrokerEvent, verifyBrokerSignature } from '../domain/broker-events.js';
import { BrokerCallbackResponseSchema, ChatWebhookResponseSchema } from '../openapi/schemas.js';
import { json, named } from '../openapi/operation-spec.js';
import { Reply } from '../routes/endpoint.js';
import { declare } from './declare.js';

/** RFC 6749 5.1: token responses must not be cached by anything in between. */
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
const ChatUpdate = named('ChatUpdate', ChatUpdateSchema);

export const V3_PUBLIC_OPERATIONS = [
  declare({
    operationId: 'exchangeToken',
    endpoint: 1,
    method: 'post',
    path: '/api/v3/auth/token',
    tag: 'auth',
    summary: 'Exchange an authorization code (PKCE S256) or rotate a refresh token',
    description:
      'Endpoint 1. `grant_type` `authorization_code` needs `code` and `code_verifier`; `refresh_token` needs `refresh_token`. Any failure of the grant is 400 `invalid_grant`; a replayed refresh token revokes its whole family. Takes no credential.',
    security: [],
    // The grant itself is the credential.
    level: 'public',
    body: { schema: named('InstallerTokenRequest', TokenRequestSchema), required: true },
    success: [
      {
        ...json(200, 'InstallerTokenResponse', TokenResponseSchema, 'Tokens issued'),
        headers: { 'Cache-Control': { description: '`no-store`', required: true } },
      },
    ],
    errors: [400, 413, 422],
    reasonCodes: ['invalid_grant', 'payload_too_large'],
    transitions: [
      'authorization_code: unused -> used',
      'access_token: none -> active',
      'refresh_token: none -> active',
      'refresh_token: active -> used',
      'refresh_token: * -> revoked',
      'access_token: active -> revoked',
    ],
    client: { doc: 'Exchange an authorization code (PKCE S256) or rotate a refresh token. No credential.' },
    handler:
      () =>
      async ({ body, ctx, deps }) =>
        new Reply(200, await exchangeToken(deps, body, (ctx.request as { body?: unknown }).body), NO_STORE),
  }),
  declare({
    operationId: 'chatWebhook',
    endpoint: 16,
    method: 'post',
    path: '/api/v3/connections/{binding_id}/chatapp/webhook',
    tag: 'webhooks',
    summary: 'Messaging-channel webhook: upsert the app user and enqueue the live agent of the binding',
    description:
      'Endpoint 16. Verified by the binding-specific secret in `X-Chatapp-Secret-Token` (security scheme `chatSecret`). Unknown binding 404 `binding_not_found`; wrong or absent secret 401 `webhook_secret_invalid`; no live agent 409 `no_live_agent`. A repeated `update_id` changes nothing and answers `duplicate: true`.',
    security: ['chatSecret'],
    level: 'public',
    pathParams: model({ binding_id: Uuid }),
    body: { schema: ChatUpdate, required: true },
    // The body is read only after the binding and its secret check out: strangers learn nothing.
    ownBody: true,
    success: [json(200, 'ChatWebhookResponseV3', ChatWebhookResponseSchema, 'The update was accepted')],
    errors: [401, 404, 409, 413, 422],
    reasonCodes: ['webhook_secret_invalid', 'binding_not_found', 'no_live_agent', 'payload_too_large'],
    transitions: ['run: none -> queued', 'user: none -> active'],
    client: { doc: "The messaging-channel webhook, verified by the binding's secret.", body: 'update' },
    handler:
      (readBody) =>
      async ({ path, ctx, deps }) => {
        const binding = findBinding(deps.view, path.binding_id);
        verifyChatSecret(binding, ctx.headers['x-chatapp-secret-token'] as string | undefined);
        const raw = await readBody(ctx);
        if (raw === undefined || raw === null) throw invalid(['body'], 'Field required', 'missing', null);
        const update = parse(ChatUpdate.schema, raw, 'body');
        // The body was awaited: attribute the commit to this request again.
        return deps.store.attributeTo(ctx.state, () => acceptChatUpdate(deps, binding, update));
      },
  }),
  declare({
    operationId: 'brokerWebhook',
    endpoint: 19,
    method: 'post',
    path: '/api/v3/webhooks/broker',
    tag: 'webhooks',
    summary: 'OAuth connection-broker lifecycle callback: verify, then reconcile',
    description:
      'Endpoint 19. Verified by `X-Broker-Hmac-Sha256`, the lowercase hex HMAC-SHA256 of the exact raw body with the broker secret (security scheme `brokerSignature`). `stored` is false for a repeated `event_id` or an unknown connection (nothing changes). A connection of an archived project is read-only: the event is accepted but not stored (so the broker stops retrying).',
    security: ['brokerSignature'],
    level: 'public',
    body: { schema: named('BrokerEvent', BrokerEventSchema), required: true },
    // The signature covers the raw bytes (re-serialized JSON would not match them): verify first, then decode the same
    // bytes by the same rules as every body.
    ownBody: true,
    success: [json(200, 'BrokerCallbackResponseV3', BrokerCallbackResponseSchema, 'The callback was verified')],
    errors: [401, 413, 422],
    reasonCodes: ['broker_signature_invalid', 'payload_too_large'],
    transitions: ['connection: * -> active', 'connection: * -> error', 'connection: * -> revoked'],
    client: {
      doc: "The broker's lifecycle callback. The body is sent as the exact text that was signed: a string is sent as is, an object as its JSON.stringify text.",
      body: 'event',
    },
    handler:
      (readBody) =>
      async ({ ctx, deps }) => {
        const raw = await readRawBody(ctx, deps.config.bodyLimit);
        verifyBrokerSignature(raw, ctx.headers['x-broker-hmac-sha256'] as string | undefined, deps.config.brokerSecret());
        const json = await readBody(ctx);
        if (json === undefined || json === null) throw invalid(['body'], 'Field required', 'missing', null);
        const event = parseBrokerEvent(json);
        return deps.store.attributeTo(ctx.state, () => reconcileBrokerEvent(deps, event));
      },
  }),
];
