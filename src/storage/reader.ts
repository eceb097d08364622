// The faces of stored state: a record reader (what a transaction and the stored state both answer), and the read-only
// view routes and the control surface read.
import type { ClockState, CollectionName, RecordOf, Settings } from '../schemas/index.js';

/** Records by key and by an indexed field: what query helpers need, answered by a transaction and by the stored state alike. */
export interface RecordReader {
  get<C extends CollectionName>(c: C, key: string): RecordOf<C> | undefined;
  /** The records whose `field` equals `value` (and match `pred`). */
  where<C extends CollectionName, F extends keyof RecordOf<C> & string>(
    c: C,
    field: F,
    value: RecordOf<C>[F],
    pred?: (r: RecordOf<C>) => boolean,
  ): RecordOf<C>[];
}

/** The stored state, read-only: what was acknowledged, never what is still on its way to storage. */
export interface ReadView extends RecordReader {
  has(c: CollectionName, key: string): boolean;
  values<C extends CollectionName>(c: C): IterableIterator<RecordOf<C>>;
  entries<C extends CollectionName>(c: C): IterableIterator<[string, RecordOf<C>]>;
  count(c: CollectionName): number;
  readonly clock: ClockState;
  readonly settings: Settings;
  readonly seq: number;
  /** A value derived from some collections, rebuilt only after one of them changed (see Store.derive). */
  derive<T>(name: string, deps: readonly CollectionName[], build: () => T): T;
}
