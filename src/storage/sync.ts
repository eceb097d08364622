// Multi-instance sync on shared storage: catching up on others' change sets, optimistic requests, conflicts and rebase.
import { ChangeSetConflict, isWholeState, type CaughtUp, type ChangeSet } from './change-sets.js';
import type { CommitPipeline, Optimism, Pending, SharedWrites } from './commit.js';
import { mapsFromData } from './state.js';
import { storageUnavailable } from './unavailable.js';

const MAX_ATTEMPTS = 5; // a change set that keeps conflicting is refused
/** Own change sets stored since others' last one before write requests skip their catch-up (see `optimism`). */
const OPTIMISM_AFTER = 16;
const noop = () => {};
const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Shared storage: sees what was applied from other instances (change sets, or a whole state). */
export type CaughtUpListener = (found: readonly CaughtUp[]) => void;

/** Multi-instance sync, a part of the store working on its commit pipeline (a no-op on storage of one instance). */
export class SyncingState implements SharedWrites {
  /** Shared storage: the look at the storage on its way, and the one queued behind it. */
  private looking: Promise<void> | null = null;
  private nextLook: Promise<void> | null = null;
  private watchTimer: NodeJS.Timeout | null = null;
  /** Shared storage: how many of others' change sets (or whole states) were applied, and own change sets stored since the last. */
  private foreignApplied = 0;
  private ownSinceForeign = 0;

  constructor(
    private readonly pipeline: CommitPipeline,
    private readonly onCaughtUp: CaughtUpListener | undefined,
  ) {
    // Shared storage: others' commits are applied as they are announced, so an idle instance stays current.
    // At most one such look per 50 ms: a busy instance catches up before each request anyway.
    this.pipeline.adapter.watch?.((at) => {
      if (this.watchTimer || (at !== undefined && at <= this.pipeline.state.seq)) return;
      this.watchTimer = setTimeout(() => {
        this.watchTimer = null;
        this.sync().catch(noop);
      }, 50);
      this.watchTimer.unref();
    });
  }

  /** Shared storage: whether this instance does the work only one may do (fire simulated events); always true otherwise. */
  get leads(): boolean {
    return this.pipeline.adapter.leads?.() ?? true;
  }

  /**
   * Shared storage: applies what other instances stored before this call (call it before answering a request;
   * StorageUnavailable when the storage cannot be read). Concurrent callers share looks: a caller joins the
   * next look to start, never one already on its way (that one may have missed a write acknowledged just now).
   * A look begins at the end of the event loop's turn, so every request already waiting shares it: under load,
   * fewer queries per read.
   */
  sync(): Promise<void> {
    if (!this.pipeline.shared) return Promise.resolve();
    return (this.nextLook ??= (this.looking ? this.looking.then(noop, noop) : Promise.resolve()).then(turnEnd).then(() => {
      this.nextLook = null;
      return this.look();
    }));
  }

  /**
   * Shared storage: lets a write request skip its catch-up while others have not been writing (none of their change
   * sets among this instance's last OPTIMISM_AFTER). The request runs on what this instance holds; its transactions
   * carry the returned mark (`attributeTo` a scope with `optimism`), and `confirm` says whether its answer stands.
   * Null: catch up first (`sync`).
   */
  optimism(): Optimism | null {
    if (!this.pipeline.shared || this.ownSinceForeign < OPTIMISM_AFTER) return null;
    return { mark: this.foreignApplied, valid: false };
  }

  /**
   * Whether a request run under `o` saw every write acknowledged before it began: one of its transactions was stored
   * (valid already), or a catch-up that begins now applies nothing of others' since it began. False: nothing it
   * wrote was stored (its transactions were refused with StaleView); run it again after `sync`.
   */
  async confirm(o: Optimism): Promise<boolean> {
    if (o.valid) return true;
    await this.sync();
    if (o.valid || o.mark === this.foreignApplied) o.valid = true;
    return o.valid;
  }

  get foreignCount(): number {
    return this.foreignApplied;
  }

  groupStored(n: number): void {
    this.ownSinceForeign += n;
  }

  private look(): Promise<void> {
    const p = (async () => {
      let found: readonly CaughtUp[];
      try {
        found = await this.pipeline.adapter.changesSince!(this.pipeline.state.seq);
      } catch (err) {
        throw storageUnavailable(err);
      }
      // A group being stored may hold some of these seqs (ours, or ours to be refused as conflicting): let it settle first.
      // (Catching up after a conflict needs no wait: folds skip what is already applied, and the retry runs again.)
      if (found.length && this.pipeline.writing > 0) await new Promise<void>((resolve) => this.pipeline.groupEnds.push(resolve));
      this.catchUp(found);
    })().finally(() => {
      if (this.looking === p) this.looking = null;
    });
    this.looking = p;
    return p;
  }

  /** Applies what others committed, skipping what this store already holds (looks and retries may overlap). */
  private catchUp(found: readonly CaughtUp[]): void {
    const applied: CaughtUp[] = [];
    for (const item of found) {
      const seq = item.seq ?? 0;
      if (seq <= this.pipeline.state.seq) continue;
      if (isWholeState(item)) {
        const maps = mapsFromData(item.state);
        this.pipeline.fold({
          replacement: { maps, clock: item.state.clock, settings: item.state.settings },
          seq,
          observe: false,
          scope: undefined,
          attempts: 0,
          state: 'pending',
        });
      } else {
        if (seq !== this.pipeline.state.seq + 1) throw storageUnavailable(new Error(`change set ${seq} does not follow ${this.pipeline.state.seq}`));
        this.pipeline.fold({ set: item, seq, observe: false, scope: undefined, attempts: 0, state: 'pending' });
      }
      applied.push(item);
      this.foreignApplied++;
      this.ownSinceForeign = 0;
    }
    if (this.pipeline.pending.length === 0 && this.pipeline.writing === 0) this.pipeline.lastSeq = this.pipeline.state.seq;
    if (applied.length) this.onCaughtUp?.(applied);
  }

  /** Applies `missed` and runs every pending transaction again on it, in order (the pending layer rebuilt from scratch). */
  private replay(missed: readonly CaughtUp[]): Pending[] {
    this.catchUp(missed); // throwing refuses the group (and everything pending) as storage that failed
    const all = this.pipeline.pending;
    this.pipeline.pending = [];
    this.pipeline.layer.clear();
    this.pipeline.lastSeq = this.pipeline.state.seq;
    for (const p of all) this.pipeline.rerun(p);
    return all;
  }

  /**
   * The adapter lost a race and still holds its lock: apply what it missed, run every pending transaction again
   * on it (as a conflict would, but without letting go), and hand back the group to store now.
   */
  rebase(missed: readonly CaughtUp[]): readonly ChangeSet[] {
    this.pipeline.conflicted();
    this.replay(missed);
    let n = 0;
    while (n < this.pipeline.pending.length && !this.pipeline.pending[n].replacement) n++;
    this.pipeline.inFlight = this.pipeline.pending.slice(0, n);
    this.pipeline.writing = Math.max(n, 1); // still writing (nothing, perhaps) until the adapter is done
    return this.pipeline.inFlight.map((p) => p.set!);
  }

  /**
   * The adapter found others' writes ahead of the whole state it is storing, and holds its lock: apply them, run
   * every pending transaction again (the replacement stays first: it depends on nothing it read) and answer the
   * position to store it at, or null when it is no longer to be stored (a first save that found state).
   */
  rebaseWhole(missed: readonly CaughtUp[]): number | null {
    this.pipeline.conflicted();
    const all = this.replay(missed);
    const head = this.pipeline.pending[0];
    const stays = head !== undefined && head === all[0] && !!head.replacement;
    this.pipeline.inFlight = stays ? [head] : [];
    this.pipeline.writing = 1;
    return stays ? head.seq : null;
  }

  async retry(all: Pending[]): Promise<void> {
    try {
      this.catchUp(await this.pipeline.adapter.changesSince!(this.pipeline.state.seq));
    } catch (err) {
      all.push(...this.pipeline.pending);
      this.pipeline.pending = [];
      this.pipeline.layer.clear();
      this.pipeline.lastSeq = this.pipeline.state.seq;
      this.pipeline.writing = 0;
      for (const p of all) this.pipeline.settle(p, 'failed', storageUnavailable(err));
      return;
    }
    // Transactions applied while catching up were built on the old state too: they run again as well.
    all.push(...this.pipeline.pending);
    this.pipeline.pending = [];
    this.pipeline.layer.clear();
    this.pipeline.lastSeq = this.pipeline.state.seq;
    this.pipeline.writing = 0;
    for (const p of all) {
      if (++p.attempts >= MAX_ATTEMPTS)
        this.pipeline.settle(p, 'failed', storageUnavailable(new ChangeSetConflict('the change kept conflicting with other writers')));
      else this.pipeline.rerun(p);
    }
    this.pipeline.pump();
  }
}
