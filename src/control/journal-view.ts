// How journal entries are shown when read: secrets redacted, bodies parsed or marked as cut; summaries for lists.
import { redactDeep, redactHeaders } from './redact.js';
import { truncationMarker, type BodyText } from './journal-text.js';
import type { JournalEntry, JournalSummary, Stored } from './journal.js';

/** The body as it may be shown: parsed JSON with its secrets replaced, or text ending with the truncation marker. */
function shownBody(b: BodyText | null): { body: unknown; truncated?: { bytes?: number } } {
  if (b === null) return { body: null };
  if (b.truncatedFrom !== undefined) {
    const truncated = b.truncatedFrom >= 0 ? { bytes: b.truncatedFrom } : {};
    return { body: b.text + truncationMarker(b.truncatedFrom), truncated };
  }
  if (!b.json) return { body: b.text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(b.text);
  } catch {
    return { body: b.text };
  }
  return { body: b.redacted ? parsed : redactDeep(parsed) };
}

export function shown(e: Stored): JournalEntry {
  const entry: JournalEntry = {
    id: e.id,
    at: new Date(e.atMs).toISOString(),
    method: e.method,
    path: e.path,
    query: redactDeep(parseQuery(e.querystring)) as Record<string, unknown>,
    status: e.status,
    duration_ms: e.duration_ms,
    operation: e.operation,
    request: { headers: redactHeaders(e.requestHeaders), ...shownBody(e.requestBody) },
    response: { headers: redactHeaders(e.responseHeaders), ...shownBody(e.responseBody) },
  };
  if (e.fault) entry.fault = e.fault;
  return entry;
}

export function summary(e: Stored): JournalSummary {
  const out: JournalSummary = { id: e.id, at: new Date(e.atMs).toISOString(), method: e.method, path: e.path, status: e.status, duration_ms: e.duration_ms, operation: e.operation };
  if (e.fault) out.fault = e.fault;
  return out;
}

/** The query as Koa's ctx.query shows it: repeated keys become arrays. */
function parseQuery(qs: string): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  if (!qs) return out;
  for (const [k, v] of new URLSearchParams(qs)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
