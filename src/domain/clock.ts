// The mock clock: real time by default, frozen or offset on request; every timestamp the mock writes comes from it.
import type { ClockState } from '../schemas/index.js';
import { invalid } from '../validation.js';
import { ClockReading, MAX_CLOCK_MS, MIN_TIMESTAMP_MS, type TimeSource } from '../storage/index.js';
import type { Transaction } from '../storage/index.js';

export { type TimeSource } from '../storage/index.js';

/** The last instant a datetime holds: later ones are not four-digit ISO 8601 years, and the data file would refuse them. */
export const MAX_TIMESTAMP_MS = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * `ms` after `fromMs` as epoch ms, for a lifetime a client gave (`expires_in_ms`): past the last datetime it is a
 * 422 less_than_equal at `loc`, naming the largest value that fits.
 */
export function msAfter(fromMs: number, ms: number, loc: (string | number)[]): number {
  const le = MAX_TIMESTAMP_MS - fromMs;
  if (ms > le) throw invalid(loc, '', 'less_than_equal', ms, { le });
  return fromMs + ms;
}

/**
 * The mock clock over the stored state: what answers and reads report as "now". It cannot move the clock: a move is
 * a write, made on the clock of its transaction (`MockClock.of(tx)`, `clockMove`).
 */
export class MockClock {
  private readonly reading: ClockReading;
  constructor(
    source: TimeSource,
    /** Where the clock state is held: the store, or a transaction. */
    holder: { readonly clock: ClockState },
  ) {
    this.reading = new ClockReading(source, holder);
  }

  /** The clock as transaction `tx` sees it: what a write reads and moves (run again, it sees others' moves). */
  static of(tx: Transaction): ClockInTransaction {
    return new ClockInTransaction(tx);
  }

  private state(): ClockState {
    return this.reading.state;
  }

  nowMs(): number {
    return this.reading.nowMs();
  }

  nowIso(): string {
    return this.reading.nowIso();
  }

  /** Simulated ms per real ms (undefined: 1). */
  get rate(): number | undefined {
    return this.state().rate;
  }

  get frozen(): boolean {
    return !!this.state().frozen_at;
  }

  /** Real milliseconds until the clock reads `ms` (Infinity for a frozen clock). */
  realMsUntil(ms: number): number {
    const s = this.state();
    if (s.frozen_at) return Infinity;
    return Math.max(0, (ms - this.nowMs()) / (s.rate ?? 1));
  }
}

/** The mock clock as one transaction sees it: its reads, and the states a move leads to (stored with `tx.setClock`). */
export class ClockInTransaction {
  private readonly read: MockClock;
  constructor(private readonly tx: Transaction) {
    this.read = new MockClock(tx.time.source, tx);
  }

  nowMs(): number {
    return this.read.nowMs();
  }
  nowIso(): string {
    return this.read.nowIso();
  }
  get frozen(): boolean {
    return this.read.frozen;
  }
  get rate(): number | undefined {
    return this.read.rate;
  }

  /**
   * The state after `advance_ms`: a frozen clock moves its frozen point, a running one its offset. The clock never
   * leaves 0001-01-01 .. 9999-01-01: a larger step is a 422 at ["body", "advance_ms"] naming the bound.
   */
  advanced(ms: number): ClockState {
    const now = this.read.nowMs();
    if (ms > MAX_CLOCK_MS - now) throw invalid(['body', 'advance_ms'], '', 'less_than_equal', ms, { le: MAX_CLOCK_MS - now });
    if (ms < MIN_TIMESTAMP_MS - now) throw invalid(['body', 'advance_ms'], '', 'greater_than_equal', ms, { ge: MIN_TIMESTAMP_MS - now });
    const s = this.tx.clock;
    return s.frozen_at
      ? { ...s, frozen_at: new Date(Date.parse(s.frozen_at) + ms).toISOString(), offset_ms: s.offset_ms }
      : { ...s, frozen_at: null, offset_ms: s.offset_ms + ms };
  }

  /** The state that freezes the clock at `iso` (a valid datetime; past 9999-01-01 is a 422 at ["body", "now"]); a rate is kept for when it runs again. */
  frozenAt(iso: string): ClockState {
    const ms = Date.parse(iso);
    if (ms > MAX_CLOCK_MS) throw invalid(['body', 'now'], 'The mock clock stops at 9999-01-01T00:00:00.000Z', 'value_error', iso);
    const s = this.tx.clock;
    return { frozen_at: new Date(ms).toISOString(), offset_ms: 0, ...(s.rate !== undefined ? { rate: s.rate } : {}) };
  }

  /** The same clock at another rate; a running clock goes on from the present instant, without a jump. */
  withRate(rate: number): ClockState {
    const s = this.tx.clock;
    if (s.frozen_at) return { ...s, rate };
    const now = this.read.nowMs();
    const anchor = this.tx.time.source();
    return { frozen_at: null, offset_ms: Math.round(now - anchor), rate, anchor_ms: anchor };
  }

  /** A clock that runs from `ms` on, at the current rate. */
  runningFrom(ms: number): ClockState {
    const anchor = this.tx.time.source();
    const rate = this.tx.clock.rate;
    return { frozen_at: null, offset_ms: Math.round(ms - anchor), ...(rate !== undefined ? { rate, anchor_ms: anchor } : {}) };
  }
}

/** The mock clock as /_mock/clock answers it: what it reads, and the state it reads from. */
export interface ClockView {
  now: string;
  frozen_at: string | null;
  offset_ms: number;
}

/** The clock as `reader` holds it, read now: a write passes its transaction (its own move included), a read the store's view. */
export function clockView(reader: { readonly clock: ClockState; now(): string }): ClockView {
  const c = reader.clock;
  return { now: reader.now(), frozen_at: c.frozen_at ?? null, offset_ms: c.offset_ms ?? 0 };
}

/**
 * A transaction that moves the mock clock to what `move` answers for the clock as the transaction sees it (nothing
 * when it answers undefined): run again after others moved the clock, it moves on from where they left it.
 */
export function clockMove(move: (clock: ClockInTransaction) => ClockState | undefined): (tx: Transaction) => ClockState | undefined {
  return (tx) => {
    const next = move(MockClock.of(tx));
    if (next !== undefined) tx.setClock(next);
    return next;
  };
}
