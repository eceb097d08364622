// The mock clock: real time by default, frozen or offset on request; every timestamp the mock writes comes from it.
import type { ClockState } from '../schemas/state.js';
import { invalid } from '../validation.js';
import { ClockReading, MAX_CLOCK_MS, MIN_TIMESTAMP_MS, type TimeSource } from '../storage/clock.js';
import type { Transaction } from '../storage/transaction.js';

export { MAX_CLOCK_MS, MIN_TIMESTAMP_MS, type TimeSource } from '../storage/clock.js';

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
 * The mock clock: its reading (see ClockReading) and the states a control move leads to. Over the stored state it
 * answers reads; a write reads and moves the clock of its own transaction (`MockClock.of(tx)`, `tx.now()`).
 */
export class MockClock {
  private readonly reading: ClockReading;
  constructor(
    private readonly source: TimeSource,
    /** Where the clock state is held: the store (reads), or a transaction (writes). */
    holder: { readonly clock: ClockState },
  ) {
    this.reading = new ClockReading(source, holder);
  }

  /** The same clock read through a transaction: what a write reads and moves (a rerun sees others' moves). */
  static of(tx: Transaction): MockClock {
    return new MockClock(tx.time.source, tx);
  }

  private state(): ClockState {
    return this.reading.state;
  }

  nowMs(): number {
    return this.reading.nowMs();
  }

  /** What the clock would read in state `s` (the simulation computes where a clock move lands before it is stored). */
  nowMsOf(s: ClockState): number {
    return this.reading.nowMsOf(s);
  }

  nowIso(): string {
    return this.reading.nowIso();
  }

  /**
   * The state after `advance_ms`: a frozen clock moves its frozen point, a running one its offset. The clock never
   * leaves 0001-01-01 .. 9999-01-01: a larger step is a 422 at ["body", "advance_ms"] naming the bound.
   */
  advanced(ms: number): ClockState {
    const now = this.nowMs();
    if (ms > MAX_CLOCK_MS - now) throw invalid(['body', 'advance_ms'], '', 'less_than_equal', ms, { le: MAX_CLOCK_MS - now });
    if (ms < MIN_TIMESTAMP_MS - now) throw invalid(['body', 'advance_ms'], '', 'greater_than_equal', ms, { ge: MIN_TIMESTAMP_MS - now });
    const s = this.state();
    return s.frozen_at
      ? { ...s, frozen_at: new Date(Date.parse(s.frozen_at) + ms).toISOString(), offset_ms: s.offset_ms }
      : { ...s, frozen_at: null, offset_ms: s.offset_ms + ms };
  }

  /** The state that freezes the clock at `iso` (a valid datetime; past 9999-01-01 is a 422 at ["body", "now"]); a rate is kept for when it runs again. */
  frozenAt(iso: string): ClockState {
    const ms = Date.parse(iso);
    if (ms > MAX_CLOCK_MS) throw invalid(['body', 'now'], 'The mock clock stops at 9999-01-01T00:00:00.000Z', 'value_error', iso);
    const s = this.state();
    return { frozen_at: new Date(ms).toISOString(), offset_ms: 0, ...(s.rate !== undefined ? { rate: s.rate } : {}) };
  }

  /** The same clock at another rate; a running clock goes on from the present instant, without a jump. */
  withRate(rate: number): ClockState {
    const s = this.state();
    if (s.frozen_at) return { ...s, rate };
    const now = this.nowMs();
    const anchor = this.source();
    return { frozen_at: null, offset_ms: Math.round(now - anchor), rate, anchor_ms: anchor };
  }

  /** A clock that runs from `ms` on, at the current rate. */
  runningFrom(ms: number): ClockState {
    const anchor = this.source();
    const rate = this.state().rate;
    return { frozen_at: null, offset_ms: Math.round(ms - anchor), ...(rate !== undefined ? { rate, anchor_ms: anchor } : {}) };
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

export const isoAfter = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();
