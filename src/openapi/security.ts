// The credentials as OpenAPI security schemes (docs/api.md#authentication; the control token: docs/control-surface.md), and each
// operation's accepted alternatives. Swagger UI's Authorize dialog, Prism and the typed client read them.
import type { OperationSpec, SecurityScheme } from './operation-spec.js';

type Json = Record<string, unknown>;

/** What the document is built for: the control surface, and whether it requires a token. */
export interface SecurityOptions {
  control: boolean;
  controlToken?: boolean;
}

/** The credentials as security schemes (docs/api.md#authentication; the control token: docs/control-surface.md). */
const SECURITY_SCHEMES: Record<SecurityScheme, { key: string; scheme: Json }> = {
  bearer: {
    key: 'bearerAuth',
    scheme: {
      type: 'http',
      scheme: 'bearer',
      description: 'An access token from POST /api/v3/auth/token, or one seeded by fixtures. Every management endpoint accepts it.',
    },
  },
  adminKey: {
    key: 'adminKey',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Admin-Key',
      description:
        'The configured admin key (`--admin-key`; compared in constant time). Accepted on endpoints 2, 3, 13, 18 and 20 only, as an alternative to a bearer token, and grants every authority there. A wrong key is 401 `admin_key_invalid`; on any other endpoint it is no credential (401 `authentication_required`).',
    },
  },
  chatSecret: {
    key: 'chatSecret',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Chatapp-Secret-Token',
      description:
        'The webhook secret of the connection binding named in the path (endpoint 16; compared in constant time). Wrong or absent: 401 `webhook_secret_invalid`.',
    },
  },
  brokerSignature: {
    key: 'brokerSignature',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Broker-Hmac-Sha256',
      description:
        'Not a fixed key: the lowercase hex HMAC-SHA256 of the exact raw request body with the broker secret (`--broker-secret`), computed for each request (endpoint 19). Missing or wrong: 401 `broker_signature_invalid`.',
    },
  },
  controlToken: {
    key: 'controlToken',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Mock-Control-Token',
      description:
        'The token the mock was started with (`--control-token`, `createApp({ controlToken })`); when one is set, every /_mock route but GET /_mock/health requires it. Not part of v3.',
    },
  },
};

/** OpenAPI security requirements: one alternative per accepted credential; `[]` = public. */
export function securityOf(op: OperationSpec, options: SecurityOptions): Json[] {
  return op.security.filter((s) => s !== 'controlToken' || options.controlToken).map((s) => ({ [SECURITY_SCHEMES[s].key]: [] }));
}

/** Only the schemes some operation accepts (the control token only when the mock runs with one). */
export function securitySchemes(operations: OperationSpec[], options: SecurityOptions): Json {
  return Object.fromEntries(
    Object.values(SECURITY_SCHEMES)
      .filter(({ key }) => operations.some((op) => securityOf(op, options).some((alt) => key in alt)))
      .map(({ key, scheme }) => [key, scheme]),
  );
}
