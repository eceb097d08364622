// The journal as HAR 1.2 (what browsers' network panels import): the same entries, redacted as the journal shows them.
import { STATUS_CODES } from 'node:http';
import type { Entry, Har, Header } from 'har-format';
import type { JournalEntry, JournalMessage } from './journal-types.js';

const asText = (v: unknown): string => (typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : String(v));

function headers(h: Record<string, unknown>): Header[] {
  return Object.entries(h).map(([name, value]) => ({ name, value: asText(value) }));
}

const mimeOf = (m: JournalMessage): string => asText(m.headers['content-type'] ?? (typeof m.body === 'string' ? 'text/plain' : 'application/json'));

/** The body as text, as it was shown (JSON bodies re-serialized after redaction). */
const bodyText = (m: JournalMessage): string => (m.body === null || m.body === undefined ? '' : typeof m.body === 'string' ? m.body : JSON.stringify(m.body));

function entry(e: JournalEntry) {
  const host = asText(e.request.headers.host ?? 'localhost');
  const query = Object.entries(e.query).flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ name, value: asText(value) })));
  const qs = query.length ? `?${new URLSearchParams(query.map((q): [string, string] => [q.name, q.value])).toString()}` : '';
  const reqText = bodyText(e.request);
  const resText = bodyText(e.response);
  return {
    startedDateTime: e.at,
    time: e.duration_ms,
    request: {
      method: e.method,
      url: `http://${host}${e.path}${qs}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(e.request.headers),
      queryString: query,
      ...(reqText ? { postData: { mimeType: mimeOf(e.request), text: reqText } } : {}),
      headersSize: -1,
      bodySize: reqText ? Buffer.byteLength(reqText) : 0,
    },
    response: {
      status: e.status,
      statusText: STATUS_CODES[e.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(e.response.headers),
      content: { size: Buffer.byteLength(resText), mimeType: resText ? mimeOf(e.response) : 'x-unknown', text: resText },
      redirectURL: '',
      headersSize: -1,
      bodySize: resText ? Buffer.byteLength(resText) : 0,
    },
    cache: {},
    timings: { send: 0, wait: e.duration_ms, receive: 0 },
    ...(e.fault ? { comment: `answered by fault ${e.fault.id}` } : {}),
    _journal_id: e.id,
    _operation: e.operation,
  } satisfies Entry;
}

/**
 * A HAR 1.2 document of `entries`; `left` journal entries had already left the bounded journal (said in the log's
 * comment). Its type is the literal's own, checked against HAR's with `satisfies`: HAR's interfaces have no index
 * signature, so the open schema GET /_mock/requests.har answers could not hold the handler to them.
 */
export function harOf(entries: JournalEntry[], left: number, version: string) {
  return {
    log: {
      version: '1.2' as const,
      creator: { name: 'project-runtime-mock', version },
      pages: [],
      entries: entries.map(entry),
      comment: `${entries.length} journal entries; ${left} had left the bounded journal before this export`,
      _journal: { entries: entries.length, left },
    },
  } satisfies Har & { log: { _journal: { entries: number; left: number } } };
}
