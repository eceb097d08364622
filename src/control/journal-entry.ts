// A journal entry as held: what a run of alike requests shares in one object, and each entry's own id, times and size.
import type { KeptBody } from './journal-text.js';
import type { DriftItem } from '../schemas/index.js';
import { shared } from './journal-share.js';
import type { ClientFacts, FaultMarker, JournalRecord, Stored } from './journal-types.js';

/**
 * What consecutive requests hold alike: a client polling one route sends the same request and gets the same answer,
 * so a run of entries keeps one of these. Entries outlive many requests (the journals keep thousands): each field an
 * entry holds for itself is copied and promoted by the collector, once per request.
 */
class Alike {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly querystring: string,
    readonly status: number,
    readonly operation: string | null,
    readonly requestHeaders: Record<string, unknown>,
    readonly requestBody: KeptBody | null,
    readonly responseHeaders: Record<string, unknown>,
    readonly responseBody: KeptBody | null,
    readonly fault: FaultMarker | undefined,
    readonly client: ClientFacts | undefined,
    readonly simulated: true | undefined,
  ) {}
}

/** `prev` when `r` holds the same values (headers and client facts compared by value), else a new one of `r`'s. */
function alikeOf(r: JournalRecord, prev: Alike | undefined): Alike {
  const requestHeaders = shared(prev?.requestHeaders, r.requestHeaders);
  const client = shared(prev?.client, r.client);
  if (
    prev !== undefined &&
    prev.path === r.path &&
    prev.status === r.status &&
    prev.responseBody === r.responseBody &&
    prev.requestHeaders === requestHeaders &&
    prev.client === client &&
    prev.method === r.method &&
    prev.querystring === r.querystring &&
    prev.operation === r.operation &&
    prev.requestBody === r.requestBody &&
    prev.responseHeaders === r.responseHeaders &&
    prev.fault === r.fault &&
    prev.simulated === r.simulated
  ) {
    return prev;
  }
  // An equal path is kept as the earlier text (one string for a run of polls of one route).
  const path = prev !== undefined && prev.path === r.path ? prev.path : r.path;
  return new Alike(
    r.method,
    path,
    r.querystring,
    r.status,
    r.operation,
    requestHeaders,
    r.requestBody,
    r.responseHeaders,
    r.responseBody,
    r.fault,
    client,
    r.simulated,
  );
}

/** What an entry let go holds until it is filled again: nothing of any request, so it keeps no body alive. */
const NOTHING = new Alike('', '', '', 0, null, {}, null, {}, null, undefined, undefined, undefined);

/**
 * A record as the journal holds it: its id, arrival, duration, size and drift, and the facts it shares with the entry
 * added before it (in its journal, or in any journal under a shared budget) when they are alike. An entry the order
 * lets go is filled again with a later request's record (see JournalBudget): the journals keep thousands of entries for
 * thousands of requests, and an object made per request and kept that long is copied and promoted by the collector.
 * So no reader outside the journal holds one: readers get copies (toJSON) or views made from it at once.
 */
export class StoredEntry implements Stored {
  atMs = 0;
  duration_ms = 0;
  drift: DriftItem[] | undefined = undefined;
  id = 0;
  size = 0;
  private alike = NOTHING;

  constructor(r: JournalRecord, id: number, size: number, prev?: StoredEntry) {
    this.fill(r, id, size, prev);
  }

  /** Holds `r` from now on, with its id and size (an entry let go, filled again, or a new one). */
  fill(r: JournalRecord, id: number, size: number, prev?: StoredEntry): this {
    this.atMs = r.atMs;
    this.duration_ms = r.duration_ms;
    this.drift = r.drift;
    this.id = id;
    this.size = size;
    this.alike = alikeOf(r, prev?.alike);
    return this;
  }

  /** Lets go of what it holds (its record's parts), kept only to be filled again. */
  empty(): void {
    this.alike = NOTHING;
    this.drift = undefined;
  }

  /** As JSON, the whole record with its id and size (the shared part's fields read into it). */
  toJSON(): Stored {
    const { id, size, atMs, method, path, querystring, status, duration_ms, operation, requestHeaders, requestBody } = this;
    const { responseHeaders, responseBody, fault, drift, client, simulated } = this;
    return {
      id,
      size,
      atMs,
      method,
      path,
      querystring,
      status,
      duration_ms,
      operation,
      requestHeaders,
      requestBody,
      responseHeaders,
      responseBody,
      fault,
      drift,
      client,
      simulated,
    };
  }

  get method(): string {
    return this.alike.method;
  }
  get path(): string {
    return this.alike.path;
  }
  get querystring(): string {
    return this.alike.querystring;
  }
  get status(): number {
    return this.alike.status;
  }
  get operation(): string | null {
    return this.alike.operation;
  }
  get requestHeaders(): Record<string, unknown> {
    return this.alike.requestHeaders;
  }
  get requestBody(): KeptBody | null {
    return this.alike.requestBody;
  }
  get responseHeaders(): Record<string, unknown> {
    return this.alike.responseHeaders;
  }
  get responseBody(): KeptBody | null {
    return this.alike.responseBody;
  }
  get fault(): FaultMarker | undefined {
    return this.alike.fault;
  }
  get client(): ClientFacts | undefined {
    return this.alike.client;
  }
  get simulated(): true | undefined {
    return this.alike.simulated;
  }
}
