// Which names carry a secret: fields, query parameters and headers, in any spelling (refresh_token, refreshToken, Refresh-Token).

export const REDACTED = '[redacted]';

/** Names that are secrets, compared lower case with everything but letters and digits removed. */
const SECRET_NAMES = new Set([
  'webhooksecret',
  'brokersecret',
  'adminkey',
  'toolarguments',
  'codeverifier',
  'refreshtoken',
  'accesstoken',
  'idtoken',
  'code',
  'authcode',
  'authorizationcode',
  'token',
  'clientsecret',
  'password',
  'apikey',
  'privatekey',
  'cookie',
  'setcookie',
  'session',
  'sessionid',
]);

/**
 * Anything named like a secret is one too (client_secret, X-Mock-Control-Token, x-hub-signature-256, X-Api-Key,
 * Proxy-Authorization, ...): a false positive costs nothing. `token$` spares token counts (`max_tokens`) and `token_type`.
 */
const SECRET_PATTERN = /secret|passw|apikey|privatekey|credentialvalue|token$|verifier|signature|hmac|authorization|cookie/;

const normalized = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

export const isSecretField = (name: string): boolean => {
  const n = normalized(name);
  return SECRET_NAMES.has(n) || SECRET_PATTERN.test(n);
};

/** Headers that carry credentials (docs/control-surface.md#protection) and any named like a secret. */
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-admin-key',
  'x-chatapp-secret-token',
  'x-broker-hmac-sha256',
  'x-mock-control-token',
  'cookie',
  'set-cookie',
]);

export const isSecretHeader = (name: string): boolean => SECRET_HEADERS.has(name.toLowerCase()) || isSecretField(name);
