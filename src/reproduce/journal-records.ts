// A journal entry as it is shown (redacted) turned back into what the journal stores: how a bundle's journal is restored.
import { BodyText, truncationMarker, type KeptBody } from '../control/index.js';
import type { JournalEntry, JournalMessage, JournalRecord } from '../control/index.js';

/** The stored body that shows as `m` shows (already redacted, so nothing is replaced when it is read). */
function bodyText(m: JournalMessage): KeptBody | null {
  if (m.body === null || m.body === undefined) return null;
  if (m.truncated && typeof m.body === 'string') {
    const bytes = m.truncated.bytes ?? -1;
    const marker = truncationMarker(bytes);
    const text = m.body.endsWith(marker) ? m.body.slice(0, -marker.length) : m.body;
    return new BodyText(text, false, bytes);
  }
  if (typeof m.body === 'string') return new BodyText(m.body, false);
  return JSON.stringify(m.body);
}

/** The query string that parses back to `query` (repeated keys from arrays). */
function queryString(query: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) q.append(k, String(one));
  return q.toString();
}

export function entryRecord(e: JournalEntry): JournalRecord & { id: number } {
  const record: JournalRecord & { id: number } = {
    id: e.id,
    atMs: Date.parse(e.at),
    method: e.method,
    path: e.path,
    querystring: queryString(e.query),
    status: e.status,
    duration_ms: e.duration_ms,
    operation: e.operation,
    requestHeaders: e.request.headers,
    requestBody: bodyText(e.request),
    responseHeaders: e.response.headers,
    responseBody: bodyText(e.response),
  };
  if (e.fault) record.fault = e.fault;
  if (e.simulated) record.simulated = true;
  return record;
}
