// The stored state: maps of immutable records, their field indexes and derived read views, and folding what was stored into them.
import { COLLECTION_NAMES, PRIMARY_KEYS, type ClockState, type CollectionName, type RecordOf, type Settings, type StateData } from '../schemas/index.js';
import type { ChangeSet, CommittedState } from './change-sets.js';
import { FieldIndexes } from './field-index.js';
import { emptyMaps, type Maps, type Replacement } from './pending.js';
import type { ReadView } from './reader.js';

/** An opaque, cheap snapshot: records are never mutated in place, so copying the maps is enough. */
export interface Snapshot {
  readonly maps: Readonly<Maps>;
  readonly clock: ClockState;
  readonly settings: Settings;
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

/** Maps built once per record array and shared by every store started on it (the sandboxes of one base); never written. */
const sharedMaps = new WeakMap<readonly unknown[], Map<string, unknown>>();
const SHARED = new WeakSet<Map<string, unknown>>();

/**
 * The maps of `data`'s records, shared with every other store started on the same arrays: a store copies a collection's
 * map at its first write to it (copy-on-write), so a thousand sandboxes of one base hold its records once.
 */
function sharedMapsFromData(data: StateData): Maps {
  const maps = {} as Record<CollectionName, Map<string, unknown>>;
  for (const c of COLLECTION_NAMES) {
    const rows = data[c] as unknown[];
    let m = sharedMaps.get(rows);
    if (!m) {
      const key = PRIMARY_KEYS[c] as (r: unknown) => string;
      m = new Map();
      for (const r of rows) m.set(key(r), r);
      sharedMaps.set(rows, m);
      SHARED.add(m);
    }
    maps[c] = m;
  }
  return maps as unknown as Maps;
}

/** Sees one stored record write (before, after; undefined = absent). */
export type RecordChange = (c: CollectionName, before: unknown, after: unknown) => void;

/** What was stored, and nothing else: readers never see a write before storage acknowledged it. */
export class StoredState implements CommittedState, ReadView {
  // Read and folded into by the commit pipeline (commit.ts), which owns this part.
  /** @internal */ maps: Maps;
  /** @internal */ clockState: ClockState;
  /** @internal */ settingsState: Settings;
  /** @internal */ committedSeq: number;
  /*
   * Made at first use, as are the field indexes: a mock (a sandbox) that nobody writes to or lists from holds none of
   * them, and an empty map costs about 180 bytes.
   */
  private versions: Map<string, number> | undefined;
  private derived: Map<string, { stamp: string; value: unknown }> | undefined;
  private fieldIndexes: FieldIndexes | undefined;

  /** `shared`: start on maps shared with other stores of the same records (see sharedMapsFromData). */
  constructor(data: StateData, seq: number, shared = false) {
    this.maps = shared ? sharedMapsFromData(data) : mapsFromData(data);
    this.clockState = data.clock;
    this.settingsState = data.settings;
    this.committedSeq = seq;
  }

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
  where<C extends CollectionName, F extends keyof RecordOf<C> & string>(
    c: C,
    field: F,
    value: RecordOf<C>[F],
    pred: (r: RecordOf<C>) => boolean = () => true,
  ): RecordOf<C>[] {
    const out: RecordOf<C>[] = [];
    const keys = this.indexedKeys(c, field, value) ?? this.maps[c].keys();
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

  /**
   * A value derived from some collections (an index, a sorted list), rebuilt only after one of
   * them changed: list endpoints then cost the same at any depth.
   */
  derive<T>(name: string, deps: readonly CollectionName[], build: () => T): T {
    const stamp = deps.map((d) => this.versions?.get(d) ?? 0).join(',');
    const derived = (this.derived ??= new Map());
    const hit = derived.get(name);
    if (hit && hit.stamp === stamp) return hit.value as T;
    const value = build();
    derived.set(name, { stamp, value });
    return value;
  }

  /** @internal The keys of committed records whose `field` equals `value`, through the field index (built on first use). */
  indexedKeys(c: CollectionName, field: string, value: unknown): ReadonlySet<string> | undefined {
    this.fieldIndexes ??= new FieldIndexes(
      (c) => this.maps[c] as Map<string, unknown>,
      (m) => SHARED.has(m),
    );
    return this.fieldIndexes.keys(c, field, value);
  }

  snapshot(): Snapshot {
    const maps = emptyMaps() as Record<CollectionName, Map<string, unknown>>;
    for (const c of COLLECTION_NAMES) maps[c] = new Map(this.maps[c] as Map<string, unknown>);
    return { maps: maps as unknown as Maps, clock: this.clockState, settings: this.settingsState };
  }

  toData(): StateData {
    const data = { clock: this.clockState, settings: this.settingsState } as Record<string, unknown>;
    for (const c of COLLECTION_NAMES) data[c] = Array.from((this.maps[c] as Map<string, unknown>).values());
    return data as StateData;
  }

  /** @internal Makes a stored change set visible to readers (`seen` sees each record it writes). */
  foldSet(set: ChangeSet, seq: number, seen?: RecordChange): void {
    let last: CollectionName | undefined;
    for (const ch of set.changes) {
      const m = this.writable(ch.collection);
      const before = m.get(ch.key);
      seen?.(ch.collection, before, ch.record ?? undefined);
      this.fieldIndexes?.change(ch.collection, ch.key, before, ch.record ?? undefined);
      if (ch.record === null) m.delete(ch.key);
      else m.set(ch.key, ch.record);
      if (ch.collection !== last) this.bump((last = ch.collection));
    }
    if (set.clock) this.clockState = set.clock;
    if (set.settings) this.settingsState = set.settings;
    this.committedSeq = seq;
  }

  /** @internal Makes a stored whole state visible to readers. */
  foldWhole(r: Replacement, seq: number): void {
    this.maps = r.maps;
    this.fieldIndexes?.clear();
    this.clockState = r.clock;
    this.settingsState = r.settings;
    for (const c of COLLECTION_NAMES) this.bump(c);
    this.committedSeq = seq;
  }

  /** The collection's map, copied first when it is shared with other stores (their records stay as they are). */
  private writable(c: CollectionName): Map<string, unknown> {
    const m = this.maps[c] as Map<string, unknown>;
    if (!SHARED.has(m)) return m;
    const own = new Map(m);
    (this.maps as Record<CollectionName, Map<string, unknown>>)[c] = own;
    return own;
  }

  /**
   * A version counts only against a derived value built before it: until the first is built, writes need not be
   * counted (a mock that is written to but never listed from keeps no versions).
   */
  private bump(c: CollectionName): void {
    if (!this.derived) return;
    const versions = (this.versions ??= new Map());
    versions.set(c, (versions.get(c) ?? 0) + 1);
  }
}
