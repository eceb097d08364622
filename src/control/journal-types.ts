// The journal's record shapes: what an entry holds, how it is filtered, and its limits.
import type { KeptBody } from './journal-text.js';
import type { DriftItem } from '../schemas/index.js';

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

export type JournalEntry = {
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
  /** Present when shadow mode found the target's answer to this request different: `{field, mock, target}`, bounded. */
  drift?: DriftItem[];
  /** Present when the request made a slip the answer does not name (a JSON body sent as text, ...): the cause and the fix. */
  findings?: { rule: string; fix: string }[];
  /** Present on what the simulation sent itself (its synthetic chat traffic), never on a client's request. */
  simulated?: true;
};

/** The header a test names itself with, so the journal (and the inspector's waterfall) can show one test's requests. */
export const TEST_NAME_HEADER = 'x-test-name';
/** A test's name is cut to this many characters. */
export const TEST_NAME_LENGTH = 200;

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
  /** Only entries with a greater id (a poller passes the last id it saw): costs what entries added since cost, not the journal. */
  after?: number;
  /** At most this many: the newest of the matching entries (still oldest first). */
  limit?: number;
  /** true: only the simulation's own traffic; false: only clients' requests. */
  simulated?: boolean;
  /** Only the requests of this principal (by its id). */
  principal?: string;
  /** Only the requests that named this test (`X-Test-Name`). */
  test?: string;
}

/**
 * An entry without its query, headers and bodies: what a list of requests shows, cheap to poll; with whose it was when
 * known (the principal its credentials belong to, the test its `X-Test-Name` header named, cut to 200 characters).
 */
export type JournalSummary = Pick<JournalEntry, 'id' | 'at' | 'method' | 'path' | 'status' | 'duration_ms' | 'operation' | 'fault' | 'simulated'> & {
  principal?: string;
  test?: string;
};

/** How much the journal keeps: entries, bytes in all, bytes per body. */
export interface JournalLimits {
  /** The newest this many entries (default 1000). */
  entries?: number;
  /** At most this many bytes in all, counted as characters of text (default 8 MiB); the oldest entries go first. */
  bytes?: number;
  /** Each body is cut to this many UTF-8 bytes, with a marker (default 16 KiB). */
  bodyBytes?: number;
}

export const JOURNAL_LIMITS = Object.freeze({ entries: 1000, bytes: 8 * 1024 * 1024, bodyBytes: 16 * 1024 } as const);

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
  /** The slips the request made (a rule of the client report each, with its fix), spotted as it arrived. */
  slips?: { rule: string; fix: string }[];
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
  requestBody: KeptBody | null;
  responseHeaders: Record<string, unknown>;
  responseBody: KeptBody | null;
  fault?: FaultMarker;
  /** What shadow mode found, added once the target answered (already redacted and bounded). */
  drift?: DriftItem[];
  /** What the client report reads (src/judge notes it); never shown. */
  client?: ClientFacts;
  /** The simulation's own traffic (a synthetic chat message), not a client's request. */
  simulated?: true;
}

/** A record as the journal holds it. */
export interface Stored extends JournalRecord {
  id: number;
  size: number;
}
