// A unit of work over the store's newest state (committed plus pending), and the change set it yields.
import { PRIMARY_KEYS, type ClockState, type CollectionName, type RecordOf, type Settings } from '../schemas/index.js';
import type { Change, ChangeSet } from './change-sets.js';
import type { RecordReader } from './reader.js';
import { ClockReading, type TimeMemo, type TimeSource } from './clock.js';

export const DELETED = Symbol('deleted');

/** What a transaction reads: the newest state, including transactions applied but not yet stored. */
export interface StateView {
  viewGet(c: CollectionName, key: string): unknown;
  viewEntries(c: CollectionName): Iterable<[string, unknown]>;
  viewHas(c: CollectionName, key: string): boolean;
  /** The clock state of the newest state. */
  viewClock(): ClockState;
  /** Keys that may hold `field` = `value` (a superset); null when only a scan can tell. */
  viewCandidates?(c: CollectionName, field: string, value: unknown): Iterable<string> | null;
}

/**
 * A unit of work. Reads see the transaction's own writes; nothing reaches the store until the
 * callback returns, so a callback that throws leaves stored state exactly as it was.
 */
export class Transaction implements RecordReader {
  /** By collection; made at the first write (the simulation keeps a transaction it never writes to as its reader). */
  private writes: Map<CollectionName, Map<string, unknown>> | undefined;
  private newClock: ClockState | undefined;
  private newSettings: Settings | undefined;
  private reading: ClockReading | undefined;
  constructor(
    private readonly view: StateView,
    /** Real time, as the mock clock reads it (Date.now unless the mock was given its own). */
    private readonly source: TimeSource = Date.now,
    /** The store's memo of the instants its clock read last (a transaction of its own when not given). */
    private readonly memo?: TimeMemo,
  ) {}

  /**
   * The mock clock as this transaction sees it: the newest state's, or what this transaction set. A write reads
   * time here and nowhere else, so when it runs again after another instance moved the clock, it reads the moved clock.
   */
  get clock(): ClockState {
    return this.newClock ?? this.view.viewClock();
  }

  /** The mock clock's reading in this transaction's view (its source and state; see `now`). */
  get time(): ClockReading {
    return (this.reading ??= new ClockReading(this.source, this, this.memo));
  }

  /** "Now" by the mock clock, as an ISO datetime: what a write stamps. */
  now(): string {
    return this.time.nowIso();
  }

  /** "Now" by the mock clock, in epoch ms. */
  nowMs(): number {
    return this.time.nowMs();
  }

  get<C extends CollectionName>(c: C, key: string): RecordOf<C> | undefined {
    const own = this.writes?.get(c)?.get(key);
    if (own === DELETED) return undefined;
    if (own !== undefined) return own as RecordOf<C>;
    return this.view.viewGet(c, key) as RecordOf<C> | undefined;
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
    const own = this.writes?.get(c);
    const out: RecordOf<C>[] = [];
    for (const [key, rec] of this.view.viewEntries(c)) {
      const r = own?.has(key) ? own.get(key) : rec;
      if (r !== DELETED && pred(r as RecordOf<C>)) out.push(r as RecordOf<C>);
    }
    if (own) for (const [key, r] of own) if (r !== DELETED && !this.view.viewHas(c, key) && pred(r as RecordOf<C>)) out.push(r as RecordOf<C>);
    return out;
  }

  /**
   * The records whose `field` equals `value` (and match `pred`), with this transaction's writes applied: what
   * `filter` finds, but through the store's field index, so it costs what it finds rather than the collection.
   */
  where<C extends CollectionName, F extends keyof RecordOf<C> & string>(
    c: C,
    field: F,
    value: RecordOf<C>[F],
    pred: (r: RecordOf<C>) => boolean = () => true,
  ): RecordOf<C>[] {
    const match = (r: RecordOf<C>) => ((r as Record<string, unknown>)[field] ?? null) === (value ?? null) && pred(r);
    const candidates = this.view.viewCandidates?.(c, field, value);
    if (!candidates) return this.filter(c, match);
    const seen = new Set<string>();
    const out: RecordOf<C>[] = [];
    const consider = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      const r = this.get(c, key);
      if (r !== undefined && match(r)) out.push(r);
    };
    for (const key of candidates) consider(key);
    const own = this.writes?.get(c);
    if (own) for (const key of own.keys()) consider(key);
    return out;
  }

  /** Moves the mock clock as part of this transaction. */
  setClock(clock: ClockState): void {
    this.newClock = clock;
  }

  /** @internal */
  setSettings(settings: Settings): void {
    this.newSettings = settings;
  }

  get empty(): boolean {
    return this.writes === undefined && this.newClock === undefined && this.newSettings === undefined;
  }

  /** How many records this transaction writes or deletes. */
  get size(): number {
    let n = 0;
    if (this.writes) for (const m of this.writes.values()) n += m.size;
    return n;
  }

  /** What this transaction changes, as the change set at position `seq`. */
  toChangeSet(seq: number): ChangeSet {
    const changes: Change[] = [];
    for (const [collection, m] of this.writes ?? []) {
      for (const [key, r] of m) changes.push({ collection, key, record: r === DELETED ? null : r } as Change);
    }
    const set: { seq: number; changes: Change[]; clock?: ClockState; settings?: Settings } = { seq, changes };
    if (this.newClock !== undefined) set.clock = this.newClock;
    if (this.newSettings !== undefined) set.settings = this.newSettings;
    return set;
  }

  private overlay(c: CollectionName): Map<string, unknown> {
    const writes = (this.writes ??= new Map());
    let m = writes.get(c);
    if (!m) writes.set(c, (m = new Map()));
    return m;
  }
}

/**
 * What the domain's writes get: transactions, and no way to read stored state around them. Inside a write, every
 * read goes through its transaction, which sees the newest state (writes still being stored included); the stored
 * state alone may be older, and a write that read it would lose others' acknowledged updates.
 */
export interface Writer {
  transact<T>(fn: (tx: Transaction) => T): Promise<T>;
}
