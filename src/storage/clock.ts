// Reading the mock clock: what "now" is in a clock state (frozen point, offset, rate) over a base time source.
import type { ClockState } from '../schemas/state.js';

/** Real time in epoch ms (Date.now, or a test's own source). */
export type TimeSource = () => number;

/** The first instant a datetime holds (pydantic refuses year 0). */
export const MIN_TIMESTAMP_MS = Date.parse('0001-01-01T00:00:00.000Z');
/** The mock clock stops a year short of the last datetime, so the mock's own lifetimes (30 days at most) stay in range. */
export const MAX_CLOCK_MS = Date.parse('9999-01-01T00:00:00.000Z');

const NOT_FORMATTED: { readonly ms: number; readonly iso: string } = { ms: NaN, iso: '' };

/**
 * "Now" in the clock state `holder` holds: the stored state (reads), or a transaction (writes: its own view, so a
 * write run again after others moved the clock reads the moved clock).
 */
export class ClockReading {
  constructor(
    readonly source: TimeSource,
    private readonly holder: { readonly clock: ClockState },
  ) {}

  private parsed: { iso: string; ms: number } | null = null;
  /** Replaced, never changed: every reading starts on the one shared "nothing formatted yet". */
  private formatted = NOT_FORMATTED;

  get state(): ClockState {
    return this.holder.clock;
  }

  nowMs(): number {
    return this.nowMsOf(this.holder.clock);
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

  nowIso(): string {
    const ms = this.nowMs();
    // A request formats "now" several times (each timestamp it writes), a frozen clock always the same one: format once per ms.
    if (ms !== this.formatted.ms) this.formatted = { ms, iso: new Date(ms).toISOString() };
    return this.formatted.iso;
  }
}
