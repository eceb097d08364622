// Keys of committed records by the value of one field (approvals by run, users by chat id, ...), kept up to date as
// change sets fold in, so a transaction that looks for "the approvals of this run" costs what it finds, not the state.
import type { CollectionName } from '../schemas/index.js';

type Index = Map<unknown, Set<string>>;
type Records = Map<string, unknown>;

/** Indexes of record maps that several stores share (never written): built once, whichever store asks first. */
const sharedIndexes = new WeakMap<Records, Map<string, Index>>();

function build(records: Records, field: string): Index {
  const index: Index = new Map();
  for (const [key, record] of records) add(index, fieldOf(record, field), key);
  return index;
}

export class FieldIndexes {
  /** Indexes of this store's own (written) maps; made with the first (a store on shared maps may never need one). */
  private indexes: Map<string, { c: CollectionName; field: string; index: Index }> | undefined;
  private byCollection: Map<CollectionName, { field: string; index: Index }[]> | undefined;

  /**
   * `records` gives the committed records of a collection: an index is built from them on first use (once). A map
   * `shared` with other stores (see state.ts) is indexed once for all of them: none writes it, so its index holds.
   */
  constructor(
    private readonly records: (c: CollectionName) => Records,
    private readonly shared: (records: Records) => boolean,
  ) {}

  /** The keys of committed records whose `field` equals `value` (built on first use, then maintained). */
  keys(c: CollectionName, field: string, value: unknown): ReadonlySet<string> | undefined {
    const records = this.records(c);
    if (this.shared(records)) {
      let byField = sharedIndexes.get(records);
      if (!byField) sharedIndexes.set(records, (byField = new Map()));
      let index = byField.get(field);
      if (!index) byField.set(field, (index = build(records, field)));
      return index.get(value);
    }
    const name = `${c}.${field}`;
    const indexes = (this.indexes ??= new Map());
    let entry = indexes.get(name);
    if (!entry) {
      const index = build(records, field);
      entry = { c, field, index };
      indexes.set(name, entry);
      const byCollection = (this.byCollection ??= new Map());
      const list = byCollection.get(c) ?? [];
      list.push({ field, index });
      byCollection.set(c, list);
    }
    return entry.index.get(value);
  }

  /** A committed record changed from `before` to `after` (undefined: absent). */
  change(c: CollectionName, key: string, before: unknown, after: unknown): void {
    const list = this.byCollection?.get(c);
    if (!list) return;
    for (const { field, index } of list) {
      const was = before === undefined ? NONE : fieldOf(before, field);
      const now = after === undefined ? NONE : fieldOf(after, field);
      if (was === now) continue;
      if (was !== NONE) remove(index, was, key);
      if (now !== NONE) add(index, now, key);
    }
  }

  /** The committed state was replaced as a whole: indexes are built again on next use. */
  clear(): void {
    this.indexes = undefined;
    this.byCollection = undefined;
  }
}

const NONE = Symbol('none');
const fieldOf = (record: unknown, field: string): unknown => (record as Record<string, unknown>)[field] ?? null;

function add(index: Index, value: unknown, key: string): void {
  let keys = index.get(value);
  if (!keys) index.set(value, (keys = new Set()));
  keys.add(key);
}

function remove(index: Index, value: unknown, key: string): void {
  const keys = index.get(value);
  if (!keys) return;
  keys.delete(key);
  if (keys.size === 0) index.delete(value);
}
