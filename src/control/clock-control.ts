// The control operations on the mock clock: read it, freeze it at a time, move it (what falls due by then happens first in auto mode).
import { ClockRequestSchema } from '../schemas/control.js';
import { parse as parseInput } from '../validation.js';
import type { ControlCore } from './control-core.js';

export class ClockControl {
  constructor(private readonly core: Pick<ControlCore, 'deps' | 'sim'>) {}

  now(): string {
    return this.core.deps.clock.nowIso();
  }

  /** Freezes the clock at `now` (a datetime, validated like POST /_mock/clock's body); in simulation mode auto, what falls due by then happens first. */
  async setClock(now: string): Promise<string> {
    const body = parseInput(ClockRequestSchema, { now }, 'body');
    await this.core.sim.moveClock((c) => c.frozenAt(body.now!), ['body', 'now']);
    return this.now();
  }

  /**
   * Moves the clock forward (or back, with a negative value); the clock stays within 0001-01-01 .. 9999-01-01. In
   * simulation mode auto, what falls due by then happens first.
   */
  async advanceClock(ms: number): Promise<string> {
    const body = parseInput(ClockRequestSchema, { advance_ms: ms }, 'body');
    await this.core.sim.moveClock((c) => c.advanced(body.advance_ms!), ['body', 'advance_ms']);
    return this.now();
  }

  /** Clock state as answered by /_mock/clock. */
  clock(): { now: string; frozen_at: string | null; offset_ms: number } {
    const c = this.core.deps.view.clock;
    return { now: this.now(), frozen_at: c.frozen_at ?? null, offset_ms: c.offset_ms ?? 0 };
  }
}
