// The request journal: a bounded, per-instance record of the v3 traffic; entries are redacted whenever they are read.
import { compileGlob, isGlob } from '../glob.js';
import { keptText, textPrefix } from './journal-text.js';
import { shown, summary, testOf } from './journal-view.js';
import type { SecretIndex } from './redact.js';
import { JournalBudget, type OrderedJournal } from './journal-budget.js';
import type { DriftItem } from '../schemas/index.js';
import {
  JOURNAL_LIMITS,
  type JournalEntry,
  type JournalFilter,
  type JournalSummary,
  type JournalLimits,
  type JournalRecord,
  type Stored,
} from './journal-types.js';
import { StoredEntry } from './journal-entry.js';
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

export class Journal implements OrderedJournal {
  /** Entries held, their bytes (text, header sizes and a fixed overhead each), and the oldest one's id. */
  private count = 0;
  private total = 0;
  private firstId = 1;
  /** Where this journal's entries start in the shared order (the order keeps it up to date). */
  first = 0;
  private nextId = 1;
  private dropped = 0;
  readonly limits: Required<JournalLimits>;
  /** The order this journal's entries live in: shared with the server's other mocks, or its own. */
  private readonly order: JournalBudget;

  /**
   * `secrets` gives, for each read, the credentials the mock holds then: a stored token, code or key shown anywhere in
   * an entry (a bare text body, a path, an echo) is replaced as a secret-named field is. `budget`: bytes shared with the
   * journals of the server's other mocks (sandboxes); without one, `limits.bytes` is this journal's own.
   */
  constructor(
    limits: JournalLimits | number = {},
    private readonly secrets?: () => SecretIndex,
    budget?: JournalBudget,
  ) {
    const l = typeof limits === 'number' ? { entries: limits } : limits;
    // Most journals (every sandbox's) keep the defaults: they share the one constant rather than each holding a copy.
    this.limits =
      l.entries === undefined && l.bytes === undefined && l.bodyBytes === undefined
        ? JOURNAL_LIMITS
        : { entries: l.entries ?? JOURNAL_LIMITS.entries, bytes: l.bytes ?? JOURNAL_LIMITS.bytes, bodyBytes: l.bodyBytes ?? JOURNAL_LIMITS.bodyBytes };
    this.order = budget ?? new JournalBudget(Infinity);
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
    return this.count;
  }

  /** Entries that have left the journal (dropped for its bounds, or cleared) since the mock started. */
  get left(): number {
    return this.nextId - 1 - this.count;
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

  /** Copies of the matching entries as stored, unredacted: for readers inside the mock (the client report) that show no secret. */
  records(filter: JournalFilter = {}): readonly Stored[] {
    // Copies: the journal fills entries it lets go with later requests, so none of its own leaves it.
    return this.select(filter).map((e) => e.toJSON());
  }

  private push(record: JournalRecord, id: number): number {
    const limit = this.limits.bodyBytes;
    const hReq = headerSize(record.requestHeaders);
    const hRes = headerSize(record.responseHeaders);
    // Past the body limit a path, query or header set is cut to it (only possible in process: Node refuses them over HTTP).
    const over = record.path.length > limit || record.querystring.length > limit || hReq > limit || hRes > limit;
    const kept: JournalRecord = over
      ? {
          ...record,
          path: record.path.length > limit ? textPrefix(record.path, limit) : record.path,
          querystring: record.querystring.length > limit ? textPrefix(record.querystring, limit) : record.querystring,
          requestHeaders: hReq > limit ? boundedHeaders(record.requestHeaders, limit) : record.requestHeaders,
          responseHeaders: hRes > limit ? boundedHeaders(record.responseHeaders, limit) : record.responseHeaders,
        }
      : record;
    const newest = this.order.newest;
    const stored = this.order.reuse()?.fill(kept, id, 0, newest) ?? new StoredEntry(kept, id, 0, newest);
    stored.size =
      ENTRY_OVERHEAD +
      stored.path.length +
      stored.querystring.length +
      Math.min(hReq, limit) +
      Math.min(hRes, limit) +
      (keptText(stored.requestBody)?.length ?? 0) +
      (keptText(stored.responseBody)?.length ?? 0);
    const at = this.order.append(this, stored);
    if (this.count++ === 0) {
      this.first = at;
      this.firstId = id;
    }
    this.total += stored.size;
    // The newest entry always stays, whatever its size (it is bounded by the body limit).
    while (this.count > 1 && (this.count > this.limits.entries || this.total > this.limits.bytes)) this.dropOwn();
    this.order.settle();
    return id;
  }

  /**
   * Adds what shadow mode found to an entry still held (the caller bounds `drift`); its bytes count against the bounds,
   * so older entries may go. Answers whether the entry was there.
   */
  addDrift(id: number, drift: readonly DriftItem[]): boolean {
    const at = this.holds(id) ? this.order.find(this, id) : -1;
    if (at < 0) return false;
    const e = this.order.entryAt(at);
    const bytes = JSON.stringify(drift).length;
    e.drift = [...drift];
    e.size += bytes;
    this.total += bytes;
    this.order.grew(at, bytes);
    while (this.count > 1 && this.total > this.limits.bytes) this.dropOwn();
    return true;
  }

  /** Lets its oldest entry go for its own bounds. */
  private dropOwn(): void {
    this.lostOldest(this.order.remove(this.order.oldest(this)));
  }

  /** Its oldest entry has gone (its own bounds, or the shared budget). */
  lostOldest(size: number): void {
    this.count--;
    this.total -= size;
    this.firstId++;
    this.dropped++;
  }

  holds(id: number): boolean {
    return this.count > 0 && id >= this.firstId && id < this.nextId;
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

  /** The matching stored entries, oldest first: from just after `after`, and the newest `limit` of them when set. */
  private select(filter: JournalFilter): StoredEntry[] {
    if (this.count === 0) return [];
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
    const entries = this.order.entriesOf(this, filter.after);
    const out: StoredEntry[] = [];
    const limit = filter.limit ?? Infinity;
    if (limit === Infinity) {
      for (const e of entries) if (matches(e)) out.push(e);
      return out;
    }
    for (let i = entries.length - 1; i >= 0 && out.length < limit; i--) if (matches(entries[i])) out.push(entries[i]);
    return out.reverse();
  }

  /** One entry by id, redacted; undefined once it has left the journal. */
  get(id: number): JournalEntry | undefined {
    const at = this.holds(id) ? this.order.find(this, id) : -1;
    return at < 0 ? undefined : shown(this.order.entryAt(at), this.secrets?.());
  }

  clear(): number {
    const n = this.count;
    if (n > 0) for (const at of this.order.positions(this)) this.order.remove(at);
    this.count = 0;
    this.total = 0;
    this.dropped = 0;
    return n;
  }
}
