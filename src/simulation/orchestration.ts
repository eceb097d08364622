// The simulation's writes as the control surface drives them (settings, loads, close, step, run, clock moves): each reads
// time and state through its own transactions only; what they are given has no clock and no reads of the store.
import { performance } from 'node:perf_hooks';
import type { ClockState, SimulationMode, SimulationRecord } from '../schemas/index.js';
import type { Transaction, Writer } from '../storage/index.js';
import { invalid, ValidationError } from '../errors.js';
import { clockMove, clockView, MockClock, type ClockInTransaction, type ClockView } from '../domain/index.js';
import { drain, tally, TooManyEvents, type DrainOptions, type Picks } from './drain.js';
import type { EngineFace } from './engine.js';
import { eventView, type SimulationSettings } from './options.js';
import { startInput, type StartSettings } from './start.js';
import { checkBehaviourReferences, checkTrafficReferences, type Problem } from './references.js';

/**
 * The store as the simulation's writes see it: transactions, waiting for them, and a point to roll back to (opaque:
 * nothing is read through it). No record, count or clock reads: a write reads those in its transaction.
 */
export interface SimulationStore extends Writer {
  /** Applies a transaction and starts storing it without waiting. */
  apply<T>(fn: (tx: Transaction) => T): T;
  /** Waits until everything applied is stored. */
  flush(): Promise<void>;
  /** The stored state, to put back when a bounded write goes past its bound. */
  snapshot(): object;
  restore(point: object): Promise<string>;
}

/** What the simulation's writes are given (its parts implement it): the engine and the store's write face, no clock. */
export interface Orchestrated {
  readonly store: SimulationStore;
  readonly engine: EngineFace;
  /** The engine if it was built (asking does not build it). */
  readonly built: EngineFace | undefined;
  readonly maxEvents: number;
  readonly settings: SimulationSettings;
  /** The mode in `tx`, or the engine's newest state (what decides whether a write drains events or arms a timer). */
  mode(tx?: Transaction): SimulationMode;
  record(tx: Transaction): SimulationRecord | undefined;
  /** Builds or rebuilds the engine after a load when it has events to hold or will schedule some. */
  reloaded(): void;
  settle(): Promise<void>;
  resync(): void;
  arm(): void;
  stop(): void;
}

/** The clock as a write left it, as the simulation's status answers it. */
export interface ClockAnswer {
  now: string;
  frozen: boolean;
  rate: number | undefined;
}

const answerOf = (c: ClockInTransaction): ClockAnswer => ({ now: c.nowIso(), frozen: c.frozen, rate: c.rate });
const moveOn = (tx: Transaction, move: (c: ClockInTransaction) => ClockState | undefined) => clockMove(move)(tx);

/**
 * The write that ends a step or a run: the clock moves up to `ms` (as the write finds it) when it reads earlier.
 * Answers the clock as the write found it and as it left it (run again after another instance moved the clock, it
 * reads theirs).
 */
function clockAtLeast(ms: (tx: Transaction) => number): (tx: Transaction) => { from: number; now: string } {
  return (tx) => {
    const from = tx.nowMs();
    const to = ms(tx);
    moveOn(tx, (c) => (to > c.nowMs() ? c.advanced(to - c.nowMs()) : undefined));
    return { from, now: tx.now() };
  };
}

/**
 * After the state was (re)loaded: the heap is rebuilt, and unless the mode is off, jobs, traffic and budget resets are
 * scheduled. `fromFixture`: a fixture asking for a running clock in auto mode gets its frozen `now` turned into a
 * running clock from there. One write reads the mode, the settings and the clock.
 */
export async function load(o: Orchestrated, fromFixture: boolean): Promise<void> {
  o.reloaded();
  // Applied, then waited for with everything before it (a mock that simulates nothing waits for nothing more).
  o.store.apply((tx) => {
    const mode = o.mode(tx);
    if (fromFixture && mode === 'auto' && o.record(tx)?.clock === 'running') moveOn(tx, (c) => (c.frozen ? c.runningFrom(c.nowMs()) : undefined));
    if (mode !== 'off') o.engine.ensureSources(tx, tx.nowMs());
  });
  await o.store.flush();
  o.arm();
}

/** Stops the timer; a sped-up clock is frozen where it stands, so a restart does not jump by `speed` times the time down. */
export async function close(o: Orchestrated): Promise<void> {
  o.stop();
  o.store.apply((tx) => moveOn(tx, (c) => (!c.frozen && c.rate !== undefined && c.rate !== 1 ? c.frozenAt(c.nowIso()) : undefined)));
  await o.store.flush();
}

export interface ConfigureInput {
  mode?: SimulationMode;
  speed?: number;
  clock?: 'running' | 'frozen';
  traffic?: SimulationRecord['traffic'];
  retention_days?: number;
}

/**
 * PUT /_mock/simulation as one write: mode, traffic and retention, then the clock's rate and whether it runs (a frozen
 * clock starts running from where it stands, a running one stops where it is). Answers the clock as that write left it.
 */
export async function configure(o: Orchestrated, input: ConfigureInput): Promise<ClockAnswer> {
  const answer = await o.store.transact((tx) => {
    if (input.traffic)
      refuse(
        checkTrafficReferences(input.traffic, (id) => tx.get('connections', id)?.kind),
        ['body', 'traffic'],
      );
    configureIn(o, tx, input);
    return answerOf(MockClock.of(tx));
  });
  await o.settle();
  o.arm();
  return answer;
}

/** The start settings over the state as its own transaction finds it (the chat bindings, the traffic already set). */
export async function applyStart(o: Orchestrated, start: StartSettings): Promise<void> {
  const changed = await o.store.transact((tx) => {
    const input = startInput(start, tx, o.record(tx)?.traffic ?? []);
    if (input) configureIn(o, tx, input);
    return input !== undefined;
  });
  if (!changed) return;
  await o.settle();
  o.arm();
}

/** One settings change inside `tx`: mode, traffic and retention, then the clock's rate and whether it runs. */
function configureIn(o: Orchestrated, tx: Transaction, input: ConfigureInput): void {
  if (input.mode !== undefined || input.traffic !== undefined || input.retention_days !== undefined) {
    const before = o.mode(tx);
    const r = o.engine.settings(tx);
    if (input.traffic !== undefined) r.traffic.forEach((_, i) => o.engine.remove(tx, `traffic:${i}`));
    const { mode, traffic, retention_days } = input;
    tx.put('simulation', {
      ...r,
      ...(mode !== undefined ? { mode } : {}),
      ...(traffic !== undefined ? { traffic } : {}),
      ...(retention_days !== undefined ? { retention_days } : {}),
    });
    if (o.engine.mode(tx) !== 'off' && (before === 'off' || input.traffic !== undefined)) o.engine.ensureSources(tx, tx.nowMs());
  }
  const speed = input.speed;
  if (speed !== undefined) moveOn(tx, (c) => c.withRate(speed));
  if (input.clock === 'running') moveOn(tx, (c) => (c.frozen ? c.runningFrom(c.nowMs()) : undefined));
  if (input.clock === 'frozen') moveOn(tx, (c) => (c.frozen ? undefined : c.frozenAt(c.nowIso())));
}

/**
 * POST /_mock/simulation/step: exactly the next event, as the step's one write reads it; the clock jumps to its time
 * when that is later. Run again after another instance moved the clock or executed that event, the write picks and
 * answers what it then reads. With nothing pending, the write reads the clock only (and answers at once).
 */
export async function step(o: Orchestrated) {
  o.resync();
  let answer: { executed: ReturnType<typeof eventView> | null; now: string } = { executed: null, now: '' };
  o.engine.executeNext(undefined, (tx, ev) => {
    const now = ev ? clockAtLeast(() => Date.parse(ev.at))(tx).now : tx.now();
    answer = { executed: ev ? eventView(ev) : null, now };
  });
  await o.settle();
  o.arm();
  return { ...answer, pending_count: o.engine.pendingCount };
}

/**
 * POST /_mock/simulation/run: every event up to `until` (the clock then reads `until`), or until no run has work left.
 * `until` is checked against the clock in a transaction before anything runs; `from` and `now` are the clock as the
 * run's own clock move found it and left it.
 */
export async function run(o: Orchestrated, input: { until?: string; idle?: boolean }) {
  const given = (input.until !== undefined ? 1 : 0) + (input.idle === true ? 1 : 0);
  if (given !== 1) throw invalid(['body'], 'Give exactly one of until and idle: true', 'value_error', input);
  const until = input.until !== undefined ? Date.parse(input.until) : null;
  const loc = input.until !== undefined ? ['body', 'until'] : ['body', 'idle'];
  if (until !== null) {
    o.store.apply((tx) => {
      if (until < tx.nowMs()) throw invalid(loc, `until is before the mock clock (${tx.now()})`, 'value_error', input.until);
    });
  }
  const started = performance.now();
  const upTo =
    until === null ? { until, dueBy: () => Infinity, idle: true, untilIso: null } : { until, dueBy: () => until, idle: false, untilIso: input.until! };
  const picks = await bounded(o, loc, async () => {
    // Rounds until nothing is left due: writes run again after another instance's write pick anew, and events that
    // write added (or left) due by `until` wait for the next round. Every round's writes count against the bound.
    const all: Picks = [];
    for (;;) {
      const round = drainTo(o, upTo, o.maxEvents - all.length);
      // Its slots are kept up to date as its writes run again: read once they are stored.
      await o.settle();
      all.push(...round);
      o.resync();
      const next = o.engine.peek();
      if (round.length === 0 || !next || (until === null ? !o.engine.runWorkPending : Date.parse(next.at) > until)) return all;
    }
  });
  // Never back: with `idle`, the clock moves to the last event's time only when that is later than it reads (the
  // events' writes come first, so run again they have picked again by then).
  const { from, now } = await o.store.transact(clockAtLeast(() => until ?? tally(picks).lastAt));
  await o.settle();
  // What the stored writes executed, as they last picked.
  const counts = tally(picks);
  o.arm();
  return {
    executed: counts.executed,
    by_kind: counts.byKind,
    from: new Date(from).toISOString(),
    now,
    pending_count: o.engine.pendingCount,
    elapsed_ms: Math.round(performance.now() - started),
  };
}

/** PUT /_mock/simulation/behaviours (already validated, references aside): runs queued from now on follow them. */
export async function setBehaviours(o: Orchestrated, behaviours: SimulationRecord['behaviours']) {
  await o.store.transact((tx) => {
    refuse(
      checkBehaviourReferences(behaviours, (id) => tx.get('projects', id) !== undefined),
      ['body'],
    );
    tx.put('simulation', { ...o.engine.settings(tx), behaviours });
  });
  return behaviours;
}

/** The references a write's input names, checked on what that write reads: any problem is a 422 that stores nothing. */
function refuse(problems: Problem[], loc: (string | number)[]): void {
  if (problems.length) throw new ValidationError(problems.map((p) => ({ loc: [...loc, ...p.path], msg: p.message, type: 'value_error' })));
}

/**
 * A clock move (POST /_mock/clock): `move` answers the new state for the clock as the move's transaction sees it (run
 * again after others moved the clock, it moves on from theirs). Answers the clock as that transaction left it. In auto
 * mode every event due by the new time runs before it answers.
 */
export async function moveClock(o: Orchestrated, move: (clock: ClockInTransaction) => ClockState, loc: (string | number)[]): Promise<ClockView> {
  let moved: ClockView | undefined;
  let movedMs = 0;
  const write = (tx: Transaction) => {
    const next = clockMove(move)(tx);
    moved = clockView(tx);
    movedMs = tx.nowMs();
    return next;
  };
  if (o.mode() !== 'auto') {
    // Read again in the move's write: one that finds auto (switched meanwhile) moves nothing here and goes the auto way.
    let auto = false;
    await o.store.transact((tx) => {
      auto = o.mode(tx) === 'auto';
      return auto ? undefined : write(tx);
    });
    if (!auto) return (o.arm(), moved!);
  }
  await bounded(o, loc, async () => {
    // The clock move is stored with the events it lets happen; until then the clock still reads the old time.
    let next: ClockState | undefined;
    const saved = o.store.transact((tx) => (next = write(tx)));
    if (next === undefined) await saved; // the move was refused (a 422): nothing to drain
    try {
      // Each event's write runs after the move's and reads its clock and mode: run again, they drain to the clock as
      // moved then, and nothing when the mode is no longer auto.
      drainTo(o, { until: movedMs, dueBy: (tx) => (o.mode(tx) === 'auto' ? tx.nowMs() : -Infinity), idle: false, untilIso: null });
    } finally {
      await saved.catch(() => {});
    }
  });
  await o.settle();
  o.arm();
  return moved!;
}

/** Runs `work`; past the event bound, everything it did (clock included) is rolled back and the request is a 422. */
async function bounded<T>(o: Orchestrated, loc: (string | number)[], work: () => T | Promise<T>): Promise<T> {
  // A snapshot holds stored state only: everything applied so far is stored first.
  await o.settle();
  o.resync();
  const before = o.store.snapshot();
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof TooManyEvents)) throw err;
    await o.store.restore(before);
    o.engine.rebuild();
    throw invalid(loc, `This would execute more than ${o.maxEvents} simulated events; move in smaller steps`, 'value_error', undefined, {
      max_events: o.maxEvents,
    });
  }
}

function drainTo(o: Orchestrated, upTo: Pick<DrainOptions, 'until' | 'dueBy' | 'idle' | 'untilIso'>, maxEvents = o.maxEvents) {
  return drain(o.engine, { ...upTo, maxEvents, onProgress: o.settings.onProgress });
}
