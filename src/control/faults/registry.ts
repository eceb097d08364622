// Fault injection: per-instance rules that answer matching v3 requests with a status, a wait, a 429 or a broken
// connection; matched through an index, fired by `after`, `probability` and `times`, N times or until cleared.
import { randomUUID } from 'node:crypto';
import { compileGlob, type GlobMatcher } from '../../glob.js';
import type { FaultBody, FaultRequest } from '../../schemas/index.js';
import type { TransportKind } from '../../schemas/index.js';
import { FaultIndex } from './lookup.js';
import { compileMatch, type MatchTest, type RequestFacts } from './match.js';
import { RateWindow, retryAfterSeconds, type RateWindowState } from './rate-limit.js';
import { FaultDraws, pastAfter } from './timing.js';
import { FAULT_LIMITS, checkFaultRoom, faultBytes, type FaultLimits } from './limits.js';

/** What POST /_mock/faults takes (see the schema for each field). */
export type FaultSpec = FaultRequest;

export interface Fault extends FaultBody {
  id: string;
  /** Firings left (null = until cleared). */
  remaining: number | null;
  /** How many requests it has fired on. */
  hits: number;
  /** How many requests matched it (fired or not: `after` skips and `probability` misses count here). */
  matched: number;
}

/** A fault as it is kept in a snapshot: its rate-limit window too. */
export interface FaultSnapshot extends Fault {
  window?: RateWindowState;
}

/** The registry's whole state: what snapshot() answers and restore() takes. */
export interface FaultState {
  /** The number the next fault's id gets. */
  next_id: number;
  faults: FaultSnapshot[];
}

/** What a fault does to one request. */
export interface FaultDecision {
  fault: Fault;
  /** The wait before anything else, drawn when the fault has a distribution. */
  delay_ms?: number;
  status?: number;
  /** A rate limit that is over: seconds for Retry-After. */
  retry_after_s?: number;
  transport?: TransportKind;
}

interface Entry {
  seq: number;
  method: string;
  path: string;
  operation?: string;
  fault: Fault;
  glob: GlobMatcher;
  test: MatchTest | null;
  window: RateWindow | null;
  removed: boolean;
  /** What it counts against the byte bound (limits.ts). */
  bytes: number;
}

const NO_FAULTS: FaultState = Object.freeze({ next_id: 1, faults: Object.freeze([]) as unknown as FaultState['faults'] });

/**
 * The faults held by every mock of one server, counted together: while it is 0 a request needs no fault lookup, so
 * the server reads this one shared count rather than its mock's registry (each sandbox has its own).
 */
export class FaultTally {
  held = 0;
}

export class FaultRegistry {
  private entries: Entry[] = [];
  private readonly index = new FaultIndex<Entry>();
  private counter = 0;
  private added = 0;
  private made: FaultDraws | undefined;
  /** The bytes of the faults held, as limits.ts counts them. */
  private bytes = 0;
  /** How many of them the tally counts (those indexed). */
  private tallied = 0;

  constructor(
    /** Seeds the draws of `probability` and delay distributions (from createApp's seed; undefined: a random one). */
    private readonly seed: string | undefined,
    /** The mock clock (rate limits count on it). */
    private readonly clock: { nowMs(): number },
    /** Its count and byte bound (limits.ts). */
    readonly limits: FaultLimits = FAULT_LIMITS,
    /** The server's count of faults held by all its mocks (its own, when the registry stands alone). */
    private readonly tally: FaultTally = new FaultTally(),
  ) {}

  /** Indexes the faults held, and counts them in the tally: every change to the faults ends here. */
  private reindex(): void {
    this.tally.held += this.entries.length - this.tallied;
    this.tallied = this.entries.length;
    this.index.rebuild(this.entries);
  }

  /**
   * Made at the first draw: most mocks (sandboxes) never draw. A random seed drawn then is as random as one drawn at
   * start, and a seeded mock's draws depend only on its seed and what they decide (see FaultDraws).
   */
  private get draws(): FaultDraws {
    return (this.made ??= new FaultDraws(this.seed ?? randomUUID()));
  }

  /**
   * Adds a validated fault (validate.ts); it applies from the next request on. 409 `fault_limit` past the count or
   * byte bound (limits.ts), and nothing changes: not even the id counter.
   */
  add(spec: FaultBody): Fault {
    const fault: Fault = { ...spec, method: spec.method.toUpperCase(), id: `flt_${this.counter + 1}`, remaining: spec.times ?? null, hits: 0, matched: 0 };
    const entry = this.entry(fault);
    checkFaultRoom(this.limits, this.entries.length + 1, this.bytes + entry.bytes);
    this.counter++;
    this.hold(entry);
    this.reindex();
    return { ...fault };
  }

  private hold(e: Entry): void {
    this.entries.push(e);
    this.bytes += e.bytes;
  }

  /** Whether a snapshot's faults fit the bounds (a bundle is checked before anything of it is restored). */
  fits(state: FaultState): boolean {
    let bytes = 0;
    for (const f of state.faults) bytes += faultBytes(f);
    return state.faults.length <= this.limits.count && bytes <= this.limits.bytes;
  }

  private entry(fault: FaultSnapshot): Entry {
    const { window, ...rest } = fault;
    const rl = rest.rate_limit;
    return {
      seq: ++this.added,
      method: rest.method,
      path: rest.path,
      operation: rest.match?.operation,
      fault: rest,
      glob: compileGlob(rest.path),
      test: compileMatch(rest.match),
      window: rl ? new RateWindow(rl.requests, rl.per_ms, window) : null,
      removed: false,
      bytes: faultBytes(rest),
    };
  }

  list(): Fault[] {
    return this.entries.map((e) => ({ ...e.fault }));
  }

  /** The faults with their remaining counts and rate-limit windows, as plain JSON (a repro bundle keeps it). */
  snapshot(): FaultState {
    // A mock that never had a fault (most sandboxes) keeps the one shared, frozen "none" in its session's start.
    if (this.counter === 0 && this.entries.length === 0) return NO_FAULTS;
    return { next_id: this.counter + 1, faults: this.entries.map((e) => (e.window ? { ...e.fault, window: e.window.state() } : { ...e.fault })) };
  }

  /**
   * Replaces every fault with those of a snapshot, remaining counts and windows included; new ids continue from its
   * `next_id`. 409 `fault_limit` when they pass the bounds, and nothing changes.
   */
  restore(state: FaultState): void {
    const entries = state.faults.map((f) => this.entry({ ...f }));
    checkFaultRoom(
      this.limits,
      entries.length,
      entries.reduce((n, e) => n + e.bytes, 0),
    );
    this.clear();
    for (const e of entries) this.hold(e);
    this.counter = state.next_id - 1;
    this.reindex();
  }

  clear(): number {
    const n = this.entries.length;
    for (const e of this.entries) e.removed = true;
    this.entries = [];
    this.bytes = 0;
    this.reindex();
    return n;
  }

  /** The faults that could match (by method, operation and path shape), oldest first; most requests get none. */
  candidates(method: string, path: string, operation?: string | null): readonly Entry[] {
    return this.index.candidates(method, path, operation);
  }

  /** Whether any candidate needs the request body read first. */
  needsBody(candidates: readonly Entry[]): boolean {
    return candidates.some((e) => e.fault.match?.body !== undefined);
  }

  /**
   * The first candidate that matches and fires, consumed by one use (exhausted faults disappear). Synchronous, so
   * concurrent requests each see the counts the previous one left: `times: 5` fires exactly five times.
   */
  fire(candidates: readonly Entry[], facts: RequestFacts): FaultDecision | undefined {
    for (const e of candidates) {
      if (e.removed || !e.glob.test(facts.path) || (e.test && !e.test(facts))) continue;
      const f = e.fault;
      f.matched++;
      let retry: number | null = null;
      if (e.window) {
        retry = e.window.admit(this.clock.nowMs());
        if (retry === null) continue;
      } else if (!pastAfter(f.matched, f.after) || !this.draws.fires(f.id, f.matched, f.probability)) {
        continue;
      }
      f.hits++;
      if (f.remaining !== null && --f.remaining <= 0) this.remove(e);
      const decision: FaultDecision = { fault: { ...f } };
      const delay = this.draws.delay(f.id, f.matched, f.delay_ms);
      if (delay !== undefined) decision.delay_ms = delay;
      if (retry !== null) {
        decision.status = 429;
        decision.retry_after_s = retryAfterSeconds(retry);
      } else if (f.status !== undefined) decision.status = f.status;
      if (f.transport) decision.transport = f.transport;
      return decision;
    }
    return undefined;
  }

  private remove(e: Entry): void {
    e.removed = true;
    this.bytes -= e.bytes;
    this.entries = this.entries.filter((x) => x !== e);
    this.reindex();
  }
}
