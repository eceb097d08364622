// A simulation's parts and how they are built: the engine at first need, the timer for a running clock, and the hooks
// they and the domain call back (the engine's options, the timer's hooks, the run hooks), implemented once here.
import { withRunHooks, type Deps, type RunHooks } from '../deps.js';
import type { RecordOf } from '../schemas/index.js';
import type { Transaction, WriteScope } from '../storage/index.js';
import type { Orchestrated, SimulationStore } from './orchestration.js';
import { SIMULATION_RECORD_ID, type SimulationMode, type SimulationRecord } from '../schemas/index.js';
import { Engine, type EngineOptions } from './engine.js';
import { RealTime, type RealTimeHooks } from './real-time.js';
import type { Removed } from './history.js';
import type { StartSettings } from './start.js';
import type { SentMessage } from './traffic.js';
import { MAX_EVENTS_PER_RUN, type OwnSimulation, type SimulationObserver, type SimulationSettings } from './options.js';

type Run = RecordOf<'runs'>;

/**
 * The parts of one mock's simulation. Its engine (heaps, history, reader) is built when first needed, from the stored
 * events: a mock with the simulation off and no events (most sandboxes) never builds one, and its timer only with a
 * running clock in auto mode. It is also the engine's options, the timer's hooks and the domain's run hooks (passed on
 * to the engine), so a mock holds no closures for them.
 */
export class SimulationParts implements RunHooks, EngineOptions, RealTimeHooks, Orchestrated {
  /** The domain's collaborators, with these parts as their run hooks. */
  readonly deps: Deps;
  readonly defaultMode: SimulationMode;
  readonly seed: string | undefined;
  readonly start: StartSettings | undefined;
  private readonly observer: SimulationObserver | undefined;
  /** The engine once built (undefined until first needed). */
  private engineBuilt: Engine | undefined;
  private realTime: RealTime | undefined;
  private closed = false;
  private rearming = false;

  constructor(
    deps: Deps,
    /** The server's (shared by its mocks). */
    readonly settings: SimulationSettings,
    own: OwnSimulation = {},
  ) {
    this.deps = withRunHooks(deps, this);
    this.defaultMode = settings.defaultMode ?? 'off';
    this.seed = own.seed;
    this.start = own.start;
    this.observer = own.observer;
  }

  /** The engine, built at first need with its heap rebuilt from the stored events. */
  get engine(): Engine {
    if (this.engineBuilt) return this.engineBuilt;
    this.engineBuilt = new Engine(this.deps, this);
    this.engineBuilt.rebuild();
    return this.engineBuilt;
  }

  /** The store as the simulation's writes see it (transactions, no reads). */
  get store(): SimulationStore {
    return this.deps.store;
  }

  /** After a load: the engine is rebuilt, or built when it has events to hold or will schedule some (else when first needed). */
  reloaded(): void {
    if (this.engineBuilt) this.engineBuilt.rebuild();
    else if (this.mode() !== 'off' || this.deps.store.count('simulation_events') > 0) void this.engine;
  }

  /** The engine if it was built, else undefined (asking does not build it). */
  get built(): Engine | undefined {
    return this.engineBuilt;
  }

  get maxEvents(): number {
    return this.settings.maxEvents ?? MAX_EVENTS_PER_RUN;
  }

  /** The mode in `tx`, or in the newest state (what the engine reads). */
  mode(tx?: Transaction): SimulationMode {
    return this.record(tx)?.mode ?? this.defaultMode;
  }

  record(tx?: Transaction): SimulationRecord | undefined {
    return (tx ? tx.get('simulation', SIMULATION_RECORD_ID) : this.deps.store.viewGet('simulation', SIMULATION_RECORD_ID)) as SimulationRecord | undefined;
  }

  /** Simulated days a simulated run is kept after it ended (0: everything is kept). */
  retentionDays(): number {
    return this.record()?.retention_days ?? this.settings.retentionDays ?? 0;
  }

  /** Waits until what the engine applied is stored; a refused write rolls it back, and the heap with it (an engine not yet built is built from what is stored). */
  async settle(): Promise<void> {
    try {
      await this.deps.store.flush();
    } catch (err) {
      this.engineBuilt?.rebuild();
      throw err;
    }
  }

  /** Rebuilds the heap if a load happened that the engine was not told of. */
  resync(): void {
    if (!this.engine.inSync()) this.engine.rebuild();
  }

  /** Sets the timer of a running clock for the next event (at least `minDelay` real ms away). */
  arm(minDelay = 0): void {
    // Only a running clock in auto mode has a timer: a mock that never had one builds none.
    if (!this.realTime && (this.closed || this.mode() !== 'auto' || this.deps.clock.frozen)) return;
    (this.realTime ??= new RealTime(this.deps, this)).arm(minDelay);
  }

  /** Stops the timer for good: nothing arms it again. */
  stop(): void {
    this.closed = true;
    this.realTime?.close();
  }

  // ---- the engine's options and the timer's hooks ----

  onError(err: unknown): void {
    if (this.settings.onError) this.settings.onError(err);
    else console.error(err);
  }

  scope(): WriteScope {
    return this.observer?.simulatedScope ?? {};
  }

  onExecuted(kind: string): void {
    this.settings.executed?.();
    this.observer?.recordSimulated(kind);
  }

  onRemoved(r: Removed): void {
    this.observer?.recordRemoved(r);
  }

  onMessage(m: SentMessage): void {
    this.observer?.recordMessage?.(m);
  }

  /** Called while a transaction commits (its event is not yet readable): the timer is re-armed just after. */
  onScheduled(at: number): void {
    if (this.engine.executing || at >= (this.realTime?.armedFor ?? Infinity) || this.rearming) return;
    this.rearming = true;
    queueMicrotask(() => {
      this.rearming = false;
      this.arm();
    });
  }

  // ---- the domain's run hooks, passed on to the engine ----

  queued(tx: Transaction, run: Run, nowMs: number, options: { explicit?: boolean; retryOf?: string } = {}): void {
    // A run a client queued with the simulation off (not simulated, not a retry) is none of an unbuilt engine's business.
    if (!this.engineBuilt && !options.explicit && options.retryOf === undefined && this.mode(tx) === 'off') return;
    this.engine.queued(tx, run, nowMs, options);
  }

  requeued(tx: Transaction, run: Run, nowMs: number): Run {
    return this.engine.requeued(tx, run, nowMs);
  }

  cancelled(tx: Transaction, run: Run, nowMs: number): Run {
    return this.engine.cancelled(tx, run, nowMs);
  }

  detached(tx: Transaction, runId: string): void {
    this.engine.detached(tx, runId);
  }
}
