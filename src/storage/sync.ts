// Multi-instance sync on shared storage: catching up on others' change sets, optimistic requests, conflicts and rebase.
import type { StateData } from '../schemas/index.js';
import { ChangeSetConflict, isWholeState, type CaughtUp, type ChangeSet, type ChangeSetAdapter } from './change-sets.js';
import { CommitPipeline, type CommitMeter, type Optimism, type Pending, type WriteObserver } from './commit.js';
import { mapsFromData } from './state.js';
import { storageUnavailable } from './unavailable.js';

const MAX_ATTEMPTS = 5; // a change set that keeps conflicting is refused
/** Own change sets stored since others' last one before write requests skip their catch-up (see `optimism`). */
const OPTIMISM_AFTER = 16;
const noop = () => {};

/** Shared storage: sees what was applied from other instances (change sets, or a whole state). */
export type CaughtUpListener = (found: readonly CaughtUp[]) => void;

export abstract class SyncingState extends CommitPipeline {
  /** Shared storage: the look at the storage on its way, and the one queued behind it. */
  private looking: Promise<void> | null = null;
  private nextLook: Promise<void> | null = null;
  private watchTimer: NodeJS.Timeout | null = null;
  /** Shared storage: how many of others' change sets (or whole states) were applied, and own change sets stored since the last. */
  private foreignApplied = 0;
  private ownSinceForeign = 0;

  constructor(
    adapter: ChangeSetAdapter,
    data: StateData,
    seq: number,
    observer: WriteObserver | undefined,
    private readonly onCaughtUp: CaughtUpListener | undefined,
    shared = false,
    meter?: CommitMeter,
  ) {
    super(adapter, data, seq, observer, shared, meter);
    // Shared storage: others' commits are applied as they are announced, so an idle instance stays current.
    // At most one such look per 50 ms: a busy instance catches up before each request anyway.
    this.adapter.watch?.((at) => {
      if (this.watchTimer || (at !== undefined && at <= this.committedSeq)) return;
      this.watchTimer = setTimeout(() => {
        this.watchTimer = null;
        this.sync().catch(noop);
      }, 50);
      this.watchTimer.unref();
    });
  }

  /** Shared storage: whether this instance does the work only one may do (fire simulated events); always true otherwise. */
  get leads(): boolean {
    return this.adapter.leads?.() ?? true;
  }

  /**
   * Shared storage: applies what other instances stored before this call (call it before answering a request;
   * StorageUnavailable when the storage cannot be read). Concurrent callers share looks: a caller joins the
   * next look to start, never one already on its way (that one may have missed a write acknowledged just now).
   */
  sync(): Promise<void> {
    if (!this.shared) return Promise.resolve();
    if (!this.looking) return this.look();
    return (this.nextLook ??= this.looking.then(noop, noop).then(() => {
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
    if (!this.shared || this.ownSinceForeign < OPTIMISM_AFTER) return null;
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

  protected get foreignCount(): number {
    return this.foreignApplied;
  }

  protected groupStored(n: number): void {
    this.ownSinceForeign += n;
  }

  private look(): Promise<void> {
    const p = (async () => {
      let found: readonly CaughtUp[];
      try {
        found = await this.adapter.changesSince!(this.committedSeq);
      } catch (err) {
        throw storageUnavailable(err);
      }
      // A group being stored may hold some of these seqs (ours, or ours to be refused as conflicting): let it settle first.
      // (Catching up after a conflict needs no wait: folds skip what is already applied, and the retry runs again.)
      if (found.length && this.writing > 0) await new Promise<void>((resolve) => this.groupEnds.push(resolve));
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
      if (seq <= this.committedSeq) continue;
      if (isWholeState(item)) {
        const maps = mapsFromData(item.state);
        this.fold({
          replacement: { maps, clock: item.state.clock, settings: item.state.settings },
          seq,
          observe: false,
          scope: undefined,
          attempts: 0,
          state: 'pending',
        });
      } else {
        if (seq !== this.committedSeq + 1) throw storageUnavailable(new Error(`change set ${seq} does not follow ${this.committedSeq}`));
        this.fold({ set: item, seq, observe: false, scope: undefined, attempts: 0, state: 'pending' });
      }
      applied.push(item);
      this.foreignApplied++;
      this.ownSinceForeign = 0;
    }
    if (this.pending.length === 0 && this.writing === 0) this.lastSeq = this.committedSeq;
    if (applied.length) this.onCaughtUp?.(applied);
  }

  /** Applies `missed` and runs every pending transaction again on it, in order (the pending layer rebuilt from scratch). */
  private replay(missed: readonly CaughtUp[]): Pending[] {
    this.catchUp(missed); // throwing refuses the group (and everything pending) as storage that failed
    const all = this.pending;
    this.pending = [];
    this.layer.clear();
    this.lastSeq = this.committedSeq;
    for (const p of all) this.rerun(p);
    return all;
  }

  /**
   * The adapter lost a race and still holds its lock: apply what it missed, run every pending transaction again
   * on it (as a conflict would, but without letting go), and hand back the group to store now.
   */
  protected rebase(missed: readonly CaughtUp[]): readonly ChangeSet[] {
    this.conflicted();
    this.replay(missed);
    let n = 0;
    while (n < this.pending.length && !this.pending[n].replacement) n++;
    this.inFlight = this.pending.slice(0, n);
    this.writing = Math.max(n, 1); // still writing (nothing, perhaps) until the adapter is done
    return this.inFlight.map((p) => p.set!);
  }

  /**
   * The adapter found others' writes ahead of the whole state it is storing, and holds its lock: apply them, run
   * every pending transaction again (the replacement stays first: it depends on nothing it read) and answer the
   * position to store it at, or null when it is no longer to be stored (a first save that found state).
   */
  protected rebaseWhole(missed: readonly CaughtUp[]): number | null {
    this.conflicted();
    const all = this.replay(missed);
    const head = this.pending[0];
    const stays = head !== undefined && head === all[0] && !!head.replacement;
    this.inFlight = stays ? [head] : [];
    this.writing = 1;
    return stays ? head.seq : null;
  }

  protected async retry(all: Pending[]): Promise<void> {
    try {
      this.catchUp(await this.adapter.changesSince!(this.committedSeq));
    } catch (err) {
      all.push(...this.pending);
      this.pending = [];
      this.layer.clear();
      this.lastSeq = this.committedSeq;
      this.writing = 0;
      for (const p of all) this.settle(p, 'failed', storageUnavailable(err));
      return;
    }
    // Transactions applied while catching up were built on the old state too: they run again as well.
    all.push(...this.pending);
    this.pending = [];
    this.layer.clear();
    this.lastSeq = this.committedSeq;
    this.writing = 0;
    for (const p of all) {
      if (++p.attempts >= MAX_ATTEMPTS) this.settle(p, 'failed', storageUnavailable(new ChangeSetConflict('the change kept conflicting with other writers')));
      else this.rerun(p);
    }
    this.pump();
  }
}
