// Retention of simulated history: runs the simulation created go N simulated days after they ended, in bounded slices by time.
import type { Store, Transaction } from '../storage/index.js';
import type { RecordOf } from '../schemas/index.js';
import { EventHeap, type HeapEntry } from './heap.js';
import { runKey } from './runs.js';

type Run = RecordOf<'runs'>;
type Mark = RecordOf<'simulated_runs'>;

const DAY_MS = 24 * 60 * 60 * 1000;
const MARKS = 'simulated_runs' as const;
/** A run still under way when its turn comes is looked at again this much simulated time later. */
const RECHECK_MS = 60 * 60 * 1000;
/**
 * Removal waits until the oldest run is due by this much, then takes every run due by then: runs go within a
 * simulated hour of their time, all that fell due in that hour to a transaction, rather than one transaction each.
 */
const GATHER_MS = 60 * 60 * 1000;
/** One slice (one transaction) removes at most this many runs, and looks at most at SLICE_LOOKS entries. */
const SLICE_RUNS = 256;
const SLICE_LOOKS = 1024;
const END_EVENTS = new Set(['run.succeeded', 'run.failed', 'run.cancelled']);
const ENDED = new Set<Run['status']>(['succeeded', 'failed', 'cancelled']);

/** What removals took away, by collection, and in how many slices (the coverage report counts them). */
export interface Removed {
  slices: number;
  runs: number;
  approvals: number;
  traces: number;
  chat_updates: number;
}

export interface HistoryOptions {
  /** The retention in simulated days (0: keep everything), as the settings say now. */
  retentionDays(): number;
  /** Each slice's removals, once applied. */
  onRemoved?(r: Removed): void;
}

/** When a finished run ended: its last end event (a run ended by hand may lack one: then when it was created). */
function endedAt(run: Run): number {
  for (let i = run.events.length - 1; i >= 0; i--) {
    const e = run.events[i] as { type?: unknown; at?: unknown };
    if (typeof e?.type === 'string' && END_EVENTS.has(e.type) && typeof e.at === 'string') return Date.parse(e.at);
  }
  return Date.parse(run.created_at);
}

/**
 * The runs the simulation created, ordered by the time from which their retention counts: first when they were
 * created (a run cannot end earlier), then, once looked at, when they ended. An entry is current while the store
 * holds a mark of its run made at the same time; others (removed, rolled back) are dropped when they come up.
 */
export class History {
  private readonly heap = new EventHeap();
  private seq = 0;

  constructor(
    private readonly store: Store,
    private readonly options: HistoryOptions,
  ) {}

  /** Marks a run the simulation creates, inside the transaction that creates it. */
  mark(tx: Transaction, run: Run, nowMs: number): void {
    this.push(nowMs, tx.put(MARKS, { run_id: run.id, created_at: new Date(nowMs).toISOString() }));
  }

  /** An approval opened for a run: if the simulation made the run, the approval is noted on its mark to go with it. */
  gated(tx: Transaction, runId: string, approvalId: string): void {
    const mark = tx.get(MARKS, runId);
    if (mark) tx.put(MARKS, { ...mark, approvals: [...(mark.approvals ?? []), approvalId] });
  }

  /** After a load: every stored mark, by when its run was created. */
  rebuild(marks: Iterable<Mark>): void {
    this.heap.clear();
    this.adopt(marks, true);
  }

  /**
   * Shared storage: marks another instance stored join this heap (the leader removes). A mark that lists approvals
   * is an update of one already here (a run gets its mark when it is made, its approvals later).
   */
  adopt(marks: Iterable<Mark>, updates = false): void {
    for (const m of marks) if (updates || !m.approvals?.length) this.push(Date.parse(m.created_at), m);
  }

  private push(at: number, record: Mark): void {
    this.heap.push({ at, rank: 0, seq: this.seq++, key: record.run_id, record });
  }

  /** The simulated time from which a removal may be due (Infinity: none, or retention is off). */
  dueAt(): number {
    const days = this.options.retentionDays();
    const top = this.heap.peek();
    return days > 0 && top ? top.at + days * DAY_MS + GATHER_MS : Infinity;
  }

  /**
   * Removes what is due at `nowMs`, one slice (one transaction) after another, at most `maxSlices`; answers whether
   * more is due. Each slice is applied like an event: the caller waits for storage as it does for events.
   */
  removeDue(nowMs: number, maxSlices = Infinity): boolean {
    for (let n = 0; n < maxSlices; n++) {
      if (this.dueAt() > nowMs) return false;
      const removed = this.store.apply((tx) => this.slice(tx, nowMs));
      if (removed.slices > 0) this.options.onRemoved?.(removed);
    }
    return this.dueAt() <= nowMs;
  }

  /** One slice: the runs that ended at least the retention ago, with their approvals, trace and chat update. */
  private slice(tx: Transaction, nowMs: number): Removed {
    const removed: Removed = { slices: 0, runs: 0, approvals: 0, traces: 0, chat_updates: 0 };
    const cutoff = nowMs - this.options.retentionDays() * DAY_MS;
    const later: HeapEntry[] = [];
    for (let looked = 0; looked < SLICE_LOOKS && removed.runs < SLICE_RUNS; looked++) {
      const top = this.heap.peek();
      if (!top || top.at > cutoff) break;
      this.heap.pop();
      const mark = tx.get(MARKS, top.key);
      if (mark?.created_at !== (top.record as Mark).created_at) continue;
      const run = tx.get('runs', mark.run_id);
      if (!run) {
        // The run went another way (a user's deletion, a replaced state): only its mark is left.
        tx.delete(MARKS, mark.run_id);
        continue;
      }
      // Under way, or a retry still pending: looked at again later. Ended too recently: when its time comes.
      const open = !ENDED.has(run.status) || tx.get('simulation_events', runKey(run.id)) !== undefined;
      const end = open ? cutoff + RECHECK_MS : endedAt(run);
      if (end > cutoff) {
        later.push({ ...top, at: end });
        continue;
      }
      this.remove(tx, run, mark, removed);
      tx.delete(MARKS, mark.run_id);
    }
    for (const e of later) this.heap.push(e);
    if (!tx.empty) removed.slices = 1;
    return removed;
  }

  /**
   * The run and what the simulation wrote for it alone: the approvals it opened, its full-content trace, its chat
   * update's dedupe key. (A simulated run writes no memories: a memory is its user's and stays.)
   */
  private remove(tx: Transaction, run: Run, mark: Mark, removed: Removed): void {
    for (const id of mark.approvals ?? []) {
      if (tx.get('approvals', id)?.run_id !== run.id) continue;
      tx.delete('approvals', id);
      removed.approvals++;
    }
    if (run.trace_id && tx.get('traces', run.trace_id)?.run_id === run.id) {
      tx.delete('traces', run.trace_id);
      removed.traces++;
    }
    const { binding_id, update_id } = run.request_metadata;
    const key = `${String(binding_id)}:${String(update_id)}`;
    if (binding_id !== undefined && tx.get('chat_updates', key)?.run_id === run.id) {
      tx.delete('chat_updates', key);
      removed.chat_updates++;
    }
    tx.delete('runs', run.id);
    removed.runs++;
  }
}
