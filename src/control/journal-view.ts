// How journal entries are shown when read: every part redacted (by name, where echoed, known credentials), bodies parsed or marked as cut.
import { Redactor, type SecretIndex } from './redact.js';
import { bodyParts, truncationMarker, type KeptBody } from './journal-text.js';
import type { JournalEntry, JournalSummary, Stored } from './journal-types.js';
import { TEST_NAME_HEADER, TEST_NAME_LENGTH } from './journal-types.js';

/** The test a request named (`X-Test-Name`), cut to its bound; undefined when it named none. */
export function testOf(e: Stored): string | undefined {
  const v = e.requestHeaders[TEST_NAME_HEADER];
  const name = Array.isArray(v) ? v[0] : v;
  return typeof name === 'string' && name !== '' ? name.slice(0, TEST_NAME_LENGTH) : undefined;
}

/** Who and which test a request was for, when known: what the waterfall groups by. */
function whose(e: Stored, out: { principal?: string; test?: string }): void {
  if (e.client?.principal) out.principal = e.client.principal;
  const test = testOf(e);
  if (test !== undefined) out.test = test;
}

interface Readable {
  /** Parsed JSON, or the text as kept. */
  value: unknown;
  /** The text is cut: its marker, appended once the text is redacted. */
  marker?: string;
  truncated?: { bytes?: number };
}

/** The body as kept, before redaction: parsed JSON, plain text, or a cut prefix. */
function readable(kept: KeptBody | null): Readable {
  if (kept === null) return { value: null };
  const b = bodyParts(kept);
  if (b.truncatedFrom !== undefined) {
    return { value: b.text, marker: truncationMarker(b.truncatedFrom), truncated: b.truncatedFrom >= 0 ? { bytes: b.truncatedFrom } : {} };
  }
  if (!b.json) return { value: b.text };
  try {
    return { value: JSON.parse(b.text) };
  } catch {
    return { value: b.text };
  }
}

function shownBody(r: Readable, redactor: Redactor): { body: unknown; truncated?: { bytes?: number } } {
  const body = redactor.deep(r.value);
  if (r.marker === undefined) return { body };
  return { body: `${body as string}${r.marker}`, truncated: r.truncated };
}

/**
 * An entry as it may be shown. Whatever the body's type (JSON, a form, text, an invalid body, a cut prefix) and wherever
 * a value is echoed (a 422 `input`, a message, a header, the query, the path), no secret is left: values under a
 * secret name are replaced, then found again wherever else the entry holds them, and so is any credential in `index`.
 */
export function shown(e: Stored, index?: SecretIndex): JournalEntry {
  const redactor = new Redactor(index);
  const query = parseQuery(e.querystring);
  const request = readable(e.requestBody);
  const response = readable(e.responseBody);
  redactor.collectHeaders(e.requestHeaders);
  redactor.collectHeaders(e.responseHeaders);
  redactor.collect(query);
  redactor.collect(request.value);
  redactor.collect(response.value);
  const sent = e.requestBody === null ? null : bodyParts(e.requestBody);
  if (index?.signature && sent && sent.truncatedFrom === undefined) redactor.remember(index.signature(sent.text));
  const entry: JournalEntry = {
    id: e.id,
    at: new Date(e.atMs).toISOString(),
    method: e.method,
    path: redactor.text(e.path),
    query: redactor.deep(query) as Record<string, unknown>,
    status: e.status,
    duration_ms: e.duration_ms,
    operation: e.operation,
    request: { headers: redactor.headers(e.requestHeaders), ...shownBody(request, redactor) },
    response: { headers: redactor.headers(e.responseHeaders), ...shownBody(response, redactor) },
  };
  if (e.fault) entry.fault = e.fault;
  if (e.simulated) entry.simulated = true;
  // Stored redacted; redacted again with the credentials held now.
  if (e.drift) entry.drift = redactor.deep(e.drift) as JournalEntry['drift'];
  if (e.client?.slips) entry.findings = e.client.slips.map((s) => ({ rule: s.rule, fix: s.fix }));
  return entry;
}

export function summary(e: Stored): JournalSummary {
  const out: JournalSummary = {
    id: e.id,
    at: new Date(e.atMs).toISOString(),
    method: e.method,
    path: e.path,
    status: e.status,
    duration_ms: e.duration_ms,
    operation: e.operation,
  };
  if (e.fault) out.fault = e.fault;
  if (e.simulated) out.simulated = true;
  whose(e, out);
  return out;
}

/** The query as Koa's ctx.query shows it: repeated keys become arrays. */
export function parseQuery(qs: string): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  if (!qs) return out;
  for (const [k, v] of new URLSearchParams(qs)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
