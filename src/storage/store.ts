// The one store: maps of immutable records, transactions that yield change sets, group commit, and readers that see only what is stored.
import { COLLECTION_NAMES, DATA_FILE_FORMAT, DATA_FILE_VERSION, PRIMARY_KEYS, type ClockState, type CollectionName, type DataFile, type RecordOf, type Settings, type StateData } from '../schemas/state.js';
import { ApiError } from '../errors.js';
import { sameJson } from '../json.js';
import { ChangeSetConflict, isWholeState, persistsChangeSets, type CaughtUp, type ChangeSet, type ChangeSetAdapter, type CommittedState, type StorageAdapter } from './change-sets.js';
import { wholeDocument } from './lowdb-adapter.js';
import { emptyMaps, PendingLayer, type Maps, type Replacement } from './pending.js';
import { FieldIndexes } from './field-index.js';
import { Transaction, type StateView } from './transaction.js';
import type { ReadView, Writer } from './reader.js';

export { Transaction } from './transaction.js';
export type { ReadView, RecordReader, Writer } from './reader.js';
export { emptyMaps, type Maps } from './pending.js';

/** An opaque, cheap snapshot: records are never mutated in place, so copying the maps is enough. */
export interface Snapshot {
  readonly maps: Readonly<Maps>;
  readonly clock: ClockState;
  readonly settings: Settings;
}

/** Whatever the caller wants committed writes attributed to (the coverage report passes a request's). */
export interface WriteScope {
  transitions?: string[];
  /** Shared storage: the request runs without catching up first (see `Store.optimism`). */
  optimism?: Optimism;
  /**
   * Runs first in each of the scope's transactions (and again whenever one runs again after a conflict): the
   * request's preconditions (authority, the project's state) checked on what the transaction reads. Throwing refuses it.
   */
  guard?: (tx: Transaction) => void;
}

/**
 * A request that runs on what this instance holds, without catching up first: `mark` is the count of others' change
 * sets applied when it began. It becomes `valid` once one of its transactions is stored (the append's compare-and-set
 * proves that no other instance had committed anything newer) or a catch-up that began after it finds nothing.
 */
export interface Optimism {
  readonly mark: number;
  valid: boolean;
}

/** Refuses a transaction of a request whose view may have missed others' writes: the request runs again after catching up. */
export class StaleView extends Error {
  constructor() {
    super('another instance wrote while this request ran on what it had');
    this.name = 'StaleView';
  }
}

/** A transaction (or a replacement) on its way to storage. */
interface Pending {
  fn?: (tx: Transaction) => unknown;
  replacement?: Replacement;
  /** A whole-state replace tried as a change set: what it stores instead when, run again, it is no longer one. */
  whole?: () => Replacement;
  /** The first save of a seeded state: when shared storage already holds state, that state is kept instead. */
  ifEmpty?: boolean;
  observe: boolean;
  scope: WriteScope | undefined;
  seq: number;
  set?: ChangeSet;
  result?: unknown;
  attempts: number;
  state: 'pending' | 'stored' | 'failed';
  error?: unknown;
  /** An `ifEmpty` save that found state already stored. */
  dropped?: boolean;
  waiters?: (() => void)[];
}

const MAX_ATTEMPTS = 5; // a change set that keeps conflicting is refused
/** Own change sets stored since others' last one before write requests skip their catch-up (see `optimism`). */
const OPTIMISM_AFTER = 16;

export function mapsFromData(data: StateData): Maps {
  const maps = emptyMaps();
  for (const c of COLLECTION_NAMES) {
    const key = PRIMARY_KEYS[c] as (r: unknown) => string;
    const m = maps[c] as Map<string, unknown>;
    for (const r of data[c] as unknown[]) m.set(key(r), r);
  }
  return maps;
}

export class Store implements CommittedState, StateView, ReadView, Writer {
  private maps: Maps;
  private clockState: ClockState;
  private settingsState: Settings;
  private committedSeq: number;
  private lastSeq: number;
  private readonly adapter: ChangeSetAdapter;
  private readonly layer = new PendingLayer();
  private pending: Pending[] = [];
  /** How many entries at the head of `pending` are being stored (-1: catching up after a conflict). */
  private writing = 0;
  /** The group being stored (replaced when the adapter rebases it). */
  private inFlight: Pending[] = [];
  /** Called when the group being stored settles (stored, refused or conflicting). */
  private groupEnds: (() => void)[] = [];
  /** Shared storage: the look at the storage on its way, and the one queued behind it. */
  private looking: Promise<void> | null = null;
  private nextLook: Promise<void> | null = null;
  private watchTimer: NodeJS.Timeout | null = null;
  /** Shared storage: how many of others' change sets (or whole states) were applied, and own change sets stored since the last. */
  private foreignApplied = 0;
  private ownSinceForeign = 0;
  private readonly versions = new Map<string, number>();
  private readonly derived = new Map<string, { stamp: string; value: unknown }>();
  private readonly indexes = new FieldIndexes((c) => this.maps[c].entries());
  /** Shared storage: sees what was applied from other instances (change sets, or a whole state). */
  onCaughtUp: ((found: readonly CaughtUp[]) => void) | null = null;
  /** Sees every stored record write (before, after; undefined = absent) with the scope it was made in: the coverage report derives transitions from it. */
  observer: ((c: CollectionName, before: unknown, after: unknown, scope: WriteScope | undefined) => void) | null = null;
  private scope: WriteScope | undefined;

  constructor(adapter: StorageAdapter, data: StateData, seq = 0) {
    this.adapter = persistsChangeSets(adapter) ? adapter : wholeDocument(adapter);
    this.maps = mapsFromData(data);
    this.clockState = data.clock;
    this.settingsState = data.settings;
    this.committedSeq = this.lastSeq = seq;
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

  // ---- reads (stored state only) ----
  get<C extends CollectionName>(c: C, key: string): RecordOf<C> | undefined {
    return this.maps[c].get(key);
  }
  has(c: CollectionName, key: string): boolean {
    return this.maps[c].has(key);
  }
  values<C extends CollectionName>(c: C): IterableIterator<RecordOf<C>> {
    return this.maps[c].values();
  }
  entries<C extends CollectionName>(c: C): IterableIterator<[string, RecordOf<C>]> {
    return this.maps[c].entries();
  }
  count(c: CollectionName): number {
    return this.maps[c].size;
  }
  /** The stored records whose `field` equals `value` (and match `pred`), through the field index. */
  where<C extends CollectionName, F extends keyof RecordOf<C> & string>(c: C, field: F, value: RecordOf<C>[F], pred: (r: RecordOf<C>) => boolean = () => true): RecordOf<C>[] {
    const out: RecordOf<C>[] = [];
    const keys = this.indexes.keys(c, field, value) ?? this.maps[c].keys();
    for (const key of keys) {
      const r = this.maps[c].get(key);
      if (r !== undefined && ((r as Record<string, unknown>)[field] ?? null) === (value ?? null) && pred(r)) out.push(r);
    }
    return out;
  }
  get clock(): ClockState {
    return this.clockState;
  }
  get settings(): Settings {
    return this.settingsState;
  }
  /** The `seq` of the last stored change set. */
  get seq(): number {
    return this.committedSeq;
  }

  // ---- what transactions read: the newest state, pending writes included ----
  /** @internal */ viewGet(c: CollectionName, key: string): unknown {
    return this.layer.get(this.maps, c, key);
  }
  /** @internal */ viewHas(c: CollectionName, key: string): boolean {
    return this.layer.has(this.maps, c, key);
  }
  /** @internal */ viewEntries(c: CollectionName): Iterable<[string, unknown]> {
    return this.layer.entries(this.maps, c);
  }
  /** @internal The keys that may hold `field` = `value` (committed ones by index, pending ones all); null: scan instead. */
  viewCandidates(c: CollectionName, field: string, value: unknown): Iterable<string> | null {
    const pending = this.layer.pendingKeys(c);
    if (pending === null) return null; // a whole state is on its way: no index describes it
    const committed = this.indexes.keys(c, field, value);
    if (!committed) return pending;
    return pending.length === 0 ? committed : [...committed, ...pending];
  }

  /**
   * A value derived from some collections (an index, a sorted list), rebuilt only after one of
   * them changed: list endpoints then cost the same at any depth.
   */
  derive<T>(name: string, deps: readonly CollectionName[], build: () => T): T {
    const stamp = deps.map((d) => this.versions.get(d) ?? 0).join(',');
    const hit = this.derived.get(name);
    if (hit && hit.stamp === stamp) return hit.value as T;
    const value = build();
    this.derived.set(name, { stamp, value });
    return value;
  }

  // ---- writes ----
  /** Runs `fn` as one transaction and resolves with its result once it is stored (503 `storage_unavailable` if it could not be). */
  async transact<T>(fn: (tx: Transaction) => T): Promise<T> {
    const p = this.begin(fn, true);
    await this.settled(p);
    return p.result as T;
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

  /** Stores the whole state as it is (a store seeded from fixtures is saved before the first request). */
  async save(options: { ifEmpty?: boolean } = {}): Promise<boolean> {
    await this.flush();
    const p = this.enqueue({ replacement: { maps: this.maps, clock: this.clockState, settings: this.settingsState }, ifEmpty: options.ifEmpty, observe: false, scope: undefined, seq: 0, attempts: 0, state: 'pending' });
    await this.settled(p);
    return !p.dropped;
  }

  /** The state a reset returns to, when the storage keeps it for every instance (shared storage); else null. */
  async readResetState(): Promise<StateData | null> {
    if (!this.adapter.readResetState) return null;
    try {
      return await this.adapter.readResetState();
    } catch (err) {
      throw storageUnavailable(err);
    }
  }

  /** The storage's shared secret (shared storage only; see ChangeSetCapability.secret). */
  async secret(): Promise<string | undefined> {
    try {
      return await this.adapter.secret?.();
    } catch (err) {
      throw storageUnavailable(err);
    }
  }

  /** Keeps `state` as what a reset returns to, for every instance (shared storage only). */
  async writeResetState(state: StateData): Promise<void> {
    try {
      await this.adapter.writeResetState?.(state);
    } catch (err) {
      throw storageUnavailable(err);
    }
  }

  async setClock(clock: ClockState): Promise<void> {
    await this.transact((tx) => tx.setClock(clock));
  }

  snapshot(): Snapshot {
    const maps = emptyMaps() as Record<CollectionName, Map<string, unknown>>;
    for (const c of COLLECTION_NAMES) maps[c] = new Map(this.maps[c] as Map<string, unknown>);
    return { maps: maps as unknown as Maps, clock: this.clockState, settings: this.settingsState };
  }

  /** Restores a snapshot (which stays reusable) and stores it. */
  async restore(s: Snapshot): Promise<void> {
    await this.replaceWith(s.maps as Maps, s.clock, s.settings, true);
  }

  async replace(data: StateData): Promise<void> {
    await this.replaceWith(mapsFromData(data), data.clock, data.settings, false);
  }

  toData(): StateData {
    const data = { clock: this.clockState, settings: this.settingsState } as Record<string, unknown>;
    for (const c of COLLECTION_NAMES) data[c] = Array.from((this.maps[c] as Map<string, unknown>).values());
    return data as StateData;
  }

  /** Resolves once everything applied so far is stored; throws 503 `storage_unavailable` if it was rolled back instead. */
  async flush(): Promise<void> {
    const last = this.pending[this.pending.length - 1];
    if (last) await this.settled(last);
  }

  /** Waits for every write, then lets the adapter finish its own work (the JSON file compacts its log). */
  async close(): Promise<void> {
    await this.flush();
    await this.adapter.close?.(this);
  }

  /** True when other instances may write the same storage (the adapter can list their change sets). */
  get shared(): boolean {
    return typeof this.adapter.changesSince === 'function';
  }

  /** Shared storage: whether this instance does the work only one may do (fire simulated events); always true otherwise. */
  get leads(): boolean {
    return this.adapter.leads?.() ?? true;
  }

  /**
   * Shared storage: applies what other instances stored before this call (call it before answering a request;
   * 503 `storage_unavailable` when the storage cannot be read). Concurrent callers share looks: a caller joins the
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
        this.fold({ replacement: { maps, clock: item.state.clock, settings: item.state.settings }, seq, observe: false, scope: undefined, attempts: 0, state: 'pending' });
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

  // ---- group commit ----
  /**
   * Turns the newest state into `target`, records in the target's order: one change set when that is
   * possible (records that stay keep their order, new ones come last) and smaller than the target
   * itself; otherwise a whole replacement.
   */
  private async replaceWith(target: Maps, clock: ClockState, settings: Settings, copy: boolean): Promise<void> {
    let total = 0;
    for (const c of COLLECTION_NAMES) total += target[c].size;
    const diff = (tx: Transaction) => {
      for (const c of COLLECTION_NAMES) {
        const want = target[c] as Map<string, unknown>;
        const order = want.keys();
        for (const [key, r] of this.viewEntries(c)) {
          if (!want.has(key)) {
            tx.delete(c, key);
            continue;
          }
          if (order.next().value !== key) throw new NotADiff(); // a record would move
          if (want.get(key) !== r) tx.put(c, want.get(key) as never);
        }
        for (let next = order.next(); !next.done; next = order.next()) tx.put(c, want.get(next.value) as never);
        if (tx.size > total) throw new NotADiff();
      }
      if (!sameJson(this.layer.clock(this.clockState), clock)) tx.setClock(clock);
      if (!sameJson(this.layer.settings(this.settingsState), settings)) tx.setSettings(settings);
    };
    const whole = (): Replacement => ({ maps: copy ? (Object.fromEntries(COLLECTION_NAMES.map((c) => [c, new Map(target[c] as Map<string, unknown>)])) as unknown as Maps) : target, clock, settings });
    // It depends on nothing it read: run again after others' writes, it is a diff against theirs, or the whole state.
    const p: Pending = { fn: diff, whole, observe: false, scope: undefined, seq: 0, attempts: 0, state: 'pending' };
    this.run(p);
    await this.settled(p);
  }

  private begin(fn: (tx: Transaction) => unknown, observe: boolean): Pending {
    // Others' writes arrived since an optimistic request began: what it read may be older than they are.
    const o = this.scope?.optimism;
    if (o && !o.valid && o.mark !== this.foreignApplied) throw new StaleView();
    const p: Pending = { fn, observe, scope: this.scope, seq: 0, attempts: 0, state: 'pending' };
    this.run(p);
    return p;
  }

  /** Runs a pending transaction's callback on the newest state; an empty transaction is stored at once. */
  private run(p: Pending): void {
    const tx = new Transaction(this);
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

  private enqueue(p: Pending): Pending {
    p.seq = ++this.lastSeq;
    if (p.replacement) this.layer.addReplacement(p.seq, p.replacement);
    else if (p.set) this.layer.addSet(p.set.seq === p.seq ? p.set : (p.set = { ...p.set, seq: p.seq }));
    this.pending.push(p);
    this.pump();
    return p;
  }

  /** Starts storing the next group: every pending change set up to the next replacement, or that replacement alone. */
  private pump(): void {
    if (this.writing !== 0 || this.pending.length === 0) return;
    const first = this.pending[0];
    let n = 1;
    if (!first.replacement) while (n < this.pending.length && !this.pending[n].replacement) n++;
    this.inFlight = this.pending.slice(0, n);
    this.writing = n;
    let done: void | Promise<void>;
    try {
      done = first.replacement
        ? this.adapter.replaceState && this.shared
          ? this.adapter.replaceState(this.documentOf(first), (missed) => this.rebaseWhole(missed))
          : this.adapter.write(this.documentOf(first))
        : this.adapter.appendChangeSets(
            this.inFlight.map((p) => p.set!),
            this,
            this.shared ? (missed) => this.rebase(missed) : undefined,
          );
    } catch (err) {
      this.failed(err);
      return;
    }
    if (done && typeof done.then === 'function') done.then(() => this.stored(this.inFlight), (err) => this.failed(err));
    else this.stored(this.inFlight);
  }

  /**
   * The adapter lost a race and still holds its lock: apply what it missed, run every pending transaction again
   * on it (as a conflict would, but without letting go), and hand back the group to store now.
   */
  private rebase(missed: readonly CaughtUp[]): readonly ChangeSet[] {
    this.catchUp(missed); // throwing refuses the group (and everything pending) as storage that failed
    const all = this.pending;
    this.pending = [];
    this.layer.clear();
    this.lastSeq = this.committedSeq;
    for (const p of all) this.rerun(p);
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
  private rebaseWhole(missed: readonly CaughtUp[]): number | null {
    this.catchUp(missed);
    const all = this.pending;
    this.pending = [];
    this.layer.clear();
    this.lastSeq = this.committedSeq;
    for (const p of all) this.rerun(p);
    const head = this.pending[0];
    const stays = head !== undefined && head === all[0] && !!head.replacement;
    this.inFlight = stays ? [head] : [];
    this.writing = 1;
    return stays ? head.seq : null;
  }

  /** Runs a pending transaction again on the caught-up state (enqueueing it, or settling it when it now fails or is empty). */
  private rerun(p: Pending): void {
    // Runs again only after others' change sets were applied: an optimistic request's view is then stale, so its
    // transaction is refused instead, and the request runs again from the start (it stored nothing).
    if (p.scope?.optimism && !p.scope.optimism.valid) {
      this.settle(p, 'failed', new StaleView());
      return;
    }
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

  private documentOf(p: Pending): DataFile {
    const r = p.replacement!;
    const state = { clock: r.clock, settings: r.settings } as Record<string, unknown>;
    for (const c of COLLECTION_NAMES) state[c] = Array.from((r.maps[c] as Map<string, unknown>).values());
    return { format: DATA_FILE_FORMAT, format_version: DATA_FILE_VERSION, seq: p.seq, state: state as StateData };
  }

  private stored(group: Pending[]): void {
    this.writing = 0;
    this.inFlight = [];
    this.pending.splice(0, group.length);
    this.ownSinceForeign += group.length;
    for (const p of group) {
      // Stored at the head this instance built on (a rebase would have refused it): nothing newer existed elsewhere.
      if (p.scope?.optimism) p.scope.optimism.valid = true;
      this.fold(p);
    }
    this.endGroup();
    this.pump();
  }

  private endGroup(): void {
    const ends = this.groupEnds;
    this.groupEnds = [];
    for (const resolve of ends) resolve();
  }

  /** Makes a stored change set (or replacement) visible to readers. */
  private fold(p: Pending): void {
    if (p.replacement) {
      this.maps = p.replacement.maps;
      this.indexes.clear();
      this.clockState = p.replacement.clock;
      this.settingsState = p.replacement.settings;
      for (const c of COLLECTION_NAMES) this.bump(c);
    } else if (p.set) {
      for (const ch of p.set.changes) {
        const m = this.maps[ch.collection] as Map<string, unknown>;
        const before = m.get(ch.key);
        if (p.observe) this.observer?.(ch.collection, before, ch.record ?? undefined, p.scope);
        this.indexes.change(ch.collection, ch.key, before, ch.record ?? undefined);
        if (ch.record === null) m.delete(ch.key);
        else m.set(ch.key, ch.record);
        this.bump(ch.collection);
      }
      if (p.set.clock) this.clockState = p.set.clock;
      if (p.set.settings) this.settingsState = p.set.settings;
    }
    this.committedSeq = p.seq;
    this.layer.stored(p.seq, p.set);
    this.settle(p, 'stored');
  }

  /** The group could not be stored: every pending transaction is rolled back (or, after a conflict, run again on the caught-up state). */
  private failed(err: unknown): void {
    const all = this.pending;
    this.pending = [];
    this.inFlight = [];
    this.layer.clear();
    this.lastSeq = this.committedSeq;
    if (err instanceof ChangeSetConflict && this.adapter.changesSince) {
      this.writing = -1;
      this.endGroup();
      void this.retry(all);
      return;
    }
    this.writing = 0;
    const refusal = storageUnavailable(err);
    for (const p of all) this.settle(p, 'failed', refusal);
    this.endGroup();
  }

  private async retry(all: Pending[]): Promise<void> {
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

  private async settled(p: Pending): Promise<void> {
    if (p.state === 'pending') await new Promise<void>((resolve) => (p.waiters ??= []).push(resolve));
    if (p.state === 'failed') throw p.error;
  }

  private settle(p: Pending, state: 'stored' | 'failed', error?: unknown): void {
    p.state = state;
    p.error = error;
    if (p.waiters) for (const resolve of p.waiters) resolve();
    p.waiters = undefined;
  }

  private bump(c: CollectionName): void {
    this.versions.set(c, (this.versions.get(c) ?? 0) + 1);
  }
}

class NotADiff extends Error {}
const noop = () => {};

/** The answer to a write that could not be stored: 503, and never a file path or a storage message. */
function storageUnavailable(cause: unknown): ApiError {
  const err = new ApiError('storage_unavailable');
  (err as { cause?: unknown }).cause = cause;
  return err;
}
