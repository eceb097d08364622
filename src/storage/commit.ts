// The commit pipeline: transactions run on the newest state, their change sets queue and are stored in groups (group commit).
import type { ClockState, CollectionName, Settings } from '../schemas/index.js';
import { ChangeSetConflict, type ChangeSetAdapter } from './change-sets.js';
import { PendingLayer } from './pending.js';
import type { Writer } from './transaction.js';
import type { StoredState } from './state.js';
import { Transaction, type StateView } from './transaction.js';
import { TimeMemo, type TimeSource } from './clock.js';
import { storageUnavailable } from './unavailable.js';
import { StaleView, type CommitMeter, type PipelineOptions, type WriteObserver, type WriteScope } from './write-scope.js';
import { documentOf, NotADiff, type Pending, type SharedWrites } from './pending-write.js';

export { StaleView, type CommitMeter, type Optimism, type PipelineOptions, type WriteObserver, type WriteScope } from './write-scope.js';
export type { Pending, SharedWrites } from './pending-write.js';

/** The part members (sync.ts, replace.ts) work on are public and marked internal: the store's face (store.ts) is what others use. */
export class CommitPipeline<S extends SharedWrites = SharedWrites> implements StateView, Writer {
  /** @internal */ lastSeq: number;
  /** @internal */ readonly layer = new PendingLayer();
  /** @internal */ pending: Pending[] = [];
  /** @internal How many entries at the head of `pending` are being stored (-1: catching up after a conflict). */
  writing = 0;
  /** @internal The group being stored (replaced when the adapter rebases it). */
  inFlight: Pending[] = [];
  /** @internal Called when the group being stored settles (stored, refused or conflicting). */
  groupEnds: (() => void)[] = [];
  /** Multi-instance sync, made for this pipeline by the store (see store.ts). */
  readonly sync: S;
  private scope: WriteScope | undefined;
  /** When the group being stored was handed to the adapter (performance.now(); read only with a meter). */
  private groupStart = 0;
  private readonly observer: WriteObserver | undefined;
  private readonly meter: CommitMeter | undefined;
  /** @internal Real time, as its transactions' clock readings read it (and a whole-state replace's). */
  readonly time: TimeSource;
  /** @internal Shared by those readings. */
  readonly memo = new TimeMemo();

  constructor(
    readonly state: StoredState,
    readonly adapter: ChangeSetAdapter,
    options: PipelineOptions,
    sync: (pipeline: CommitPipeline<S>) => S,
  ) {
    this.observer = options.observer;
    this.meter = options.meter;
    this.time = options.time ?? Date.now;
    this.lastSeq = state.seq;
    this.sync = sync(this);
  }

  /** True when other instances may write the same storage (the adapter can list their change sets). */
  get shared(): boolean {
    return typeof this.adapter.changesSince === 'function';
  }

  // ---- what transactions read: the newest state, pending writes included ----
  /** @internal */ viewGet(c: CollectionName, key: string): unknown {
    return this.layer.get(this.state.maps, c, key);
  }
  /** @internal */ viewHas(c: CollectionName, key: string): boolean {
    return this.layer.has(this.state.maps, c, key);
  }
  /** @internal */ viewEntries(c: CollectionName): Iterable<[string, unknown]> {
    return this.layer.entries(this.state.maps, c);
  }
  /** @internal The newest state's clock (as transactions and the replace diff read it). */
  viewClock(): ClockState {
    return this.layer.clock(this.state.clockState);
  }
  /** @internal The newest state's settings. */
  newestSettings(): Settings {
    return this.layer.settings(this.state.settingsState);
  }
  /** @internal The keys that may hold `field` = `value` (committed ones by index, pending ones all); null: scan instead. */
  viewCandidates(c: CollectionName, field: string, value: unknown): Iterable<string> | null {
    const pending = this.layer.pendingKeys(c);
    if (pending === null) return null; // a whole state is on its way: no index describes it
    const committed = this.state.indexedKeys(c, field, value);
    if (!committed) return pending;
    return pending.length === 0 ? committed : [...committed, ...pending];
  }

  // ---- writes ----
  /** Runs `fn` as one transaction and resolves with its result once it is stored (StorageUnavailable if it could not be). */
  async transact<T>(fn: (tx: Transaction) => T): Promise<T> {
    const p = this.begin(fn, true);
    // Stored at once (memory): the answer still waits for the end of this turn of the event loop, so the answers of
    // every request that arrived in it go out together, as a group's do after its fdatasync (see docs/storage.md).
    if (p.state === 'stored') await this.endOfTurn();
    else await this.settled(p);
    return p.result as T;
  }

  private turn: Promise<void> | null = null;
  private endOfTurn(): Promise<void> {
    return (this.turn ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.turn = null;
        resolve();
      }),
    ));
  }

  /**
   * Runs `fn`, attributing the transactions it applies synchronously to `scope` (a request). A
   * transaction callback is synchronous, so no async context is needed: code that awaits before
   * committing wraps its commit in its own call.
   */
  attributeTo<T>(scope: WriteScope, fn: () => T): T {
    const outer = this.scope;
    this.scope = scope;
    try {
      return fn();
    } finally {
      this.scope = outer;
    }
  }

  /** Applies a transaction and starts storing it without waiting (memory storage stores it at once; `flush` waits). */
  apply<T>(fn: (tx: Transaction) => T): T {
    return this.begin(fn, true).result as T;
  }

  /** Resolves once everything applied so far is stored; throws StorageUnavailable if it was rolled back instead. */
  async flush(): Promise<void> {
    const last = this.pending[this.pending.length - 1];
    if (last) await this.settled(last);
  }

  private begin(fn: (tx: Transaction) => unknown, observe: boolean): Pending {
    // Others' writes arrived since an optimistic request began: what it read may be older than they are.
    const o = this.scope?.optimism;
    if (o && !o.valid && o.mark !== this.sync.foreignCount) throw new StaleView();
    const p: Pending = { fn, observe, scope: this.scope, seq: 0, attempts: 0, state: 'pending' };
    this.run(p);
    return p;
  }

  /** @internal Runs a pending transaction's callback on the newest state; an empty transaction is stored at once. */
  run(p: Pending): void {
    const tx = new Transaction(this, this.time, this.memo);
    try {
      p.scope?.guard?.(tx);
      p.result = p.fn!(tx);
    } catch (err) {
      if (!(err instanceof NotADiff) || !p.whole) throw err;
      p.replacement = p.whole();
      p.fn = p.whole = undefined;
      this.enqueue(p);
      return;
    }
    if (tx.empty) {
      // Settle, not only mark: a transaction run again after a conflict may have waiters (flush, transact).
      this.settle(p, 'stored');
      return;
    }
    p.set = tx.toChangeSet(this.lastSeq + 1);
    this.enqueue(p);
  }

  /** @internal */
  enqueue(p: Pending): Pending {
    p.seq = ++this.lastSeq;
    if (p.replacement) this.layer.addReplacement(p.seq, p.replacement);
    else if (p.set) this.layer.addSet(p.set.seq === p.seq ? p.set : (p.set = { ...p.set, seq: p.seq }));
    this.pending.push(p);
    this.pump();
    return p;
  }

  /** @internal Starts storing the next group: every pending change set up to the next replacement, or that replacement alone. */
  pump(): void {
    if (this.writing !== 0 || this.pending.length === 0) return;
    const first = this.pending[0];
    let n = 1;
    if (!first.replacement) while (n < this.pending.length && !this.pending[n].replacement) n++;
    this.inFlight = this.pending.slice(0, n);
    this.writing = n;
    if (this.meter) this.groupStart = performance.now();
    let done: void | Promise<void>;
    try {
      done = first.replacement
        ? this.adapter.replaceState && this.shared
          ? this.adapter.replaceState(documentOf(first), (missed) => this.sync.rebaseWhole(missed))
          : this.adapter.write(documentOf(first))
        : this.adapter.appendChangeSets(
            this.inFlight.map((p) => p.set!),
            this.state,
            this.shared ? (missed) => this.sync.rebase(missed) : undefined,
          );
    } catch (err) {
      this.failed(err);
      return;
    }
    if (done && typeof done.then === 'function')
      done.then(
        () => this.stored(this.inFlight),
        (err) => this.failed(err),
      );
    else this.stored(this.inFlight);
  }

  private stored(group: Pending[]): void {
    this.writing = 0;
    this.inFlight = [];
    this.pending.splice(0, group.length);
    this.sync.groupStored(group.length);
    this.meter?.commitGroup(group.length, (performance.now() - this.groupStart) / 1000);
    for (const p of group) {
      // Stored at the head this instance built on (a rebase would have refused it): nothing newer existed elsewhere.
      if (p.scope?.optimism) p.scope.optimism.valid = true;
      this.fold(p);
    }
    this.endGroup();
    this.pump();
  }

  /** @internal */
  endGroup(): void {
    const ends = this.groupEnds;
    this.groupEnds = [];
    for (const resolve of ends) resolve();
  }

  /** @internal Makes a stored change set (or replacement) visible to readers. */
  fold(p: Pending): void {
    if (p.replacement) this.state.foldWhole(p.replacement, p.seq);
    else if (p.set) this.state.foldSet(p.set, p.seq, p.observe && this.observer ? (c, before, after) => this.observer!(c, before, after, p.scope) : undefined);
    else this.state.committedSeq = p.seq;
    this.layer.stored(p.seq, p.set);
    this.settle(p, 'stored');
  }

  /** The group could not be stored: every pending transaction is rolled back (or, after a conflict, run again on the caught-up state). */
  private failed(err: unknown): void {
    const all = this.pending;
    this.pending = [];
    this.inFlight = [];
    this.layer.clear();
    this.lastSeq = this.state.seq;
    if (err instanceof ChangeSetConflict && this.adapter.changesSince) {
      this.conflicted();
      this.writing = -1;
      this.endGroup();
      void this.sync.retry(all);
      return;
    }
    this.writing = 0;
    const refusal = storageUnavailable(err);
    for (const p of all) this.settle(p, 'failed', refusal);
    this.endGroup();
  }

  /** @internal Runs a pending transaction again on the caught-up state (enqueueing it, or settling it when it now fails or is empty). */
  rerun(p: Pending): void {
    // Runs again only after others' change sets were applied: an optimistic request's view is then stale, so its
    // transaction is refused instead, and the request runs again from the start (it stored nothing).
    if (p.scope?.optimism && !p.scope.optimism.valid) {
      this.settle(p, 'failed', new StaleView());
      return;
    }
    this.meter?.rerun();
    if (p.replacement) {
      if (p.ifEmpty) {
        p.dropped = true; // another instance stored state first: that state stays
        this.settle(p, 'stored');
      } else this.enqueue(p);
      return;
    }
    try {
      this.run(p);
    } catch (err) {
      this.settle(p, 'failed', err);
    }
  }

  /** @internal Another writer of the same store moved its head first (counted; the caller catches up and runs again). */
  conflicted(): void {
    this.meter?.conflict();
  }

  /** @internal Resolves once `p` is stored; throws what refused it. */
  async settled(p: Pending): Promise<void> {
    if (p.state === 'pending') await new Promise<void>((resolve) => (p.waiters ??= []).push(resolve));
    if (p.state === 'failed') throw p.error;
  }

  /** @internal */
  settle(p: Pending, state: 'stored' | 'failed', error?: unknown): void {
    p.state = state;
    p.error = error;
    if (p.waiters) for (const resolve of p.waiters) resolve();
    p.waiters = undefined;
  }
}
