// Reading the mock clock: what "now" is in a clock state (frozen point, offset, rate) over a base time source.
import type { ClockState } from '../schemas/index.js';

/** Real time in epoch ms (Date.now, or a test's own source). */
export type TimeSource = () => number;

/** The first instant a datetime holds (pydantic refuses year 0). */
export const MIN_TIMESTAMP_MS = Date.parse('0001-01-01T00:00:00.000Z');
/** The mock clock stops a year short of the last datetime, so the mock's own lifetimes (30 days at most) stay in range. */
export const MAX_CLOCK_MS = Date.parse('9999-01-01T00:00:00.000Z');

/**
 * The last frozen point parsed and the last instant formatted. One is shared by the readings of a store (each
 * transaction reads the clock through a reading of its own), so a write does not parse and format the same instant
 * anew: every request reads the clock, and a frozen clock always reads the same instant. Pure by value, never stale.
 */
export class TimeMemo {
  private parsed = { iso: '', ms: NaN };
  private formatted = { ms: NaN, iso: '' };

  /** Epoch ms of a valid ISO datetime. */
  msOf(iso: string): number {
    if (this.parsed.iso !== iso) this.parsed = { iso, ms: Date.parse(iso) };
    return this.parsed.ms;
  }

  /** The ISO datetime of epoch ms `ms`. */
  isoOf(ms: number): string {
    if (this.formatted.ms !== ms) this.formatted = { ms, iso: new Date(ms).toISOString() };
    return this.formatted.iso;
  }
}

/**
 * "Now" in the clock state `holder` holds: the stored state (reads), or a transaction (writes: its own view, so a
 * write run again after others moved the clock reads the moved clock).
 */
export class ClockReading {
  /**
   * The last frozen point and its instant, kept in the reading itself: every request reads its mock's clock, and a
   * sandbox's reading is found with the sandbox, where the memo is one object and its pair another to reach.
   */
  private frozenIso = '';
  private frozenMs = NaN;

  constructor(
    readonly source: TimeSource,
    private readonly holder: { readonly clock: ClockState },
    private readonly memo = new TimeMemo(),
  ) {}

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
    if (s.frozen_at !== this.frozenIso) {
      this.frozenMs = this.memo.msOf(s.frozen_at);
      this.frozenIso = s.frozen_at;
    }
    return this.frozenMs;
  }

  nowIso(): string {
    return this.memo.isoOf(this.nowMs());
  }
}
