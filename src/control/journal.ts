// The request journal: a bounded, per-instance record of the v3 traffic; entries are redacted whenever they are read.
import { compileGlob, isGlob } from './glob.js';
import { textPrefix, type BodyText } from './journal-text.js';
import { shown, summary } from './journal-view.js';
import type { SecretIndex } from './redact.js';
import type { BudgetedJournal, JournalBudget } from './journal-budget.js';

export interface FaultMarker {
  id: string;
  /** The status the fault answered with (absent for a pure delay and for transport faults). */
  status?: number;
  /** The wait, as drawn when the fault has a distribution. */
  delay_ms?: number;
  /** A rate limit that was over: the Retry-After it answered (with status 429). */
  retry_after_s?: number;
  /** The transport fault applied (reset and hang leave status 0: nothing was answered). */
  transport?: string;
}

export interface JournalEntry {
  /** 1, 2, 3 ... per instance; survives clearing so ids never repeat. */
  id: number;
  /** When the request arrived, by the mock clock. */
  at: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  status: number;
  duration_ms: number;
  /** The v3 operation name (getRun, cancelRun, ...), or null when no route matched. */
  operation: string | null;
  request: JournalMessage;
  response: JournalMessage;
  /** Present when an injected fault answered or delayed this request. */
  fault?: FaultMarker;
}

/** One side of an exchange. A body over the body limit is shown as text cut at the limit and ending with a marker. */
export interface JournalMessage {
  headers: Record<string, unknown>;
  /** Parsed JSON (secrets redacted), plain text, or null when there was none. */
  body: unknown;
  /** Present when the body was cut: its full size in bytes when known. */
  truncated?: { bytes?: number };
}

export interface JournalFilter {
  method?: string;
  /** A substring of the path, or a glob (`*` = one segment, `**` = any). */
  path?: string;
  /** An exact status (404) or a class ('4xx'). */
  status?: number | string;
  /** Only entries with a greater id (a poller passes the last id it saw): costs what the newer entries cost, not the journal. */
  after?: number;
  /** At most this many: the newest of the matching entries (still oldest first). */
  limit?: number;
}

/** An entry without its query, headers and bodies: what a list of requests shows, cheap to poll. */
export type JournalSummary = Pick<JournalEntry, 'id' | 'at' | 'method' | 'path' | 'status' | 'duration_ms' | 'operation' | 'fault'>;

/** How much the journal keeps: entries, bytes in all, bytes per body. */
export interface JournalLimits {
  /** The newest this many entries (default 1000). */
  entries?: number;
  /** At most this many bytes in all, counted as characters of text (default 8 MiB); the oldest entries go first. */
  bytes?: number;
  /** Each body is cut to this many UTF-8 bytes, with a marker (default 16 KiB). */
  bodyBytes?: number;
}

export const JOURNAL_LIMITS = { entries: 1000, bytes: 8 * 1024 * 1024, bodyBytes: 16 * 1024 } as const;

/** Per journal entry; fingerprints are HMACs under a key that never leaves the process, so they cannot be reversed or compared elsewhere. */
export interface ClientFacts {
  /** The principal the credentials belong to (null: none, or unknown). */
  principal: string | null;
  /** Fingerprint of the bearer access token. */
  access?: string;
  /** exchangeToken: the grant and the fingerprint of the refresh token or code presented. */
  grant?: string;
  refresh?: string;
  code?: string;
  /** Requests of this principal in flight when this one arrived, itself included. */
  inFlight: number;
  /** The answer's reason code (`detail.reason_code`, or OAuth's `error`). */
  reason?: string;
}

/** What one request leaves in the journal: flat text and small header objects, never a parsed body. */
export interface JournalRecord {
  /** When the request arrived, in ms by the mock clock (formatted when read). */
  atMs: number;
  method: string;
  path: string;
  /** The raw query string (parsed when read). */
  querystring: string;
  status: number;
  duration_ms: number;
  operation: string | null;
  requestHeaders: Record<string, unknown>;
  requestBody: BodyText | null;
  responseHeaders: Record<string, unknown>;
  responseBody: BodyText | null;
  fault?: FaultMarker;
  /** What the client report reads (src/judge notes it); never shown. */
  client?: ClientFacts;
}

/** A record as the journal holds it. */
export interface Stored extends JournalRecord {
  id: number;
  size: number;
}

/** Fixed cost counted per entry on top of its text (the record, its header objects' structure). */
const ENTRY_OVERHEAD = 512;

function headerSize(headers: Record<string, unknown>): number {
  let n = 0;
  for (const k in headers) {
    const v = headers[k];
    n += k.length + 8 + (typeof v === 'string' ? v.length : Array.isArray(v) ? v.join('').length + 8 * v.length : 16);
  }
  return n;
}

/** Headers over the body limit (only possible in process: Node refuses them over HTTP) keep their names and cut values. */
function boundedHeaders(headers: Record<string, unknown>, limit: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const each = Math.max(64, Math.floor(limit / Math.max(1, Object.keys(headers).length)));
  for (const [k, v] of Object.entries(headers)) out[k.slice(0, 256)] = textPrefix(String(v), each);
  return out;
}

export class Journal implements BudgetedJournal {
  /** Oldest first from `head`; the front is dropped in batches so add() stays O(1) amortised. */
  private entries: Stored[] = [];
  private head = 0;
  private nextId = 1;
  private total = 0;
  private dropped = 0;
  readonly limits: Required<JournalLimits>;

  /**
   * `secrets` gives, for each read, the credentials the mock holds then: a stored token, code or key shown anywhere in
   * an entry (a bare text body, a path, an echo) is replaced as a secret-named field is. `budget`: bytes shared with the
   * journals of the server's other mocks (sandboxes); without one, `limits.bytes` is this journal's own.
   */
  constructor(
    limits: JournalLimits | number = {},
    private readonly secrets?: () => SecretIndex,
    private readonly budget?: JournalBudget,
  ) {
    const l = typeof limits === 'number' ? { entries: limits } : limits;
    this.limits = { entries: l.entries ?? JOURNAL_LIMITS.entries, bytes: l.bytes ?? JOURNAL_LIMITS.bytes, bodyBytes: l.bodyBytes ?? JOURNAL_LIMITS.bodyBytes };
  }

  /** The limit one body is cut to (the middleware writes bodies with it). */
  get bodyBytes(): number {
    return this.limits.bodyBytes;
  }

  /** Bytes held now (text, header sizes and a fixed overhead per entry). */
  get bytes(): number {
    return this.total;
  }

  /** Entries its bounds pushed out since it was last cleared: verification reports them instead of silently counting fewer. */
  get evicted(): number {
    return this.dropped;
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.length - this.head;
  }

  /** Entries that have left the journal (dropped for its bounds, or cleared) since the mock started. */
  get left(): number {
    return this.nextId - 1 - this.size;
  }

  /** The id the next entry gets. */
  get next(): number {
    return this.nextId;
  }

  add(record: JournalRecord): number {
    return this.push(record, this.nextId++);
  }

  /**
   * Replaces the whole journal with `records` (consecutive ids, oldest first, as a repro bundle holds them) and
   * continues numbering at `nextId`; the bounds apply as they do to new entries.
   */
  restore(records: (JournalRecord & { id: number })[], nextId: number): void {
    this.clear();
    for (const r of records) this.push(r, r.id);
    this.nextId = nextId;
  }

  /** The matching entries as stored, unredacted: for readers inside the mock (the client report) that show no secret. */
  records(filter: JournalFilter = {}): readonly Stored[] {
    return this.select(filter);
  }

  private push(record: JournalRecord, id: number): number {
    const limit = this.limits.bodyBytes;
    const hReq = headerSize(record.requestHeaders);
    const hRes = headerSize(record.responseHeaders);
    // The record becomes the stored entry (the middleware builds a fresh one per request): no copy.
    const stored = record as Stored;
    if (record.path.length > limit) stored.path = textPrefix(record.path, limit);
    if (record.querystring.length > limit) stored.querystring = textPrefix(record.querystring, limit);
    if (hReq > limit) stored.requestHeaders = boundedHeaders(record.requestHeaders, limit);
    if (hRes > limit) stored.responseHeaders = boundedHeaders(record.responseHeaders, limit);
    stored.id = id;
    stored.size =
      ENTRY_OVERHEAD +
      stored.path.length +
      stored.querystring.length +
      Math.min(hReq, limit) +
      Math.min(hRes, limit) +
      (stored.requestBody?.text.length ?? 0) +
      (stored.responseBody?.text.length ?? 0);
    this.entries.push(stored);
    this.total += stored.size;
    // The newest entry always stays, whatever its size (it is bounded by the body limit).
    while (this.size > 1 && (this.size > this.limits.entries || this.total > this.limits.bytes)) this.shift();
    this.budget?.added(this, stored.id, stored.size);
    return stored.id;
  }

  /** Lets the oldest entry go. */
  private shift(): void {
    const size = this.entries[this.head].size;
    this.total -= size;
    this.entries[this.head++] = undefined as unknown as Stored;
    this.dropped++;
    this.budget?.released(size, 1);
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  holds(id: number): boolean {
    const first = this.entries[this.head]?.id;
    return first !== undefined && id >= first && id < this.nextId;
  }

  dropOldest(id: number): boolean {
    if (this.entries[this.head]?.id !== id) return false;
    this.shift();
    return true;
  }

  /** Oldest first, filtered; each entry redacted as it is read. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const index = this.secrets?.();
    return this.select(filter).map((e) => shown(e, index));
  }

  /** As list(), without query, headers and bodies (nothing to redact). */
  summaries(filter: JournalFilter = {}): JournalSummary[] {
    return this.select(filter).map(summary);
  }

  /** The matching stored entries, oldest first: from just after `after`, and scanned from the newest when `limit` is set. */
  private select(filter: JournalFilter): Stored[] {
    const method = filter.method?.toUpperCase();
    const path = filter.path;
    const pathRe = path && isGlob(path) ? compileGlob(path) : null;
    const status = filter.status === undefined ? undefined : String(filter.status).toLowerCase();
    const statusClass = status && /^[1-5]xx$/.test(status) ? status[0] : null;
    const matches = (e: Stored) =>
      (!method || e.method === method) &&
      (!path || (pathRe ? pathRe.test(e.path) : e.path.includes(path))) &&
      (!status || (statusClass ? String(e.status)[0] === statusClass : String(e.status) === status));
    let start = this.head;
    const first = this.entries[this.head]?.id;
    // Ids are consecutive from the oldest held entry, so `after` is a position.
    if (filter.after !== undefined && first !== undefined && filter.after >= first) start = Math.min(this.entries.length, this.head + (filter.after - first) + 1);
    const out: Stored[] = [];
    const limit = filter.limit ?? Infinity;
    if (limit === Infinity) {
      for (let i = start; i < this.entries.length; i++) if (matches(this.entries[i])) out.push(this.entries[i]);
      return out;
    }
    for (let i = this.entries.length - 1; i >= start && out.length < limit; i--) if (matches(this.entries[i])) out.push(this.entries[i]);
    return out.reverse();
  }

  /** One entry by id, redacted; undefined once it has left the journal. */
  get(id: number): JournalEntry | undefined {
    const first = this.entries[this.head]?.id;
    if (first === undefined || id < first || id >= this.nextId) return undefined;
    // Ids are consecutive from the oldest held entry.
    const e = this.entries[this.head + (id - first)];
    return e && e.id === id ? shown(e, this.secrets?.()) : undefined;
  }

  clear(): number {
    const n = this.size;
    this.budget?.released(this.total, n);
    this.entries = [];
    this.head = 0;
    this.total = 0;
    this.dropped = 0;
    return n;
  }
}
