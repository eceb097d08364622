// The engine: pending events live in the store (collection simulation_events) and in a heap; each runs as one transaction at its due time.
import type { Deps, RunHooks } from '../deps.js';
import { Transaction } from '../storage/index.js';
import type { RecordOf } from '../schemas/index.js';
import { SIMULATION_RECORD_ID, type SimEventRecord, type SimulationMode, type SimulationRecord } from '../schemas/index.js';
import { MAX_TIMESTAMP_MS } from '../domain/index.js';
import { EventHeap, type HeapEntry } from './heap.js';
import { behaviourFor } from './behaviours.js';
import { runKey, timingAtCancel, timingAtRequeue, type NewEvent } from './runs.js';
import { ensureSources } from './sources.js';
import { dispatch } from './dispatch.js';
import { History } from './history.js';
import type { EngineOptions } from './engine-options.js';
import type { SentMessage } from './traffic.js';

export type { EngineOptions } from './engine-options.js';

/** The engine as the simulation's writes drive it: without the whole deps (no clock, no store reads to reach). */
export type EngineFace = Omit<Engine, 'deps'>;

type Run = RecordOf<'runs'>;
/** Called in an execution write, every time it runs, with the event it picked (undefined: none was due). */
type Picked = (tx: Transaction, ev: SimEventRecord | undefined) => void;
const iso = (ms: number) => new Date(ms).toISOString();
const EVENTS = 'simulation_events' as const;
const isRunWork = (key: string) => key.startsWith('run:');
/** Within one millisecond a day's reset goes first, so that day's first spend counts in the new day. */
const rankOf = (e: SimEventRecord) => (e.kind === 'budget.rollover' ? 0 : 1);

export class Engine implements RunHooks {
  private readonly heap = new EventHeap();
  /**
   * Keys of events that belong to runs (starts, steps, approvals, job retries): `run {idle}` waits for them. Keys
   * are added when scheduled and dropped lazily once no such event exists any more.
   */
  private readonly runWork = new Set<string>();
  /**
   * The newest state, writes still being stored included, read as a transaction reads it: the engine runs ahead of
   * storage (a long run is stored in a few group writes), so what it executes next must see what it just did.
   */
  private readonly view: Transaction;
  /** Counts catch-ups on others' writes (and rebuilds); `healedAt`: the count when a rerun last rebuilt the heap. */
  private caughtUp = 0;
  private healedAt = 0;
  /** True while an event executes: runs it creates are simulated whatever the mode. */
  executing = false;
  /** Orders events due at the same millisecond: the order in which they were scheduled. */
  private nextSeq = 0;
  /** The runs the simulation created, and their removal once they ended `retention_days` ago. */
  readonly history: History;

  /** The domain's collaborators; their run hooks reach this engine (the domain tells it of the runs it moves). */
  readonly deps: Deps;

  constructor(
    deps: Deps,
    private readonly options: EngineOptions,
  ) {
    this.deps = deps;
    this.view = new Transaction(deps.store);
    this.history = new History(deps.store, options);
  }

  /** A synthetic chat message was sent: whoever listens (the journal) hears it. */
  messageSent(m: SentMessage): void {
    this.options.onMessage?.(m);
  }

  // ---- settings ----

  record(tx?: Transaction): SimulationRecord | undefined {
    return (tx ?? this.view).get('simulation', SIMULATION_RECORD_ID);
  }

  mode(tx?: Transaction): SimulationMode {
    return this.record(tx)?.mode ?? this.options.defaultMode;
  }

  /** The stored settings, created on first need with the seed every draw derives from. */
  settings(tx: Transaction): SimulationRecord {
    const r = this.record(tx);
    if (r?.seed !== undefined) return r;
    const seed = this.options.seed ?? this.deps.tokens(16);
    return tx.put('simulation', { id: SIMULATION_RECORD_ID, clock: 'frozen', behaviours: { default: {}, projects: [] }, traffic: [], ...r, seed });
  }

  // ---- scheduling (always inside a transaction) ----

  /**
   * Writes an event in `tx` and adds it to the heap at once. An entry whose transaction is later discarded or
   * rolled back never matches a stored event, and is dropped when it comes up.
   */
  schedule(tx: Transaction, ev: NewEvent): void {
    // Past the last datetime an event would never fire anyway (the clock stops at 9999-01-01): it waits there.
    const at = Math.min(ev.at, MAX_TIMESTAMP_MS);
    const record = tx.put(EVENTS, { ...ev, at: iso(at), seq: this.nextSeq++ } as SimEventRecord);
    const entry = { at, rank: rankOf(record), seq: record.seq, key: record.key, record };
    this.heap.push(entry);
    if (isRunWork(record.key)) this.runWork.add(record.key);
    this.options.onScheduled?.(entry.at);
  }

  remove(tx: Transaction, key: string): void {
    if (tx.get(EVENTS, key)) tx.delete(EVENTS, key);
  }

  // ---- the heap ----

  /** After a bulk load (reset, fixtures, restore, a data file) or a rolled-back write, the heap is rebuilt from the events. */
  rebuild(): void {
    this.caughtUp++;
    this.history.rebuild(this.view.filter('simulated_runs', () => true));
    this.heap.clear();
    this.runWork.clear();
    for (const e of this.view.filter(EVENTS, () => true)) {
      this.heap.push(this.entryOf(e));
      if (isRunWork(e.key)) this.runWork.add(e.key);
      // New events order after every stored one (the counter is not stored: it is found again here).
      if (e.seq >= this.nextSeq) this.nextSeq = e.seq + 1;
    }
  }

  /** Shared storage: events another instance stored join this heap (ones it removed are dropped when they come up). */
  adopt(events: Iterable<SimEventRecord>): void {
    this.caughtUp++;
    for (const e of events) {
      this.heap.push(this.entryOf(e));
      if (isRunWork(e.key)) this.runWork.add(e.key);
      if (e.seq >= this.nextSeq) this.nextSeq = e.seq + 1;
    }
  }

  private entryOf(e: SimEventRecord): HeapEntry {
    return { at: Date.parse(e.at), rank: rankOf(e), seq: e.seq, key: e.key, record: e };
  }

  /**
   * The event an entry stands for, if it is still the one stored under its key: records are immutable, so the same
   * object means the same event; a replaced, removed or rolled-back one is another object or none.
   */
  private current(entry: HeapEntry, reader: Transaction): SimEventRecord | undefined {
    const r = reader.get(EVENTS, entry.key);
    return r === entry.record ? r : undefined;
  }

  /** The next pending event in `tx` (or the newest state); heap entries of events since replaced or removed are dropped on the way. */
  peek(tx: Transaction = this.view): SimEventRecord | undefined {
    for (let top = this.heap.peek(); top; top = this.heap.peek()) {
      const r = this.current(top, tx);
      if (r) return r;
      this.heap.pop();
    }
    return undefined;
  }

  /** The next `n` pending events in order, without taking them. */
  upcoming(n: number): SimEventRecord[] {
    const taken: HeapEntry[] = [];
    const out: SimEventRecord[] = [];
    while (out.length < n) {
      const r = this.peek();
      if (!r) break;
      taken.push(this.heap.pop()!);
      out.push(r);
    }
    for (const e of taken) this.heap.push(e);
    return out;
  }

  get pendingCount(): number {
    return this.view.filter(EVENTS, () => true).length;
  }

  get runWorkPending(): boolean {
    for (const key of this.runWork) {
      if (this.view.get(EVENTS, key)) return true;
      this.runWork.delete(key);
    }
    return false;
  }

  /** Fewer heap entries than stored events means a load the engine was not told of: rebuild then. */
  inSync(): boolean {
    return this.heap.size >= this.deps.store.count(EVENTS);
  }

  // ---- execution ----

  /**
   * One write that picks the next event as it reads it, due by `dueBy` (time as it reads it), and executes it at its
   * due time; `picked` runs first in it with the pick. Run again after a conflict it picks again (an event another
   * instance executed is not executed twice), on a heap rebuilt once per catch-up: the rolled-back own writes had taken
   * events off it. Answers the first run's pick. A defect in the event drops it (the write deletes it) and is reported.
   */
  executeNext(dueBy: (tx: Transaction) => number = () => Infinity, picked?: Picked): SimEventRecord | undefined {
    let runs = 0;
    const pick = (tx: Transaction): SimEventRecord | undefined => {
      if (runs++ > 0 && this.healedAt !== this.caughtUp) {
        this.rebuild();
        this.healedAt = this.caughtUp;
      }
      const next = this.peek(tx);
      const ev = next && Date.parse(next.at) <= dueBy(tx) ? next : undefined;
      picked?.(tx, ev);
      return ev;
    };
    // Unless the handler scheduled the same key anew, the event is spent.
    const spend = (tx: Transaction, ev: SimEventRecord) => {
      if (tx.get(EVENTS, ev.key)?.seq === ev.seq) tx.delete(EVENTS, ev.key);
    };
    const store = this.deps.store;
    let ev: SimEventRecord | undefined;
    try {
      ev = store.attributeTo(this.options.scope?.() ?? {}, () =>
        store.apply((tx) => {
          const e = pick(tx);
          if (e) this.whileExecuting(() => dispatch(this, tx, e, Date.parse(e.at)));
          if (e) spend(tx, e);
          return e;
        }),
      );
    } catch (err) {
      ev = store.apply((tx) => {
        const e = pick(tx);
        if (e) spend(tx, e);
        return e;
      });
      this.options.onError(err);
    }
    if (ev) this.options.onExecuted?.(ev.kind);
    return ev;
  }

  /** Runs `fn` flagged as executing an event (runs it creates are the simulation's own), in a rerun as well. */
  private whileExecuting(fn: () => void): void {
    const outer = this.executing;
    this.executing = true;
    try {
      fn();
    } finally {
      this.executing = outer;
    }
  }

  /** What runs by itself: each active job at its next_run_at (a past one at once), each traffic source, each budget with spend. */
  ensureSources(tx: Transaction, ms: number): void {
    ensureSources(this, tx, ms);
  }

  // ---- RunHooks: called by the domain inside its own transaction ----

  queued(tx: Transaction, run: Run, nowMs: number, options: { explicit?: boolean; retryOf?: string } = {}): void {
    // A run made while an event executes (synthetic traffic, a job, a job's retry) is the simulation's own.
    if (this.executing) this.history.mark(tx, run, nowMs);
    // A retry over the API replaces a pending automatic retry of the same run.
    if (options.retryOf && tx.get(EVENTS, runKey(options.retryOf))?.kind === 'job.retry') tx.delete(EVENTS, runKey(options.retryOf));
    if (!options.explicit && !this.executing && this.mode(tx) === 'off') return;
    const agentId = run.request_metadata.agent_id;
    const b = behaviourFor(this.record(tx)?.behaviours, run.project_id, typeof agentId === 'string' ? agentId : undefined);
    this.schedule(tx, {
      key: runKey(run.id),
      kind: 'run.start',
      at: nowMs + b.queue_wait_ms,
      run_id: run.id,
      project_id: run.project_id,
      step: 0,
      since: iso(nowMs),
      behaviour: b,
    });
  }

  requeued(tx: Transaction, run: Run, nowMs: number): Run {
    const ev = tx.get(EVENTS, runKey(run.id));
    if (!ev?.behaviour || (ev.kind !== 'approval.decide' && ev.kind !== 'approval.expire')) return run;
    // The behaviour goes on after the denied tool step, once the queue wait is over.
    this.schedule(tx, {
      key: ev.key,
      kind: 'run.start',
      at: nowMs + ev.behaviour.queue_wait_ms,
      run_id: run.id,
      project_id: run.project_id,
      step: (ev.step ?? 0) + 1,
      since: iso(nowMs),
      behaviour: ev.behaviour,
    });
    return timingAtRequeue(run, ev, nowMs);
  }

  cancelled(tx: Transaction, run: Run, nowMs: number): Run {
    const ev = tx.get(EVENTS, runKey(run.id));
    if (!ev) return run;
    tx.delete(EVENTS, ev.key);
    return ev.behaviour ? timingAtCancel(run, ev, nowMs) : run;
  }

  detached(tx: Transaction, runId: string): void {
    this.remove(tx, runKey(runId));
  }
}
