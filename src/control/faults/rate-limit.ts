// A rate limit on the mock clock: the admitted requests of the last `per_ms`, at most `requests` of them kept.

/** The window's state as plain JSON (a snapshot keeps it). */
export type RateWindowState = number[];

export class RateWindow {
  /** Mock-clock times of the admitted requests still in the window, oldest first (never more than `requests`). */
  private times: number[];

  constructor(
    private readonly requests: number,
    private readonly perMs: number,
    state: RateWindowState = [],
  ) {
    this.times = state.slice(-requests);
  }

  /**
   * Admits a request at `now` (recording it) and answers null, or answers how many ms until one place frees up when
   * `requests` admitted requests already lie within the last `per_ms` (that request is not recorded).
   */
  admit(now: number): number | null {
    const from = now - this.perMs;
    let drop = 0;
    while (drop < this.times.length && this.times[drop] <= from) drop++;
    if (drop) this.times.splice(0, drop);
    if (this.times.length < this.requests) {
      this.times.push(now);
      return null;
    }
    return Math.max(1, this.times[0] + this.perMs - now);
  }

  state(): RateWindowState {
    return [...this.times];
  }
}

/** Retry-After in whole seconds, rounded up so a client that waits that long finds the window open. */
export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
