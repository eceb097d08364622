// What the generated client methods (v3.ts, control.ts) share: call options, broker signing, and how a control answer
// resolves (its body) or rejects (ControlError; node's AssertionError for a failed verification).
import { verificationError } from '../verification-error.js';

/** Per-call extras: more headers (they win over the client's credentials), an abort signal. */
export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Lowercase hex HMAC-SHA256 (Web Crypto: Node 20+ and browsers alike). */
export async function hmacSha256Hex(secret: string, text: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(text)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** How endpoint 19's body is signed: with the broker secret, or by a signature computed elsewhere for these exact bytes. */
export type BrokerSigning = { secret: string } | { signature: string };

/** A refused control call: its status and the mock's error body (management envelope or validation items). */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} answered ${status}: ${JSON.stringify(body)}`);
    this.name = 'ControlError';
  }
}

/** A control answer's body; ControlError when the mock refused. */
export async function answer<T>(what: string, call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) throw new ControlError(response.status, error, what);
  return data as T;
}

/** A verification: its answer when it holds; node's AssertionError (as in process) on a 417; ControlError otherwise. */
export async function verified<T>(
  what: string,
  operator: Parameters<typeof verificationError>[1],
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (response.status === 417) throw verificationError(error as Parameters<typeof verificationError>[0], operator);
  if (error !== undefined || !response.ok) throw new ControlError(response.status, error, what);
  return data as T;
}
