// Sends shadow requests to the target off the request's path: a fixed-size queue, a cap on requests in flight, a rate.
import type { ShadowSettings } from './options.js';
import { TargetHealth } from './target-health.js';
import { MAX_ANSWER_BYTES, fetchTransport, type TargetAnswer, type Transport } from './transport.js';
import { workerTransport } from './worker-transport.js';
import type { Refusal } from '../control/index.js';

export type { TargetAnswer } from './transport.js';

/** One request to send, and what to do with the outcome. */
export interface ShadowJob {
  method: string;
  /** Path and query, as the mock saw them (a sandbox's prefix already taken off). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  answered(answer: TargetAnswer): void;
  unreachable(): void;
}

/** Shared by every mock of a server: one target, one queue, one rate. */
export class ShadowSender {
  readonly health: TargetHealth;
  private readonly waiting: ShadowJob[] = [];
  private inFlight = 0;
  private tokens: number;
  private refilledMs: number;
  private scheduled = false;
  private idle: (() => void)[] = [];
  private readonly transport: Transport;

  constructor(
    private readonly settings: ShadowSettings,
    log: (line: string) => void,
    shownUrl: string,
  ) {
    this.health = new TargetHealth(shownUrl, log, settings.now, settings.retryMs);
    this.tokens = settings.ratePerSecond;
    this.transport = settings.fetch ? fetchTransport(settings.fetch) : workerTransport(settings.concurrency, MAX_ANSWER_BYTES);
    this.refilledMs = settings.now();
  }

  /** Lets go of the transport (its worker and connections); the server is closing. */
  close(): Promise<void> {
    return this.transport.close();
  }

  /** Requests queued or in flight. */
  get pending(): number {
    return this.waiting.length + this.inFlight;
  }

  /**
   * Whether one more request may be sent now (a slot in the queue, the target not known down, a token of the rate; the
   * token is taken), or why not. Checked before the request is built, so a dropped one costs no more than this.
   */
  admit(): Refusal | null {
    if (this.waiting.length >= this.settings.queue) return 'queue_full';
    if (!this.health.mayTry()) {
      this.health.missed();
      return 'target_down';
    }
    return this.takeToken() ? null : 'rate_limited';
  }

  /** Queues an admitted request: started on a later turn of the event loop, never inside the caller's. */
  submit(job: ShadowJob): void {
    this.waiting.push(job);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.pump();
      });
    }
  }

  /** Resolves once nothing is queued or in flight. */
  settled(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private takeToken(): boolean {
    const now = this.settings.now();
    const rate = this.settings.ratePerSecond;
    this.tokens = Math.min(rate, this.tokens + ((now - this.refilledMs) / 1000) * rate);
    this.refilledMs = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private pump(): void {
    while (this.inFlight < this.settings.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.inFlight++;
      void this.send(job).finally(() => {
        this.inFlight--;
        this.pump();
        if (this.pending === 0) for (const resolve of this.idle.splice(0)) resolve();
      });
    }
  }

  private async send(job: ShadowJob): Promise<void> {
    const { settings } = this;
    let answer: TargetAnswer;
    try {
      const url = new URL(job.target, settings.url);
      answer = await this.transport.send({ url, method: job.method, headers: job.headers, body: job.body, timeoutMs: settings.timeoutMs });
    } catch (err) {
      this.health.missed(reasonOf(err));
      job.unreachable();
      return;
    }
    this.health.answered();
    job.answered(answer);
  }
}

/** A failure's code (ECONNREFUSED, TimeoutError), never its message: a message may quote a URL or header. */
function reasonOf(err: unknown): string {
  const e = err as { name?: string; code?: unknown; errors?: { code?: unknown }[]; cause?: { code?: unknown; name?: string; errors?: { code?: unknown }[] } };
  // Only a string code names a failure: a DOMException's is a legacy number (23 for the TimeoutError of an aborted fetch).
  const code = [e?.cause?.code, e?.code, e?.cause?.errors?.[0]?.code, e?.errors?.[0]?.code].find((c): c is string => typeof c === 'string');
  return code ?? (e?.name === 'TypeError' ? (e.cause?.name ?? 'fetch failed') : (e?.name ?? 'error'));
}
