// Journal redaction: secret headers and secret fields at any depth become "[redacted]", so no credential reaches a journal entry.

export const REDACTED = '[redacted]';

/** Headers that carry credentials (CONTRACT section 8), lowercase as Node delivers them. */
export const SECRET_HEADERS = new Set(['authorization', 'x-admin-key', 'x-chatapp-secret-token', 'x-broker-hmac-sha256', 'cookie', 'set-cookie']);

/** Field names that are secrets wherever they appear (bodies, queries, nested objects). */
const SECRET_FIELDS = new Set([
  'webhook_secret',
  'broker_secret',
  'admin_key',
  'tool_arguments',
  'code_verifier',
  'refresh_token',
  'access_token',
  'code',
  'token',
  'client_secret',
  'password',
  'api_key',
  'private_key',
]);
/** Anything named like a secret (client_secret, signing_secret, x_api_key, ...) is redacted too: a false positive costs nothing. */
const SECRET_PATTERN = /secret|password|passwd|api[_-]?key|private[_-]?key|credential_value/i;

export const isSecretField = (key: string): boolean => SECRET_FIELDS.has(key.toLowerCase()) || SECRET_PATTERN.test(key);

/** A deep copy of `value` with every secret field replaced; non-JSON values are copied as JSON would see them. */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 64) return REDACTED; // pathological nesting: nothing in it is worth the risk
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  if (Array.isArray(value)) return value.map((x) => redactDeep(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecretField(k) && v !== null && v !== undefined ? REDACTED : redactDeep(v, depth + 1);
  }
  return out;
}

/** Headers with the credential-carrying ones replaced. */
export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[k] = SECRET_HEADERS.has(k.toLowerCase()) || isSecretField(k) ? REDACTED : v;
  }
  return out;
}
