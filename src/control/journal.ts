// The request journal: a bounded, per-instance record of the v3 traffic; entries are redacted whenever they are read.
import { compileGlob, isGlob } from './glob.js';
import { redactDeep, redactHeaders } from './redact.js';

export interface FaultMarker {
  id: string;
  /** The status the fault answered with (absent for a pure delay). */
  status?: number;
  delay_ms?: number;
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
  request: { headers: Record<string, unknown>; body: unknown };
  response: { headers: Record<string, unknown>; body: unknown };
  /** Present when an injected fault answered or delayed this request. */
  fault?: FaultMarker;
}

export interface JournalFilter {
  method?: string;
  /** A substring of the path, or a glob (`*` = one segment, `**` = any). */
  path?: string;
  /** An exact status (404) or a class ('4xx'). */
  status?: number | string;
}

export const JOURNAL_LIMIT = 1000;

/** A JSON body kept as the exact text that was sent; parsed only when the journal is read. */
export class JsonText {
  constructor(readonly text: string) {}
}

const bodyOf = (b: unknown): unknown => (b instanceof JsonText ? JSON.parse(b.text) : b);

export class Journal {
  private entries: JournalEntry[] = [];
  private nextId = 1;

  constructor(readonly limit = JOURNAL_LIMIT) {}

  add(entry: Omit<JournalEntry, 'id'>): JournalEntry {
    const full = { id: this.nextId++, ...entry };
    this.entries.push(full);
    // Dropping from the front in batches keeps add() O(1) amortised.
    if (this.entries.length > this.limit * 1.25) this.entries = this.entries.slice(-this.limit);
    return full;
  }

  /** Oldest first, at most `limit` entries (the newest ones). */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const method = filter.method?.toUpperCase();
    const path = filter.path;
    const pathRe = path && isGlob(path) ? compileGlob(path) : null;
    const status = filter.status === undefined ? undefined : String(filter.status).toLowerCase();
    const statusClass = status && /^[1-5]xx$/.test(status) ? status[0] : null;
    return this.entries
      .slice(-this.limit)
      .filter(
        (e) =>
          (!method || e.method === method) &&
          (!path || (pathRe ? pathRe.test(e.path) : e.path.includes(path))) &&
          (!status || (statusClass ? String(e.status)[0] === statusClass : String(e.status) === status)),
      )
      .map(redacted);
  }

  clear(): number {
    const n = Math.min(this.entries.length, this.limit);
    this.entries = [];
    return n;
  }
}

/** The entry as it may be shown: secret headers and secret fields at any depth replaced. */
function redacted(e: JournalEntry): JournalEntry {
  return {
    ...e,
    query: redactDeep({ ...e.query }) as Record<string, unknown>,
    request: { headers: redactHeaders(e.request.headers), body: redactDeep(e.request.body) },
    response: { headers: redactHeaders(e.response.headers), body: redactDeep(bodyOf(e.response.body)) },
  };
}
