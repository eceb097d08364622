// The mock clock: real time by default, frozen or offset on request; every timestamp the mock writes comes from it.
import type { ClockState } from '../schemas/index.js';
import { invalid } from '../validation.js';

/** The first instant a datetime holds (pydantic refuses year 0). */
export const MIN_TIMESTAMP_MS = Date.parse('0001-01-01T00:00:00.000Z');
/** The last instant a datetime holds: later ones are not four-digit ISO 8601 years, and the data file would refuse them. */
export const MAX_TIMESTAMP_MS = Date.parse('9999-12-31T23:59:59.999Z');
/** The mock clock stops a year short of MAX_TIMESTAMP_MS, so the mock's own lifetimes (30 days at most) stay in range. */
export const MAX_CLOCK_MS = Date.parse('9999-01-01T00:00:00.000Z');

/**
 * `ms` after `fromMs` as epoch ms, for a lifetime a client gave (`expires_in_ms`): past the last datetime it is a
 * 422 less_than_equal at `loc`, naming the largest value that fits.
 */
export function msAfter(fromMs: number, ms: number, loc: (string | number)[]): number {
  const le = MAX_TIMESTAMP_MS - fromMs;
  if (ms > le) throw invalid(loc, '', 'less_than_equal', ms, { le });
  return fromMs + ms;
}

export type TimeSource = () => number;

const NOT_FORMATTED: { readonly ms: number; readonly iso: string } = { ms: NaN, iso: '' };

/** Reads "now" from a base time source and the stored clock state (frozen point or offset). */
export class MockClock {
  constructor(
    private readonly source: TimeSource,
    /** Where the clock state is stored (the store). */
    private readonly stored: { readonly clock: ClockState },
  ) {}

  private state(): ClockState {
    return this.stored.clock;
  }

  private parsed: { iso: string; ms: number } | null = null;

  nowMs(): number {
    return this.nowMsOf(this.state());
  }

  /** What the clock would read in state `s` (the simulation computes where a clock move lands before it is stored). */
  nowMsOf(s: ClockState): number {
    if (!s.frozen_at) {
      // A sped-up clock: simulated time runs `rate` times as fast as real time since its anchor.
      const anchor = s.anchor_ms ?? 0;
      const ms = s.rate === undefined || s.rate === 1 ? this.source() + s.offset_ms : Math.floor(anchor + s.offset_ms + (this.source() - anchor) * s.rate);
      // A running clock keeps moving: it stops at the end of the range instead of leaving it.
      return Math.max(MIN_TIMESTAMP_MS, Math.min(MAX_CLOCK_MS, ms));
    }
    // Every request reads the clock; parse a frozen point once, not per call.
    if (this.parsed?.iso !== s.frozen_at) this.parsed = { iso: s.frozen_at, ms: Date.parse(s.frozen_at) };
    return this.parsed.ms;
  }

  /** Replaced, never changed: every clock starts on the one shared "nothing formatted yet". */
  private formatted = NOT_FORMATTED;

  nowIso(): string {
    const ms = this.nowMs();
    // A request formats "now" several times (each timestamp it writes), a frozen clock always the same one: format once per ms.
    if (ms !== this.formatted.ms) this.formatted = { ms, iso: new Date(ms).toISOString() };
    return this.formatted.iso;
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
