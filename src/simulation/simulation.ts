// The simulation as the control surface drives it: modes, clock moves, step and run (bounded), and a timer for a running clock.
import { performance } from 'node:perf_hooks';
import type { ClockState } from '../schemas/index.js';
import type { SimulationMode, SimulationRecord } from '../schemas/index.js';
import { invalid } from '../errors.js';
import { drain, TooManyEvents } from './drain.js';
import { startInput } from './start.js';
import { isWholeState, type CaughtUp, type ChangeSet, type Transaction } from '../storage/index.js';
import { eventView } from './options.js';
import { clockMove, clockView, type ClockInTransaction, type ClockView } from '../domain/index.js';
import { SimulationParts } from './parts.js';
import type { Deps } from '../deps.js';
import type { OwnSimulation, SimulationSettings } from './options.js';

export { type OwnSimulation, type SimulationObserver, type SimulationSettings } from './options.js';

/**
 * The write that ends a step or a run: the clock moves up to `ms` when it reads earlier, and the answer's `now` is the
 * clock as that write left it (run again after another instance moved the clock, it reads theirs).
 */
function clockAtLeast(ms: number): (tx: Transaction) => string {
  return (tx) => {
    clockMove((c) => (ms > c.nowMs() ? c.advanced(ms - c.nowMs()) : undefined))(tx);
    return tx.now();
  };
}

/** The simulation as the control surface drives it; its engine, timer and hooks are its parts (parts.ts). */
export class Simulation {
  /** The domain's collaborators, with this simulation's parts as their run hooks. */
  readonly deps: Deps;
  private readonly parts: SimulationParts;

  constructor(deps: Deps, settings: SimulationSettings, own: OwnSimulation = {}) {
    this.parts = new SimulationParts(deps, settings, own);
    this.deps = this.parts.deps;
  }

  /** The mode in the newest state. */
  mode(): SimulationMode {
    return this.parts.mode();
  }

  /** Simulated days a simulated run is kept after it ended (0: everything is kept). */
  retentionDays(): number {
    return this.parts.retentionDays();
  }

  /**
   * After the state was (re)loaded: the heap is rebuilt, and unless the mode is off, jobs, traffic and budget
   * resets are scheduled. `fromFixture` (start-up from fixtures, reset, a fixture load): a fixture asking for a
   * running clock in auto mode gets its frozen `now` turned into a running clock from there.
   */
  async load(fromFixture: boolean): Promise<void> {
    const { store, clock } = this.deps;
    // Built (or rebuilt) when it has events to hold or will schedule some; else when first needed, from what is stored then.
    if (this.parts.built) this.parts.built.rebuild();
    else if (this.parts.mode() !== 'off' || store.count('simulation_events') > 0) void this.parts.engine;
    const mode = this.parts.mode();
    if (fromFixture && mode === 'auto' && this.parts.record()?.clock === 'running' && clock.frozen) {
      await store.transact(clockMove((c) => (c.frozen ? c.runningFrom(c.nowMs()) : undefined)));
    }
    if (mode !== 'off') store.apply((tx) => this.parts.engine.ensureSources(tx, tx.nowMs()));
    await store.flush();
    this.parts.arm();
  }

  /**
   * Stops the timer. A sped-up clock is frozen where it stands, so a restart does not jump by `speed` times the
   * time the mock was down (`--speed` on the next start runs it again from there).
   */
  async close(): Promise<void> {
    this.parts.stop();
    const { store, clock } = this.deps;
    const sped = (c: { frozen: boolean; rate?: number }) => !c.frozen && c.rate !== undefined && c.rate !== 1;
    if (sped(clock)) await store.transact(clockMove((c) => (sped(c) ? c.frozenAt(c.nowIso()) : undefined)));
  }

  status() {
    const r = this.parts.record();
    return {
      mode: this.parts.mode(),
      speed: this.deps.store.clock.rate ?? 1,
      now: this.deps.clock.nowIso(),
      clock: this.deps.clock.frozen ? ('frozen' as const) : ('running' as const),
      pending_count: this.parts.engine.pendingCount,
      pending: this.parts.engine.upcoming(100).map(eventView),
      behaviours: r?.behaviours ?? {},
      traffic: r?.traffic ?? [],
      retention_days: this.parts.retentionDays(),
    };
  }

  /** The start settings, over whatever the state now holds: at start-up, and after a reset or a fixture load. */
  async applyStart(): Promise<void> {
    const input = this.parts.start && startInput(this.parts.start, this.deps.store, this.parts.record()?.traffic ?? []);
    if (input) await this.configure(input);
  }

  /** PUT /_mock/simulation: mode, speed (the clock's rate), the traffic sources and the retention of simulated history. */
  async configure(input: {
    mode?: SimulationMode;
    speed?: number;
    clock?: 'running' | 'frozen';
    traffic?: SimulationRecord['traffic'];
    retention_days?: number;
  }) {
    const { store } = this.parts.deps;
    const before = this.parts.mode();
    store.apply((tx) => {
      if (input.mode === undefined && input.traffic === undefined && input.retention_days === undefined) return;
      const r = this.parts.engine.settings(tx);
      if (input.traffic !== undefined) r.traffic.forEach((_, i) => this.parts.engine.remove(tx, `traffic:${i}`));
      const { mode, traffic, retention_days } = input;
      tx.put('simulation', {
        ...r,
        ...(mode !== undefined ? { mode } : {}),
        ...(traffic !== undefined ? { traffic } : {}),
        ...(retention_days !== undefined ? { retention_days } : {}),
      });
      if (this.parts.engine.mode(tx) !== 'off' && (before === 'off' || input.traffic !== undefined)) this.parts.engine.ensureSources(tx, tx.nowMs());
    });
    const speed = input.speed;
    if (speed !== undefined) await store.transact(clockMove((c) => c.withRate(speed)));
    // A frozen clock starts running from where it stands (at the speed), a running one stops where it is.
    if (input.clock === 'running') await store.transact(clockMove((c) => (c.frozen ? c.runningFrom(c.nowMs()) : undefined)));
    if (input.clock === 'frozen') await store.transact(clockMove((c) => (c.frozen ? undefined : c.frozenAt(c.nowIso()))));
    await this.parts.settle();
    this.parts.arm();
    return this.status();
  }

  /** PUT /_mock/simulation/behaviours (already validated): runs queued from now on follow them. */
  async setBehaviours(behaviours: SimulationRecord['behaviours']) {
    await this.deps.store.transact((tx) => tx.put('simulation', { ...this.parts.engine.settings(tx), behaviours }));
    return behaviours;
  }

  /** POST /_mock/simulation/step: exactly the next event; the clock jumps to its time when that is later. */
  async step() {
    const { store, clock } = this.deps;
    this.parts.resync();
    const next = this.parts.engine.peek();
    if (!next) return { executed: null, now: clock.nowIso(), pending_count: 0 };
    const now = await store.transact(clockAtLeast(Date.parse(next.at)));
    this.parts.engine.executeNext();
    await this.parts.settle();
    this.parts.arm();
    return { executed: eventView(next), now, pending_count: this.parts.engine.pendingCount };
  }

  /** POST /_mock/simulation/run: every event up to `until` (the clock then reads `until`), or until no run has work left. */
  async run(input: { until?: string; idle?: boolean }) {
    const { store, clock } = this.deps;
    const given = (input.until !== undefined ? 1 : 0) + (input.idle === true ? 1 : 0);
    if (given !== 1) throw invalid(['body'], 'Give exactly one of until and idle: true', 'value_error', input);
    const from = clock.nowMs();
    const until = input.until !== undefined ? Date.parse(input.until) : null;
    const loc = input.until !== undefined ? ['body', 'until'] : ['body', 'idle'];
    if (until !== null && until < from) throw invalid(loc, `until is before the mock clock (${clock.nowIso()})`, 'value_error', input.until);
    const started = performance.now();
    const counts = await this.bounded(loc, () => this.drain(until, until === null, input.until ?? null));
    const target = until ?? Math.max(from, counts.lastAt);
    const now = await store.transact(clockAtLeast(target));
    await this.parts.settle();
    this.parts.arm();
    return {
      executed: counts.executed,
      by_kind: counts.byKind,
      from: new Date(from).toISOString(),
      now,
      pending_count: this.parts.engine.pendingCount,
      elapsed_ms: Math.round(performance.now() - started),
    };
  }

  /**
   * A clock move (POST /_mock/clock): `move` answers the new state for the clock as the move's transaction sees it
   * (run again after others moved the clock, it moves on from theirs). Answers the clock as that transaction left it.
   * In auto mode every event due by the new time runs before it answers.
   */
  async moveClock(move: (clock: ClockInTransaction) => ClockState, loc: (string | number)[]): Promise<ClockView> {
    const { store } = this.deps;
    let moved: ClockView | undefined;
    let movedMs = 0;
    const write = (tx: Transaction) => {
      const next = clockMove(move)(tx);
      moved = clockView(tx);
      movedMs = tx.nowMs();
      return next;
    };
    if (this.parts.mode() !== 'auto') {
      await store.transact(write);
      this.parts.arm();
      return moved!;
    }
    await this.bounded(loc, async () => {
      // The clock move is stored with the events it lets happen; until then the clock still reads the old time.
      let next: ClockState | undefined;
      const saved = store.transact((tx) => (next = write(tx)));
      if (next === undefined) await saved; // the move was refused (a 422): nothing to drain
      try {
        this.drain(movedMs, false, null);
      } finally {
        await saved.catch(() => {});
      }
    });
    await this.parts.settle();
    this.parts.arm();
    return moved!;
  }

  /** Runs `work`; past the event bound, everything it did (clock included) is rolled back and the request is a 422. */
  private async bounded<T>(loc: (string | number)[], work: () => T | Promise<T>): Promise<T> {
    // A snapshot holds stored state only: everything applied so far is stored first.
    await this.parts.settle();
    this.parts.resync();
    const before = this.deps.store.snapshot();
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof TooManyEvents)) throw err;
      await this.deps.store.restore(before);
      this.parts.engine.rebuild();
      throw invalid(loc, `This would execute more than ${this.parts.maxEvents} simulated events; move in smaller steps`, 'value_error', undefined, {
        max_events: this.parts.maxEvents,
      });
    }
  }

  private drain(until: number | null, idle: boolean, untilIso: string | null) {
    return drain(this.parts.engine, { until, idle, untilIso, maxEvents: this.parts.maxEvents, onProgress: this.parts.settings.onProgress });
  }

  /**
   * Shared storage: another instance's writes were applied here. The events it scheduled join the heap and the timer is
   * set anew, so the instance that leads fires them on time.
   */
  othersWrote(found: readonly CaughtUp[]): void {
    if (!this.parts.built) {
      // Built from the stored state, which already holds what they wrote: nothing to adopt on top of it.
      if (found.some((f) => isWholeState(f) || f.changes.some((c) => c.collection === 'simulation_events'))) void this.parts.engine;
    } else if (found.some(isWholeState)) this.parts.engine.rebuild();
    else
      for (const set of found as readonly ChangeSet[]) {
        this.parts.engine.adopt(set.changes.flatMap((c) => (c.collection === 'simulation_events' && c.record ? [c.record] : [])));
        this.parts.engine.history.adopt(set.changes.flatMap((c) => (c.collection === 'simulated_runs' && c.record ? [c.record] : [])));
      }
    this.parts.arm();
  }
}
