// The judge's view of one journal entry: what the rules compare, read from the stored record (nothing of it is shown).
import type { ClientFacts, Stored } from '../control/index.js';
import { keptText } from '../control/index.js';

export interface Fact {
  id: number;
  /** Arrival by the mock clock. */
  atMs: number;
  method: string;
  path: string;
  querystring: string;
  operation: string | null;
  status: number;
  reason: string | null;
  /** The principal of the request's credentials (null: none or unknown). */
  principal: string | null;
  client: ClientFacts | undefined;
  /** A 429 or 503's Retry-After in ms (seconds or an HTTP date, against the mock clock); null without one. */
  retryAfterMs: number | null;
  requestText: string | null;
  responseText: string | null;
}

function retryAfter(e: Stored): number | null {
  if (e.status !== 429 && e.status !== 503) return null;
  const h = e.responseHeaders['retry-after'];
  if (typeof h !== 'string' && typeof h !== 'number') return null;
  const text = String(h).trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - e.atMs);
}

export function factOf(e: Stored): Fact {
  return {
    id: e.id,
    atMs: e.atMs,
    method: e.method,
    path: e.path,
    querystring: e.querystring,
    operation: e.operation,
    status: e.status,
    reason: e.client?.reason ?? null,
    principal: e.client?.principal ?? null,
    client: e.client,
    retryAfterMs: retryAfter(e),
    requestText: keptText(e.requestBody),
    responseText: keptText(e.responseBody),
  };
}

/** Who a finding names: the principal, or who the credentials were when the mock knew no principal for them. */
export const whoOf = (f: Fact): string => f.principal ?? (f.client?.access ? 'unknown token' : 'anonymous');

/** Requests that change something (the ones a retry repeats). */
export const isWrite = (f: Fact): boolean => f.method !== 'GET' && f.method !== 'HEAD' && f.method !== 'OPTIONS';
