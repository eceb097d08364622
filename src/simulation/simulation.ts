// The simulation as the control surface sees it: its status (a read), its writes (orchestration.ts) and others' writes adopted.
import type { ClockState, SimulationRecord, SimulationMode } from '../schemas/index.js';
import { isWholeState, type CaughtUp, type ChangeSet } from '../storage/index.js';
import { eventView } from './options.js';
import type { ClockInTransaction, ClockView } from '../domain/index.js';
import { SimulationParts } from './parts.js';
import * as writes from './orchestration.js';
import type { ClockAnswer, ConfigureInput } from './orchestration.js';
import type { Deps } from '../deps.js';
import type { OwnSimulation, SimulationSettings } from './options.js';

export { type OwnSimulation, type SimulationObserver, type SimulationSettings } from './options.js';

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

  /** After the state was (re)loaded (see orchestration.ts); `fromFixture`: start-up from fixtures, reset, a fixture load. */
  load(fromFixture: boolean): Promise<void> {
    return writes.load(this.parts, fromFixture);
  }

  /** Stops the timer; a sped-up clock is frozen where it stands. */
  close(): Promise<void> {
    return writes.close(this.parts);
  }

  /** GET /_mock/simulation (a read: the clock as it stands), or a write's answer with the clock as that write left it. */
  status(clock: ClockAnswer = { now: this.deps.clock.nowIso(), frozen: this.deps.clock.frozen, rate: this.deps.clock.rate }) {
    const r = this.parts.record();
    return {
      mode: this.parts.mode(),
      speed: clock.rate ?? 1,
      now: clock.now,
      clock: clock.frozen ? ('frozen' as const) : ('running' as const),
      pending_count: this.parts.engine.pendingCount,
      pending: this.parts.engine.upcoming(100).map(eventView),
      behaviours: r?.behaviours ?? {},
      traffic: r?.traffic ?? [],
      retention_days: this.parts.retentionDays(),
    };
  }

  /** The start settings, over whatever the state now holds: at start-up, and after a reset or a fixture load. */
  async applyStart(): Promise<void> {
    if (this.parts.start) await writes.applyStart(this.parts, this.parts.start);
  }

  /** PUT /_mock/simulation: mode, speed (the clock's rate), the traffic sources and the retention of simulated history. */
  async configure(input: ConfigureInput) {
    return this.status(await writes.configure(this.parts, input));
  }

  /** PUT /_mock/simulation/behaviours (already validated): runs queued from now on follow them. */
  setBehaviours(behaviours: SimulationRecord['behaviours']) {
    return writes.setBehaviours(this.parts, behaviours);
  }

  /** POST /_mock/simulation/step: exactly the next event; the clock jumps to its time when that is later. */
  step() {
    return writes.step(this.parts);
  }

  /** POST /_mock/simulation/run: every event up to `until` (the clock then reads `until`), or until no run has work left. */
  run(input: { until?: string; idle?: boolean }) {
    return writes.run(this.parts, input);
  }

  /** A clock move (POST /_mock/clock), answered with the clock as its transaction left it (see orchestration.ts). */
  moveClock(move: (clock: ClockInTransaction) => ClockState, loc: (string | number)[]): Promise<ClockView> {
    return writes.moveClock(this.parts, move, loc);
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
