// The request journal: a bounded, per-instance record of the v3 traffic; entries are redacted whenever they are read.
import { compileGlob, isGlob } from '../glob.js';
import { keptText, textPrefix } from './journal-text.js';
import { shown, summary, testOf } from './journal-view.js';
import type { SecretIndex } from './redact.js';
import type { BudgetedJournal, JournalBudget } from './journal-budget.js';
import type { DriftItem } from '../schemas/index.js';
import {
  JOURNAL_LIMITS,
  type JournalEntry,
  type JournalFilter,
  type JournalSummary,
  type JournalLimits,
  type JournalRecord,
  type Stored,
  StoredEntry,
} from './journal-types.js';
export {
  JOURNAL_LIMITS,
  type FaultMarker,
  type JournalEntry,
  type JournalMessage,
  type JournalFilter,
  type JournalSummary,
  type JournalLimits,
  type ClientFacts,
  type JournalRecord,
  type Stored,
} from './journal-types.js';

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
    // Most journals (every sandbox's) keep the defaults: they share the one constant rather than each holding a copy.
    this.limits =
      l.entries === undefined && l.bytes === undefined && l.bodyBytes === undefined
        ? JOURNAL_LIMITS
        : { entries: l.entries ?? JOURNAL_LIMITS.entries, bytes: l.bytes ?? JOURNAL_LIMITS.bytes, bodyBytes: l.bodyBytes ?? JOURNAL_LIMITS.bodyBytes };
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
    const stored = new StoredEntry(record, id, 0, this.budget?.newest ?? (this.size > 0 ? this.entries[this.entries.length - 1] : undefined));
    if (record.path.length > limit) stored.path = textPrefix(record.path, limit);
    if (record.querystring.length > limit) stored.querystring = textPrefix(record.querystring, limit);
    if (hReq > limit) stored.requestHeaders = boundedHeaders(record.requestHeaders, limit);
    if (hRes > limit) stored.responseHeaders = boundedHeaders(record.responseHeaders, limit);
    stored.size =
      ENTRY_OVERHEAD +
      stored.path.length +
      stored.querystring.length +
      Math.min(hReq, limit) +
      Math.min(hRes, limit) +
      (keptText(stored.requestBody)?.length ?? 0) +
      (keptText(stored.responseBody)?.length ?? 0);
    this.entries.push(stored);
    this.total += stored.size;
    // The newest entry always stays, whatever its size (it is bounded by the body limit).
    while (this.size > 1 && (this.size > this.limits.entries || this.total > this.limits.bytes)) this.shift();
    this.budget?.added(this, stored);
    return stored.id;
  }

  /**
   * Adds what shadow mode found to an entry still held (the caller bounds `drift`); its bytes count against the bounds,
   * so older entries may go. Answers whether the entry was there.
   */
  addDrift(id: number, drift: readonly DriftItem[]): boolean {
    const first = this.entries[this.head]?.id;
    const e = first === undefined || id < first ? undefined : this.entries[this.head + (id - first)];
    if (!e || e.id !== id) return false;
    const bytes = JSON.stringify(drift).length;
    e.drift = [...drift];
    e.size += bytes;
    this.total += bytes;
    this.budget?.grew(bytes);
    while (this.size > 1 && this.total > this.limits.bytes) this.shift();
    return true;
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
    const { simulated, principal, test } = filter;
    const matches = (e: Stored) =>
      (simulated === undefined || simulated === (e.simulated === true)) &&
      (principal === undefined || e.client?.principal === principal) &&
      (test === undefined || testOf(e) === test) &&
      (!method || e.method === method) &&
      (!path || (pathRe ? pathRe.test(e.path) : e.path.includes(path))) &&
      (!status || (statusClass ? String(e.status)[0] === statusClass : String(e.status) === status));
    let start = this.head;
    const first = this.entries[this.head]?.id;
    // Ids are consecutive from the oldest held entry, so `after` is a position.
    if (filter.after !== undefined && first !== undefined && filter.after >= first)
      start = Math.min(this.entries.length, this.head + (filter.after - first) + 1);
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
