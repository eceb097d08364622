// The control operations on the mock clock: read it, freeze it at a time, move it (what falls due by then happens first in auto mode).
import { ClockRequestSchema } from '../schemas/index.js';
import { parse as parseInput } from '../validation.js';
import { clockView, type ClockView, type MockClock } from '../domain/index.js';
import type { ReadView } from '../storage/index.js';
import type { ControlWrites } from './control-core.js';

/**
 * The moves write through `moves`, the simulation's clock move (no clock to read: a move is computed on its
 * transaction's clock); `now()` and `clock()` are reads of the clock as it stands.
 */
export class ClockControl {
  constructor(
    private readonly moves: Pick<ControlWrites, 'sim'>,
    private readonly reads: { readonly clock: MockClock; readonly view: ReadView },
  ) {}

  now(): string {
    return this.reads.clock.nowIso();
  }

  /** Freezes the clock at `now` (a datetime, validated like POST /_mock/clock's body); in simulation mode auto, what falls due by then happens first. */
  async setClock(now: string): Promise<string> {
    return (await this.frozenAt(now)).now;
  }

  /**
   * Moves the clock forward (or back, with a negative value); the clock stays within 0001-01-01 .. 9999-01-01. In
   * simulation mode auto, what falls due by then happens first.
   */
  async advanceClock(ms: number): Promise<string> {
    return (await this.advanced(ms)).now;
  }

  /** Clock state as answered by /_mock/clock. */
  clock(): ClockView {
    return clockView({ clock: this.reads.view.clock, now: () => this.now() });
  }

  /** setClock answering the whole clock as its write left it (POST /_mock/clock's answer). */
  private async frozenAt(now: string): Promise<ClockView> {
    const body = parseInput(ClockRequestSchema, { now }, 'body');
    return this.moves.sim.moveClock((c) => c.frozenAt(body.now!), ['body', 'now']);
  }

  /** advanceClock answering the whole clock as its write left it. */
  private async advanced(ms: number): Promise<ClockView> {
    const body = parseInput(ClockRequestSchema, { advance_ms: ms }, 'body');
    return this.moves.sim.moveClock((c) => c.advanced(body.advance_ms!), ['body', 'advance_ms']);
  }

  /** What POST /_mock/clock does: the move, answered with the clock its write left (not a later reading). */
  static move(part: ClockControl, body: { now?: string; advance_ms?: number }): Promise<ClockView> {
    return body.now !== undefined ? part.frozenAt(body.now) : part.advanced(body.advance_ms!);
  }
}
