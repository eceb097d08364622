// The one store, assembled from its parts: the stored state (state.ts), the commit pipeline (commit.ts), multi-instance
// sync (sync.ts) and whole-state replace (replace.ts); this face lists everything the store does.
import type { ClockState, CollectionName, RecordOf, Settings, StateData } from '../schemas/index.js';
import { persistsChangeSets, type CommittedState, type StorageAdapter } from './change-sets.js';
import { CommitPipeline, type CommitMeter, type Optimism, type WriteObserver, type WriteScope } from './commit.js';
import { wholeDocument } from './lowdb-adapter.js';
import type { Maps } from './pending.js';
import type { ReadView } from './reader.js';
import { WholeStateWrites } from './replace.js';
import { mapsFromData, StoredState, type Snapshot } from './state.js';
import { SyncingState, type CaughtUpListener } from './sync.js';
import { ClockReading, type TimeSource } from './clock.js';
import type { StateView, Transaction, Writer } from './transaction.js';
import { storageUnavailable } from './unavailable.js';

export { Transaction } from './transaction.js';
export type { ReadView, RecordReader } from './reader.js';
export type { Writer } from './transaction.js';
export { type Snapshot } from './state.js';
export { StaleView, type Optimism, type WriteScope } from './commit.js';
export { StorageUnavailable } from './unavailable.js';

/** Who sees what the store does, given when it is built. */
export interface StoreOptions {
  /** Sees every stored record write with the scope it was made in (the coverage report derives transitions from it). */
  observer?: WriteObserver;
  /** Shared storage: sees what was applied from other instances (the simulation schedules their events). */
  onCaughtUp?: CaughtUpListener;
  /**
   * Start on record maps shared with every store started on the same state (a sandbox of a base): each collection's map
   * is copied at its first write, so creating a store copies nothing.
   */
  sharedBase?: boolean;
  /** Counts commit groups, conflicts and reruns (the server's metrics). */
  meter?: CommitMeter;
  /** Real time as the mock clock reads it in transactions (`tx.now()`); Date.now unless given. */
  time?: TimeSource;
}

/**
 * The store: what was stored (read by routes and the control surface), transactions over the newest state (the
 * domain's writes), catching up with other instances on shared storage, and whole-state replace.
 */
export class Store implements ReadView, CommittedState, StateView, Writer {
  private readonly state: StoredState;
  private readonly pipeline: CommitPipeline<SyncingState>;
  private readonly whole: WholeStateWrites;

  constructor(adapter: StorageAdapter, data: StateData, seq = 0, options: StoreOptions = {}) {
    this.state = new StoredState(data, seq, options.sharedBase);
    const changeSets = persistsChangeSets(adapter) ? adapter : wholeDocument(adapter);
    this.pipeline = new CommitPipeline(this.state, changeSets, options, (pipeline) => new SyncingState(pipeline, options.onCaughtUp));
    this.whole = new WholeStateWrites(this.pipeline);
  }

  /** @internal The storage it writes to (tests wait on the JSON file's background work through it). */
  get adapter(): StorageAdapter {
    return this.pipeline.adapter;
  }

  // ---- what was stored (state.ts) ----
  get<C extends CollectionName>(c: C, key: string): RecordOf<C> | undefined {
    return this.state.get(c, key);
  }
  has(c: CollectionName, key: string): boolean {
    return this.state.has(c, key);
  }
  values<C extends CollectionName>(c: C): IterableIterator<RecordOf<C>> {
    return this.state.values(c);
  }
  entries<C extends CollectionName>(c: C): IterableIterator<[string, RecordOf<C>]> {
    return this.state.entries(c);
  }
  count(c: CollectionName): number {
    return this.state.count(c);
  }
  /** The stored records whose `field` equals `value` (and match `pred`), through the field index. */
  where<C extends CollectionName, F extends keyof RecordOf<C> & string>(
    c: C,
    field: F,
    value: RecordOf<C>[F],
    pred?: (r: RecordOf<C>) => boolean,
  ): RecordOf<C>[] {
    return this.state.where(c, field, value, pred);
  }
  get clock(): ClockState {
    return this.state.clock;
  }
  get settings(): Settings {
    return this.state.settings;
  }
  /** The `seq` of the last stored change set. */
  get seq(): number {
    return this.state.seq;
  }
  /** A value derived from some collections (an index, a sorted list), rebuilt only after one of them changed. */
  derive<T>(name: string, deps: readonly CollectionName[], build: () => T): T {
    return this.state.derive(name, deps, build);
  }
  snapshot(): Snapshot {
    return this.state.snapshot();
  }
  /**
   * A snapshot, and "now" by the clock it holds, read from it as it is taken: when it was saved is the time of the
   * state it saves, never a clock read apart from it.
   */
  snapshotAt(): { snapshot: Snapshot; now: string } {
    const snapshot = this.state.snapshot();
    return { snapshot, now: new ClockReading(this.pipeline.time, snapshot).nowIso() };
  }
  toData(): StateData {
    return this.state.toData();
  }

  // ---- transactions (commit.ts) ----
  /** True when other instances may write the same storage (the adapter can list their change sets). */
  get shared(): boolean {
    return this.pipeline.shared;
  }
  /** Runs `fn` as one transaction and resolves with its result once it is stored (StorageUnavailable if it could not be). */
  transact<T>(fn: (tx: Transaction) => T): Promise<T> {
    return this.pipeline.transact(fn);
  }
  /** Applies a transaction and starts storing it without waiting (memory storage stores it at once; `flush` waits). */
  apply<T>(fn: (tx: Transaction) => T): T {
    return this.pipeline.apply(fn);
  }
  /** Runs `fn`, attributing the transactions it applies synchronously to `scope` (a request). */
  attributeTo<T>(scope: WriteScope, fn: () => T): T {
    return this.pipeline.attributeTo(scope, fn);
  }
  /** Resolves once everything applied so far is stored; throws StorageUnavailable if it was rolled back instead. */
  flush(): Promise<void> {
    return this.pipeline.flush();
  }
  /** @internal What a transaction reads (the newest state, pending writes included): a reader the simulation keeps. */
  viewGet(c: CollectionName, key: string): unknown {
    return this.pipeline.viewGet(c, key);
  }
  /** @internal */ viewHas(c: CollectionName, key: string): boolean {
    return this.pipeline.viewHas(c, key);
  }
  /** @internal */ viewEntries(c: CollectionName): Iterable<[string, unknown]> {
    return this.pipeline.viewEntries(c);
  }
  /** @internal */ viewCandidates(c: CollectionName, field: string, value: unknown): Iterable<string> | null {
    return this.pipeline.viewCandidates(c, field, value);
  }
  /** @internal */ viewClock(): ClockState {
    return this.pipeline.viewClock();
  }

  // ---- other instances (sync.ts) ----
  /** Shared storage: whether this instance does the work only one may do (fire simulated events); always true otherwise. */
  get leads(): boolean {
    return this.pipeline.sync.leads;
  }
  /** Shared storage: applies what other instances stored before this call (see SyncingState.sync). */
  sync(): Promise<void> {
    return this.pipeline.sync.sync();
  }
  /** Shared storage: lets a write request skip its catch-up while others have not been writing (see SyncingState.optimism). */
  optimism(): Optimism | null {
    return this.pipeline.sync.optimism();
  }
  /** Whether a request run under `o` saw every write acknowledged before it began (see SyncingState.confirm). */
  confirm(o: Optimism): Promise<boolean> {
    return this.pipeline.sync.confirm(o);
  }

  // ---- the whole state (replace.ts) and the storage's own ----
  /** Stores the whole state as it is (a store seeded from fixtures is saved before the first request). */
  save(options: { ifEmpty?: boolean } = {}): Promise<boolean> {
    return this.whole.save(options.ifEmpty);
  }

  /** Moves the mock clock to `clock` as one transaction. */
  async setClock(clock: ClockState): Promise<void> {
    await this.transact((tx) => tx.setClock(clock));
  }

  /** Restores a snapshot (which stays reusable) and stores it; resolves "now" as that write read it (see replace). */
  restore(s: Snapshot): Promise<string> {
    return this.whole.replaceWith({ maps: s.maps as Maps, clock: s.clock, settings: s.settings, copy: true });
  }

  /**
   * Replaces the whole state (a reset, a fixture load, an import): one transaction that never loses a race to others'
   * writes. Resolves the mock clock's "now" (ISO) as that write read it, on the clock it put in place.
   */
  replace(data: StateData): Promise<string> {
    return this.whole.replaceWith({ maps: mapsFromData(data), clock: data.clock, settings: data.settings, copy: false });
  }

  /** The state a reset returns to, when the storage keeps it for every instance (shared storage); else null. */
  async readResetState(): Promise<StateData | null> {
    if (!this.pipeline.adapter.readResetState) return null;
    try {
      return await this.pipeline.adapter.readResetState();
    } catch (err) {
      throw storageUnavailable(err);
    }
  }

  /** The storage's shared secret (shared storage only; see ChangeSetCapability.secret). */
  async secret(): Promise<string | undefined> {
    try {
      return await this.pipeline.adapter.secret?.();
    } catch (err) {
      throw storageUnavailable(err);
    }
  }

  /** Keeps `state` as what a reset returns to, for every instance (shared storage only). */
  async writeResetState(state: StateData): Promise<void> {
    try {
      await this.pipeline.adapter.writeResetState?.(state);
    } catch (err) {
      throw storageUnavailable(err);
    }
  }

  /** Waits for every write, then lets the adapter finish its own work (the JSON file compacts its log). */
  async close(): Promise<void> {
    await this.flush();
    await this.pipeline.adapter.close?.(this.state);
  }
}
