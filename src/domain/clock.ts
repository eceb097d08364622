// The mock clock: real time by default, frozen or offset on request; every timestamp the mock writes comes from it.
import type { ClockState } from '../schemas/state.js';

export type TimeSource = () => number;

/** Reads "now" from a base time source and the stored clock state (frozen point or offset). */
export class MockClock {
  constructor(
    private readonly source: TimeSource,
    private readonly state: () => ClockState,
  ) {}

  private parsed: { iso: string; ms: number } | null = null;

  nowMs(): number {
    const s = this.state();
    if (!s.frozen_at) return this.source() + s.offset_ms;
    // Every request reads the clock; parse a frozen point once, not per call.
    if (this.parsed?.iso !== s.frozen_at) this.parsed = { iso: s.frozen_at, ms: Date.parse(s.frozen_at) };
    return this.parsed.ms;
  }

  nowIso(): string {
    return new Date(this.nowMs()).toISOString();
  }

  /** The state after `advance_ms`: a frozen clock moves its frozen point, a running one its offset. */
  advanced(ms: number): ClockState {
    const s = this.state();
    return s.frozen_at
      ? { frozen_at: new Date(Date.parse(s.frozen_at) + ms).toISOString(), offset_ms: s.offset_ms }
      : { frozen_at: null, offset_ms: s.offset_ms + ms };
  }

  /** The state that freezes the clock at `iso`. */
  frozenAt(iso: string): ClockState {
    return { frozen_at: new Date(Date.parse(iso)).toISOString(), offset_ms: 0 };
  }
}

export const isoAfter = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();
