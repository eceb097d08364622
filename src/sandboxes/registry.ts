// The registry of sandboxes: whole mocks built on demand, found by id, dropped after their time to live, bounded in number.
import { ApiError, sandboxNotFound } from '../errors.js';
import { keysetPage, type Page } from '../domain/index.js';
import type { SandboxInfo } from '../schemas/index.js';
import { SandboxLife } from './life.js';

/** What the registry needs of a sandbox's mock: a way to let it go. */
export interface SandboxCore {
  /** Stops its timers and hands back what it held (its journal's share of the budget). */
  close(): Promise<void>;
}

export interface SandboxRegistryOptions {
  /** Real time in ms (createApp's `clock`, else the process's real time): time to live is real time, whatever a sandbox's mock clock says. */
  now(): number;
  /** Time to live after the last request, when a create gives none. */
  ttlMs: number;
  /** At most this many live at once. */
  max: number;
  /** New ids (see ids.ts). */
  ids(): string;
  /** Called for each sandbox dropped because its time to live ran out. */
  expired?(): void;
}

export interface SandboxEntry<Core extends SandboxCore> {
  readonly id: string;
  readonly name: string | null;
  readonly core: Core;
  /** Its requests in flight and its end (see life.ts). */
  readonly life: SandboxLife;
  readonly createdMs: number;
  readonly ttlMs: number;
  /** Creation order, for the newest-first list. */
  readonly seq: number;
  lastMs: number;
}

export class SandboxRegistry<Core extends SandboxCore> {
  private readonly live = new Map<string, SandboxEntry<Core>>();
  /** Creates on their way (counted against `max`, so concurrent creates cannot overshoot it). */
  private building = 0;
  private seq = 0;
  private readonly timer: NodeJS.Timeout;
  /** Told at each sandbox's end, at its instant: whoever remembers entries lets them go (none outlives its sandbox). */
  private readonly ending: (() => void)[] = [];

  constructor(private readonly options: SandboxRegistryOptions) {
    // Expired sandboxes are also dropped as they are looked up; the sweep returns the memory of ones nobody asks for.
    this.timer = setInterval(() => void this.sweep(), Math.min(60_000, Math.max(1_000, Math.floor(options.ttlMs / 4))));
    this.timer.unref();
  }

  get size(): number {
    return this.live.size;
  }

  /**
   * Registers the sandbox `build` makes (nothing is registered when it throws); 429 `sandbox_limit`, with the seconds
   * until one expires, when `max` are live.
   */
  async create(spec: { name?: string; ttl_ms?: number }, build: (id: string, life: SandboxLife) => Promise<Core>): Promise<SandboxEntry<Core>> {
    await this.sweep();
    if (this.live.size + this.building >= this.options.max) {
      throw new ApiError('sandbox_limit', {
        message: `At most ${this.options.max} sandboxes live at once; delete one, or wait until one expires`,
        retry_after: this.secondsUntilOneExpires(),
      });
    }
    this.building++;
    let core: Core;
    const id = this.freshId();
    const life = new SandboxLife();
    try {
      core = await build(id, life);
    } finally {
      this.building--;
    }
    const now = this.options.now();
    const entry: SandboxEntry<Core> = {
      id,
      name: spec.name ?? null,
      core,
      life,
      createdMs: now,
      lastMs: now,
      ttlMs: spec.ttl_ms ?? this.options.ttlMs,
      seq: ++this.seq,
    };
    this.live.set(id, entry);
    return entry;
  }

  /** The live sandbox with this id, its time to live restarted (a request to it, at `now`); undefined when unknown or expired. */
  touch(id: string, now?: number): SandboxEntry<Core> | undefined {
    const e = this.live.get(id);
    return e && this.touchEntry(e, now);
  }

  /**
   * As `touch`, for an entry remembered from an earlier touch: it is let go at its sandbox's end (see `onEnd`). `now`:
   * the time of the touch when the caller has read it (by this registry's clock), else read here.
   */
  touchEntry(e: SandboxEntry<Core>, now = this.options.now()): SandboxEntry<Core> | undefined {
    if (e.life.ended || !this.alive(e, now)) return undefined;
    e.lastMs = now;
    return e;
  }

  /** `listener` is called at the instant each sandbox ends (before its requests in flight are answered). */
  onEnd(listener: () => void): void {
    this.ending.push(listener);
  }

  /**
   * A request to `e` was answered: its time to live starts again from the answer (it did not run while in flight).
   * `sameTurn`: answered in the turn its touch ran, whose reading stands (no time passes within one turn): not read again.
   */
  answered(e: SandboxEntry<Core>, sameTurn = false): void {
    if (!sameTurn) e.lastMs = this.options.now();
    e.life.leave();
  }

  /** The live sandbox, or 404 `sandbox_not_found`. */
  get(id: string): SandboxEntry<Core> {
    const e = this.find(id);
    if (!e) throw sandboxNotFound(id);
    return e;
  }

  /** Newest first, in pages (`limit`, and the `next_cursor` of the previous page). */
  list(limit: number, cursor?: string): Page<SandboxEntry<Core>> {
    const newest = [...this.live.values()].filter((e) => !this.expired(e)).reverse();
    return keysetPage(newest, (e) => [e.seq], 1, limit, cursor, { list: 'sandboxes' });
  }

  /**
   * Drops a sandbox now (the instant it is no longer found); 404 `sandbox_not_found` when it is unknown or already gone.
   * Resolves once the requests in flight at that instant are answered.
   */
  async delete(id: string): Promise<void> {
    const e = this.get(id);
    await this.drop(e);
  }

  info(e: SandboxEntry<Core>, origin: string): SandboxInfo {
    return sandboxInfo(e, origin);
  }

  /** Drops every sandbox and stops the sweep (the server is closing). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.live.values()].map((e) => this.drop(e)));
  }

  /** Drops the sandboxes whose time is up. */
  async sweep(): Promise<void> {
    const gone = [...this.live.values()].filter((e) => this.expired(e));
    await Promise.all(gone.map((e) => this.drop(e, true)));
  }

  private find(id: string): SandboxEntry<Core> | undefined {
    const e = this.live.get(id);
    return e && this.alive(e, this.options.now()) ? e : undefined;
  }

  /** Whether `e` is still within its time at `now`; one past it is dropped here (it is found no more). */
  private alive(e: SandboxEntry<Core>, now: number): boolean {
    if (!this.expired(e, now)) return true;
    void this.drop(e, true);
    return false;
  }

  /** Its time to live ran out since its last answer, and no request is in flight (one in flight keeps it alive). */
  private expired(e: SandboxEntry<Core>, now = this.options.now()): boolean {
    return e.life.inFlight === 0 && now - e.lastMs >= e.ttlMs;
  }

  /** Its end: no longer found, its store refuses writes, its requests in flight are answered, then its memory goes. */
  private async drop(e: SandboxEntry<Core>, expired = false): Promise<void> {
    if (this.live.get(e.id) !== e) return;
    this.live.delete(e.id);
    for (const listener of this.ending) listener();
    if (expired) this.options.expired?.();
    await e.life.end();
    await e.core.close();
  }

  private freshId(): string {
    for (;;) {
      const id = this.options.ids();
      if (!this.live.has(id)) return id;
    }
  }

  private secondsUntilOneExpires(): number {
    let soonest = Infinity;
    for (const e of this.live.values()) soonest = Math.min(soonest, e.lastMs + e.ttlMs);
    return soonest === Infinity ? 1 : Math.max(1, Math.ceil((soonest - this.options.now()) / 1000));
  }
}

/** A sandbox as the control surface shows it: its base_url under `origin`, and when it expires after its last request. */
export function sandboxInfo(e: { id: string; name: string | null; createdMs: number; lastMs: number; ttlMs: number }, origin: string): SandboxInfo {
  return {
    id: e.id,
    name: e.name,
    base_url: `${origin}/sandboxes/${e.id}`,
    created_at: new Date(e.createdMs).toISOString(),
    expires_at: new Date(e.lastMs + e.ttlMs).toISOString(),
    ttl_ms: e.ttlMs,
  };
}
