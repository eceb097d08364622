// Catalog rows of the v3 endpoints that take no bearer token: the token exchange (1) and the two inbound webhooks (16, 19).
import * as v from 'valibot';
import { Uuid } from '../schemas/common.js';
import { TokenRequestSchema, TokenResponseSchema } from '../schemas/auth.js';
import { ChatUpdateSchema } from '../domain/chat-webhook.js';
import { BrokerEventSchema } from '../domain/broker-events.js';
import { BrokerCallbackResponseSchema, ChatWebhookResponseSchema } from './schemas.js';
import { json, named, type OperationSpec } from './operation-spec.js';

export const V3_PUBLIC_OPERATIONS: OperationSpec[] = [
  {
    operationId: 'exchangeToken',
    endpoint: 1,
    method: 'post',
    path: '/api/v3/auth/token',
    tag: 'auth',
    summary: 'Exchange an authorization code (PKCE S256) or rotate a refresh token',
    description:
      'Endpoint 1. `grant_type` `authorization_code` needs `code` and `code_verifier`; `refresh_token` needs `refresh_token`. Any failure of the grant is 400 `invalid_grant`; a replayed refresh token revokes its whole family. Takes no credential.',
    security: [],
    body: { schema: named('InstallerTokenRequest', TokenRequestSchema), required: true },
    success: [
      {
        ...json(200, 'InstallerTokenResponse', TokenResponseSchema, 'Tokens issued'),
        headers: { 'Cache-Control': { description: '`no-store`', required: true } },
      },
    ],
    errors: [400, 413, 422],
  },
  {
    operationId: 'chatWebhook',
    endpoint: 16,
    method: 'post',
    path: '/api/v3/connections/{binding_id}/chatapp/webhook',
    tag: 'webhooks',
    summary: 'Messaging-channel webhook: upsert the app user and enqueue the live agent of the binding',
    description:
      'Endpoint 16. Verified by the binding-specific secret in `X-Chatapp-Secret-Token` (security scheme `chatSecret`). Unknown binding 404 `binding_not_found`; wrong or absent secret 401 `webhook_secret_invalid`; no live agent 409 `no_live_agent`. A repeated `update_id` changes nothing and answers `duplicate: true`.',
    security: ['chatSecret'],
    pathParams: v.object({ binding_id: Uuid }),
    body: { schema: named('ChatUpdate', ChatUpdateSchema), required: true },
    success: [json(200, 'ChatWebhookResponseV3', ChatWebhookResponseSchema, 'The update was accepted')],
    errors: [401, 404, 409, 413, 422],
  },
  {
    operationId: 'brokerWebhook',
    endpoint: 19,
    method: 'post',
    path: '/api/v3/webhooks/broker',
    tag: 'webhooks',
    summary: 'OAuth connection-broker lifecycle callback: verify, then reconcile',
    description:
      'Endpoint 19. Verified by `X-Broker-Hmac-Sha256`, the lowercase hex HMAC-SHA256 of the exact raw body with the broker secret (security scheme `brokerSignature`). `stored` is false for a repeated `event_id` or an unknown connection (nothing changes). A connection of an archived project is read-only: the event is accepted but not stored (so the broker stops retrying).',
    security: ['brokerSignature'],
    body: { schema: named('BrokerEvent', BrokerEventSchema), required: true },
    success: [json(200, 'BrokerCallbackResponseV3', BrokerCallbackResponseSchema, 'The callback was verified')],
    errors: [401, 413, 422],
  },
];
