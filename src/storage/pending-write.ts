// What a write carries on its way through the commit pipeline: its function or replacement, its change set and its outcome.
import type { ChangeSet } from './change-sets.js';
import type { Replacement } from './pending.js';
import type { Transaction } from './transaction.js';
import type { WriteScope } from './write-scope.js';

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
