// Helpers for the mock's users: a PKCE pair for the token endpoint and a signer for broker webhook payloads.
import { createHmac, randomBytes } from 'node:crypto';
import { PKCE_VERIFIER, pkceS256 } from './domain/index.js';

export interface PkcePair {
  code_verifier: string;
  code_challenge: string;
  code_challenge_method: 'S256';
}

/**
 * A PKCE S256 pair (RFC 7636): a random 43-character verifier unless one is given, and its challenge. A given
 * verifier must be one the token endpoint accepts (43 to 128 of A-Z a-z 0-9 - . _ ~), else this throws.
 */
export function createPkcePair(verifier?: string): PkcePair {
  const code_verifier = verifier ?? randomBytes(32).toString('base64url');
  if (!PKCE_VERIFIER.test(code_verifier))
    throw new TypeError('createPkcePair: a code_verifier is 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~" (RFC 7636 4.1)');
  return { code_verifier, code_challenge: pkceS256(code_verifier), code_challenge_method: 'S256' };
}

export interface SignedBrokerPayload {
  /** The text to send as the request body (UTF-8). */
  body: string;
  /** The exact bytes that were signed (send these when `body` was given as a Buffer that is not valid UTF-8). */
  bytes: Buffer;
  /** Lowercase hex HMAC-SHA256 of `bytes`. */
  signature: string;
  /** `Content-Type` and `X-Broker-Hmac-Sha256`, ready for `.set(headers)`. */
  headers: Record<string, string>;
}

/**
 * Signs a broker webhook payload the way the broker does: HMAC-SHA256 over the exact bytes. A
 * string or Buffer is signed as is (keep its formatting); an object is JSON.stringify'd first.
 */
export function signBrokerPayload(body: string | Buffer | object, secret: string): SignedBrokerPayload {
  const bytes = Buffer.isBuffer(body) ? Buffer.from(body) : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
  const signature = createHmac('sha256', secret).update(bytes).digest('hex');
  return {
    body: bytes.toString('utf8'),
    bytes,
    signature,
    headers: { 'Content-Type': 'application/json', 'X-Broker-Hmac-Sha256': signature },
  };
}
