// The one store: in-memory maps of immutable records, applied a transaction at a time, persisted by group commit.
import type { Adapter } from 'lowdb';
import {
  COLLECTION_NAMES,
  DATA_FILE_FORMAT,
  DATA_FILE_VERSION,
  PRIMARY_KEYS,
  type ClockState,
  type CollectionName,
  type DataFile,
  type RecordOf,
  type Settings,
  type StateData,
} from '../schemas/state.js';
import { ApiError } from '../errors.js';

type Maps = { [C in CollectionName]: Map<string, RecordOf<C>> };

/** An opaque, cheap snapshot: records are never mutated in place, so copying the maps is enough. */
export interface Snapshot {
  readonly maps: Readonly<Maps>;
  readonly clock: ClockState;
  readonly settings: Settings;
}

const DELETED = Symbol('deleted');

/** Whatever the caller wants committed writes attributed to (the coverage report passes a request's). */
export interface WriteScope {
  transitions?: string[];
}

/**
 * A unit of work. Reads see the transaction's own writes; nothing reaches the store until the
 * callback returns, so a callback that throws leaves stored state exactly as it was.
 */
export class Transaction {
  private readonly writes = new Map<CollectionName, Map<string, unknown>>();
  constructor(private readonly store: Store) {}

  get<C extends CollectionName>(c: C, key: string): RecordOf<C> | undefined {
    const own = this.writes.get(c)?.get(key);
    if (own === DELETED) return undefined;
    if (own !== undefined) return own as RecordOf<C>;
    return this.store.get(c, key);
  }

  put<C extends CollectionName>(c: C, record: RecordOf<C>): RecordOf<C> {
    this.overlay(c).set(PRIMARY_KEYS[c](record), record);
    return record;
  }

  delete<C extends CollectionName>(c: C, key: string): void {
    this.overlay(c).set(key, DELETED);
  }

  /** Every record of a collection matching `pred`, with this transaction's writes applied. */
  filter<C extends CollectionName>(c: C, pred: (r: RecordOf<C>) => boolean): RecordOf<C>[] {
    const own = this.writes.get(c);
    const out: RecordOf<C>[] = [];
    for (const [key, rec] of this.store.entries(c)) {
      const r = own?.has(key) ? own.get(key) : rec;
      if (r !== DELETED && pred(r as RecordOf<C>)) out.push(r as RecordOf<C>);
    }
    if (own) for (const [key, r] of own) if (r !== DELETED && !this.store.has(c, key) && pred(r as RecordOf<C>)) out.push(r as RecordOf<C>);
    return out;
  }

  get empty(): boolean {
    return this.writes.size === 0;
  }

  /** @internal */
  changes(): Map<CollectionName, Map<string, unknown>> {
    return this.writes;
  }

  private overlay(c: CollectionName): Map<string, unknown> {
    let m = this.writes.get(c);
    if (!m) this.writes.set(c, (m = new Map()));
    return m;
  }
}

export function emptyMaps(): Maps {
  return Object.fromEntries(COLLECTION_NAMES.map((c) => [c, new Map()])) as unknown as Maps;
}

export function mapsFromData(data: StateData): Maps {
  const maps = emptyMaps();
  for (const c of COLLECTION_NAMES) {
    const key = PRIMARY_KEYS[c] as (r: unknown) => string;
    const m = maps[c] as Map<string, unknown>;
    for (const r of data[c] as unknown[]) m.set(key(r), r);
  }
  return maps;
}

export class Store {
  private maps: Maps;
  private clockState: ClockState;
  private settingsState: Settings;
  private readonly versions = new Map<string, number>();
  private readonly derived = new Map<string, { stamp: string; value: unknown }>();
  private seq = 0;
  private persistedSeq = 0;
  private flushing: Promise<void> | null = null;
  /** Sees every committed record write (before, after; undefined = absent) with the scope it was made in: the coverage report derives transitions from it. */
  observer: ((c: CollectionName, before: unknown, after: unknown, scope: WriteScope | undefined) => void) | null = null;
  private scope: WriteScope | undefined;

  constructor(
    private readonly adapter: Adapter<DataFile>,
    data: StateData,
  ) {
    this.maps = mapsFromData(data);
    this.clockState = data.clock;
    this.settingsState = data.settings;
  }

  // ---- reads (committed state) ----
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
  get clock(): ClockState {
    return this.clockState;
  }
  get settings(): Settings {
    return this.settingsState;
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
  /** Runs `fn` as one transaction, applies it at once, and resolves when it is persisted. */
  async transact<T>(fn: (tx: Transaction) => T): Promise<T> {
    const result = this.apply(fn);
    await this.flush();
    return result;
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

  /** Applies a transaction in memory without waiting for persistence (the caller flushes). */
  apply<T>(fn: (tx: Transaction) => T): T {
    const tx = new Transaction(this);
    const result = fn(tx);
    if (!tx.empty) {
      for (const [c, writes] of tx.changes()) {
        const m = this.maps[c] as Map<string, unknown>;
        for (const [key, r] of writes) {
          this.observer?.(c, m.get(key), r === DELETED ? undefined : r, this.scope);
          if (r === DELETED) m.delete(key);
          else m.set(key, r);
        }
        this.bump(c);
      }
      this.seq++;
    }
    return result;
  }

  /** Writes the whole state now (a store seeded from fixtures is saved before the first request). */
  async save(): Promise<void> {
    this.seq++;
    await this.flush();
  }

  async setClock(clock: ClockState): Promise<void> {
    this.clockState = clock;
    this.seq++;
    await this.flush();
  }

  snapshot(): Snapshot {
    const maps = emptyMaps() as Record<CollectionName, Map<string, unknown>>;
    for (const c of COLLECTION_NAMES) maps[c] = new Map(this.maps[c] as Map<string, unknown>);
    return { maps: maps as unknown as Maps, clock: this.clockState, settings: this.settingsState };
  }

  /** Restores a snapshot (which stays reusable) and persists it. */
  async restore(s: Snapshot): Promise<void> {
    const maps = emptyMaps() as Record<CollectionName, Map<string, unknown>>;
    for (const c of COLLECTION_NAMES) maps[c] = new Map(s.maps[c] as Map<string, unknown>);
    this.maps = maps as unknown as Maps;
    this.clockState = s.clock;
    this.settingsState = s.settings;
    for (const c of COLLECTION_NAMES) this.bump(c);
    this.seq++;
    await this.flush();
  }

  async replace(data: StateData): Promise<void> {
    this.maps = mapsFromData(data);
    this.clockState = data.clock;
    this.settingsState = data.settings;
    for (const c of COLLECTION_NAMES) this.bump(c);
    this.seq++;
    await this.flush();
  }

  toData(): StateData {
    const data = { clock: this.clockState, settings: this.settingsState } as Record<string, unknown>;
    for (const c of COLLECTION_NAMES) data[c] = Array.from((this.maps[c] as Map<string, unknown>).values());
    return data as StateData;
  }

  /**
   * Group commit: every transaction applied before a write starts shares that write, so N
   * concurrent requests cost one serialization, and each caller resumes once its change is stored.
   */
  async flush(): Promise<void> {
    const target = this.seq;
    while (this.persistedSeq < target) {
      if (!this.flushing) {
        this.flushing = this.writeOnce().finally(() => {
          this.flushing = null;
        });
      }
      try {
        await this.flushing;
      } catch (err) {
        throw new ApiError('storage_write_failed', { message: `The data could not be persisted: ${(err as Error).message}` });
      }
    }
  }

  private async writeOnce(): Promise<void> {
    const upTo = this.seq;
    await this.adapter.write({ format: DATA_FILE_FORMAT, format_version: DATA_FILE_VERSION, state: this.toData() });
    this.persistedSeq = upTo;
  }

  private bump(c: CollectionName): void {
    this.versions.set(c, (this.versions.get(c) ?? 0) + 1);
  }
}
