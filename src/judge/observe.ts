// What the client report needs to know of each request, noted as it happens: who sent it, which credentials (as keyed
// fingerprints, never the values), how many of that principal's requests were in flight, and the reason it got.
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { ReadView } from '../storage/index.js';
import { authorizationOf } from '../bearer.js';
import type { ClientFacts } from '../control/index.js';
import { slipsOf } from './slips.js';

/** What arrive() hands to depart(). */
export interface Arrival {
  principal: string | null;
  access?: string;
  inFlight: number;
  key: string | null;
}

/** How many credentials' fingerprints the server keeps for reuse (all its mocks together: the table is bounded once). */
const RECENT = 1024;

/**
 * Keyed fingerprints of credentials, one key for every mock of a server: a fingerprint never leaves the process (the
 * journal keeps it for the client report and never shows it) and each mock's report reads only its own journal, so
 * one key serves them all as well as one each would, and a sandbox holds no key of its own. The key is made at the
 * first credential seen.
 */
export class Fingerprints {
  private key: Buffer | undefined;
  /** Of the credentials seen lately: a client sends the same token on every request (an HMAC each costs). */
  private readonly recent = new Map<string, string>();

  /** The first 16 base64url characters of the HMAC: its first 12 bytes, written as a string of their own. */
  of(secret: string): string {
    const known = this.recent.get(secret);
    if (known !== undefined) return known;
    const made = createHmac('sha256', (this.key ??= randomBytes(32)))
      .update(secret)
      .digest()
      .toString('base64url', 0, 12);
    // Bounded: past RECENT credentials the table starts again (held in memory only, never written anywhere).
    if (this.recent.size >= RECENT) this.recent.clear();
    this.recent.set(secret, made);
    return made;
  }
}

/** What depart() reads of a request and its answer (a Koa context's, or the fast path's). */
export interface Departure {
  headers: IncomingHttpHeaders;
  path: string;
  /** The operation that answered (undefined: none). */
  operation: unknown;
  /** The answer's body before it is written out (an object for JSON). */
  answer: unknown;
  /** The raw request body a signature check kept, if any. */
  rawBody: Buffer | string | undefined;
  /** The parsed request body, if read. */
  requestBody: unknown;
}

/** What a request without a bearer token arrives as (shared: depart only reads it). */
const NO_ARRIVAL: Arrival = Object.freeze({ principal: null, inFlight: 0, key: null });

export class ClientObserver {
  /**
   * The first principal (or token) seen and its requests in flight, held in the observer itself: most clients of a
   * mock send one token, whose count is then found with the observer, without a map to reach. Never in `inFlight`.
   */
  private firstKey: string | null = null;
  private firstInFlight = 0;
  /** Requests in flight by every other principal; made at the second one seen (most mocks never make it). */
  private inFlight: Map<string, number> | undefined;

  constructor(
    private readonly view: ReadView,
    /** The server's (shared by its mocks). */
    private readonly fingerprints: Fingerprints,
  ) {}

  /** At arrival (`auth`: the Authorization header): the bearer token's principal, and one more in flight for it. */
  arrive(auth: string | undefined): Arrival {
    const token = auth === undefined ? undefined : authorizationOf(auth).reported;
    if (!token) return NO_ARRIVAL;
    const access = this.fingerprints.of(token);
    const principal = this.view.get('access_tokens', token)?.principal_id ?? null;
    const key = principal ?? `token:${access}`;
    if (this.firstKey === null) this.firstKey = key;
    let n: number;
    if (key === this.firstKey) n = ++this.firstInFlight;
    else {
      const inFlight = (this.inFlight ??= new Map());
      n = (inFlight.get(key) ?? 0) + 1;
      inFlight.set(key, n);
    }
    return { principal, access, inFlight: n, key };
  }

  /** When the answer is ready (before the journal writes it out): the grant presented and the reason answered. */
  depart(d: Departure, a: Arrival): ClientFacts {
    this.leave(a);
    // Made whole at once when a token was presented: a field added later lives in a second array (40 bytes an entry).
    const facts: ClientFacts = a.access ? { principal: a.principal, access: a.access, inFlight: a.inFlight } : { principal: a.principal, inFlight: a.inFlight };
    const body = d.answer as { detail?: { reason_code?: unknown }; error?: unknown } | undefined;
    const reason = body && typeof body === 'object' ? (body.detail?.reason_code ?? body.error) : undefined;
    if (typeof reason === 'string') facts.reason = reason;
    if (d.operation === 'exchangeToken') this.grant(d.requestBody, facts);
    const raw = d.rawBody;
    const slips = slipsOf({
      v3: typeof d.operation === 'string' && d.path.startsWith('/api/v3/'),
      contentType: d.headers['content-type'] || undefined,
      authorization: d.headers.authorization || undefined,
      body: raw === undefined || raw.length === 0 ? null : raw.toString(),
    });
    if (slips.length > 0) facts.slips = slips;
    return facts;
  }

  /** The request is no longer in flight (depart does this; a request handed on to be answered elsewhere calls it alone). */
  leave(a: Arrival): void {
    if (a.key === null) return;
    if (a.key === this.firstKey) {
      if (this.firstInFlight > 0) this.firstInFlight--;
    } else if (this.inFlight) {
      // Kept at zero rather than deleted: a client's next request finds its slot (a Map that deletes and adds a key
      // per request keeps rehashing). Bounded: past RECENT keys the idle ones go.
      const n = (this.inFlight.get(a.key) ?? 1) - 1;
      this.inFlight.set(a.key, n > 0 ? n : 0);
      if (n <= 0 && this.inFlight.size > RECENT) for (const [k, v] of this.inFlight) if (v === 0) this.inFlight.delete(k);
    }
  }

  private grant(requestBody: unknown, facts: ClientFacts): void {
    const b = requestBody as Record<string, unknown> | undefined;
    if (!b || typeof b !== 'object') return;
    if (typeof b.grant_type === 'string') facts.grant = b.grant_type;
    if (typeof b.refresh_token === 'string') {
      facts.refresh = this.fingerprints.of(b.refresh_token);
      facts.principal ??= this.view.get('refresh_tokens', b.refresh_token)?.principal_id ?? null;
    }
    if (typeof b.code === 'string') {
      facts.code = this.fingerprints.of(b.code);
      facts.principal ??= this.view.get('authorization_codes', b.code)?.principal_id ?? null;
    }
  }
}
