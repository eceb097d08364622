// What a write is attributed to (a request's scope: its guard, its optimism) and who observes stored writes.
import type { CollectionName } from '../schemas/state.js';
import type { Transaction } from './transaction.js';
import type { TimeSource } from './clock.js';

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

/** Sees every stored record write (before, after; undefined = absent) with the scope it was made in: the coverage report derives transitions from it. */
export type WriteObserver = (c: CollectionName, before: unknown, after: unknown, scope: WriteScope | undefined) => void;

/** Counts what the commit pipeline does (the server's metrics): groups stored, conflicts with other writers, reruns. */
export interface CommitMeter {
  /** A group of `size` change sets (or one whole state) was stored in `seconds` (the fsync or query it waited for). */
  commitGroup(size: number, seconds: number): void;
  /** A group found its head moved by another writer of the same store. */
  conflict(): void;
  /** A transaction ran again on the caught-up state after a conflict. */
  rerun(): void;
}

/** Who sees what the pipeline does, and where its transactions read real time. */
export interface PipelineOptions {
  observer?: WriteObserver;
  meter?: CommitMeter;
  /** What the mock clock reads as real time in transactions (Date.now unless given). */
  time?: TimeSource;
}
