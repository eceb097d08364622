// A running clock fires events as real time passes: one timer per instance, unref'd, cleared by close(); no globals.
import type { Deps } from '../deps.js';
import type { SimulationMode } from '../schemas/index.js';
import type { Engine } from './engine.js';

/** The simulation that drives the timer implements it. */
export interface RealTimeHooks {
  readonly engine: Engine;
  mode(): SimulationMode;
  /** Waits until what was applied is stored. */
  settle(): Promise<void>;
  /** Rebuilds the heap if a load happened that the engine was not told of. */
  resync(): void;
  onError(err: unknown): void;
}

/** How many events one timer callback executes at most, so requests are served in between. */
const BATCH = 2000;

export class RealTime {
  private timer: NodeJS.Timeout | null = null;
  /** The due time the timer is set for (Infinity: none). */
  armedFor = Infinity;
  private closed = false;

  constructor(
    private readonly deps: Deps,
    private readonly hooks: RealTimeHooks,
  ) {}

  close(): void {
    this.closed = true;
    this.disarm();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = Infinity;
  }

  /** Sets the timer for the next event's due time, in real milliseconds at the clock's rate (at least `minDelay`). */
  arm(minDelay = 0): void {
    this.disarm();
    if (this.closed || this.hooks.mode() !== 'auto' || this.deps.clock.frozen) return;
    const engine = this.hooks.engine;
    const next = engine.peek();
    // The next event, or the next removal of simulated history, whichever is first.
    const at = Math.min(next ? Date.parse(next.at) : Infinity, engine.history.dueAt());
    if (at === Infinity) return;
    this.armedFor = at;
    this.timer = setTimeout(() => this.tick(), Math.min(Math.max(minDelay, this.deps.clock.realMsUntil(at)), 2 ** 31 - 1));
    this.timer.unref();
  }

  /** Fires what is due, a bounded batch at a time. */
  private tick(): void {
    this.timer = null;
    this.armedFor = Infinity;
    if (this.closed || this.hooks.mode() !== 'auto' || this.deps.clock.frozen) return;
    // Instances on one database: only the one that leads fires events as time passes; the others look again each second.
    if (!this.deps.store.leads) return this.arm(1_000);
    this.hooks.resync();
    const engine = this.hooks.engine;
    const now = this.deps.clock.nowMs();
    let n = 0;
    // Each event's write checks again, on the clock it reads, that the event it picks is due.
    for (let ev = engine.peek(); ev && Date.parse(ev.at) <= now && n < BATCH; ev = engine.peek()) {
      if (!engine.executeNext((tx) => tx.nowMs())) break;
      n++;
    }
    // One slice of simulated history at most per turn, so requests are served in between.
    const due = engine.history.dueAt() <= now;
    const more = due && engine.history.removeDue(now, 1);
    if (n > 0 || due) this.hooks.settle().catch((err) => this.hooks.onError(err));
    // Nothing was due yet (a coarse timer, or a clock source that does not advance): wait a little before looking again.
    if (n < BATCH && !more) return this.arm(n === 0 ? 10 : 0);
    this.armedFor = now;
    this.timer = setTimeout(() => this.tick(), 0);
    this.timer.unref();
  }
}
