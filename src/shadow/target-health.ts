// Whether the shadow target answers: a notice when it goes down, at most one a minute while it stays down, one when it is back.

/** While the target is down, a notice is written at most this often (real time). */
export const NOTICE_INTERVAL_MS = 60_000;

export interface TargetView {
  state: 'unknown' | 'up' | 'down';
  since: string | null;
  last_error: string | null;
  notices: number;
}

export class TargetHealth {
  private state: TargetView['state'] = 'unknown';
  private sinceMs: number | null = null;
  private lastError: string | null = null;
  private notices = 0;
  private lastNoticeMs = 0;
  private lastTryMs = -Infinity;
  /** Requests not compared since the last notice, and since the target went down. */
  private missedSinceNotice = 0;
  private missedInOutage = 0;

  constructor(
    /** The target as it may be shown (no password). */
    private readonly url: string,
    private readonly log: (line: string) => void,
    private readonly now: () => number,
    /** While down, one request is tried this often. */
    private readonly retryMs: number,
  ) {}

  /** Whether a request may go to the target now: always while it answers; while down, one every `retryMs`. */
  mayTry(): boolean {
    if (this.state !== 'down') return true;
    const now = this.now();
    if (now - this.lastTryMs < this.retryMs) return false;
    this.lastTryMs = now;
    return true;
  }

  /** The target answered (any status): back up, with a notice if it was down. */
  answered(): void {
    if (this.state === 'down') {
      const seconds = Math.round((this.now() - this.sinceMs!) / 1000);
      this.notice(`shadow: target ${this.url} answers again after ${seconds} s down (${this.missedInOutage} requests were not compared)`);
    }
    if (this.state !== 'up') this.sinceMs = this.now();
    this.state = 'up';
  }

  /** A request failed to reach the target (`reason`: a code, never a header or body), or was not tried because it is down. */
  missed(reason?: string): void {
    const now = this.now();
    if (reason !== undefined) this.lastError = reason;
    this.missedSinceNotice++;
    this.missedInOutage++;
    if (this.state !== 'down') {
      if (reason === undefined) return; // only a failed request takes the target down
      this.state = 'down';
      this.sinceMs = now;
      this.lastTryMs = now;
      this.missedInOutage = 1;
      this.notice(`shadow: target ${this.url} is unreachable (${reason}); requests are not compared until it answers (notices at most once a minute)`);
      return;
    }
    if (now - this.lastNoticeMs >= NOTICE_INTERVAL_MS) {
      const since = new Date(this.sinceMs!).toISOString();
      this.notice(
        `shadow: target ${this.url} still unreachable since ${since} (${this.lastError}); ${this.missedSinceNotice} requests not compared in the last minute`,
      );
    }
  }

  private notice(line: string): void {
    this.notices++;
    this.lastNoticeMs = this.now();
    this.missedSinceNotice = 0;
    this.log(line);
  }

  view(): TargetView {
    return {
      state: this.state,
      since: this.sinceMs === null ? null : new Date(this.sinceMs).toISOString(),
      last_error: this.lastError,
      notices: this.notices,
    };
  }
}
