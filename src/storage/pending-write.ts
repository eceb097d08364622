// What a write carries on its way through the commit pipeline (its function or replacement, its change set, its outcome), and what sync does for it.
import { COLLECTION_NAMES, DATA_FILE_FORMAT, DATA_FILE_VERSION, type DataFile, type StateData } from '../schemas/state.js';
import type { CaughtUp, ChangeSet } from './change-sets.js';
import type { Replacement } from './pending.js';
import type { Transaction } from './transaction.js';
import type { WriteScope } from './write-scope.js';

/** A whole-state replace is not one change set on this state (a record would move, or the diff outgrows the target). */
export class NotADiff extends Error {}

/** A transaction (or a replacement) on its way to storage. */
export interface Pending {
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

/**
 * What multi-instance sync (sync.ts) does for the pipeline: it counts others' writes, and when the storage refuses a
 * group because others wrote first, it catches up and runs the pending transactions again.
 */
export interface SharedWrites {
  /** How many of others' change sets (or whole states) were applied so far. */
  readonly foreignCount: number;
  /** A group of `n` own change sets was stored. */
  groupStored(n: number): void;
  /** The adapter lost a race holding its lock: apply `missed`, run the pending transactions again, answer the group to store. */
  rebase(missed: readonly CaughtUp[]): readonly ChangeSet[];
  /** The same for a whole state: answer its new position, or null when it is not to be stored. */
  rebaseWhole(missed: readonly CaughtUp[]): number | null;
  /** The adapter reported a conflict: catch up, then run `all` again. */
  retry(all: Pending[]): Promise<void>;
}

/** A replacement as the data file it stores. */
export function documentOf(p: Pending): DataFile {
  const r = p.replacement!;
  const state = { clock: r.clock, settings: r.settings } as Record<string, unknown>;
  for (const c of COLLECTION_NAMES) state[c] = Array.from((r.maps[c] as Map<string, unknown>).values());
  return { format: DATA_FILE_FORMAT, format_version: DATA_FILE_VERSION, seq: p.seq, state: state as StateData };
}
