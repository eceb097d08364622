// The storage seam: what a committed transaction changed (a change set), and the optional adapter capability that persists change sets.
import type { Adapter } from 'lowdb';
import type { ClockState, CollectionName, DataFile, RecordOf, Settings, StateData } from '../schemas/index.js';
import { sharedIdentity } from '../shared-identity.js';

/** One record written (`record`) or deleted (`record: null`) by a transaction. */
export type Change = { [C in CollectionName]: { collection: C; key: string; record: RecordOf<C> | null } }[CollectionName];

/** What one committed transaction changed. */
export interface ChangeSet {
  /** Position in the store's total order: each change set's `seq` is the previous one's plus 1. */
  readonly seq: number;
  readonly changes: readonly Change[];
  /** The clock after this change set, when it changed. */
  readonly clock?: ClockState;
  /** The settings after this change set, when they changed. */
  readonly settings?: Settings;
}

/** The committed state, as an adapter may read it (live: it moves on as groups commit). */
export interface CommittedState {
  /** The `seq` of the last change set applied (0 for a fresh state). */
  readonly seq: number;
  readonly clock: ClockState;
  readonly settings: Settings;
  get<C extends CollectionName>(c: C, key: string): RecordOf<C> | undefined;
  entries<C extends CollectionName>(c: C): IterableIterator<[string, RecordOf<C>]>;
  count(c: CollectionName): number;
}

/**
 * The optional capability: persist change sets instead of whole documents. The store hands over each
 * group of transactions in order, one group at a time, and lets readers see a group only once
 * `appendChangeSets` has returned (or its promise resolved).
 * - Throwing (or rejecting) refuses the whole group: the store rolls every transaction of it back and
 *   each request answers 503 `storage_unavailable`. The adapter must leave its storage as if the group
 *   had never been offered. Throw `ChangeSetConflict` when another writer appended first (a shared
 *   database): the store then catches up through `changesSince` and runs the transactions again.
 * - A whole-state replacement (a reset, a restore, an import, the first save) still arrives through
 *   lowdb's `write(data)`, with `data.seq` the replacement's position in the same order.
 */
export interface ChangeSetCapability {
  /**
   * `rebase` is offered to shared storage: an adapter that finds its log moved on may, while it still holds its
   * lock, call `rebase(missed)` with what others committed since; the store applies it, runs the group's
   * transactions again on it and returns the group to store instead (possibly empty). The adapter stores that
   * group and resolves, so a writer that lost a race wins its second try instead of racing again.
   */
  appendChangeSets(group: readonly ChangeSet[], committed: CommittedState, rebase?: Rebase): void | Promise<void>;
  /**
   * Shared storage only: what others committed after `seq`, in order: change sets, or a whole state (a data file
   * with its `seq`) when the log no longer reaches back that far or the state was replaced. The store calls it
   * before each request (read-your-writes across instances) and after a conflict.
   */
  changesSince?(seq: number): Promise<readonly CaughtUp[]>;
  /**
   * Shared storage: stores a whole state (as `write` does) even when others appended since `data.seq - 1`: while it
   * holds its lock, the adapter calls `rebase(missed)` with what they appended, and stores the state at the position
   * it answers instead (nothing when null). A whole state depends on nothing it read, so it never has to lose a race.
   */
  replaceState?(data: DataFile, rebase: RebaseWhole): Promise<void>;
  /** Called when the app closes, after every write is stored: finish background work (the JSON file compacts). */
  close?(committed: CommittedState): Promise<void>;
  /** Shared storage: calls `onChange` when another instance may have committed (with its seq when known); the store then catches up in the background. */
  watch?(onChange: (seq?: number) => void): void;
  /** Shared storage: whether this instance is the one that does the work only one may do (fire simulated events). */
  leads?(): boolean;
  /** Shared storage: a random secret made with the storage, the same for every instance: it seals the secrets in exported state, so that any instance unseals them. */
  secret?(): Promise<string>;
  /** Shared storage: the state a reset returns to, kept with the data so that every instance resets alike. */
  readResetState?(): Promise<StateData | null>;
  writeResetState?(state: StateData): Promise<void>;
  /** Shared storage: sandboxes kept in the storage, so that every instance on it serves every sandbox. */
  sharedSandboxes?(): SharedSandboxStorage;
}

/** What catching up yields: a change set, or a whole state at its `seq`. */
export type CaughtUp = ChangeSet | DataFile;
export const isWholeState = (x: CaughtUp): x is DataFile => 'state' in x;

/** The store's answer to a lost race: applies `missed`, runs the group's transactions again, and returns the group to store now. */
export type Rebase = (missed: readonly CaughtUp[]) => readonly ChangeSet[];

/** The store's answer to a whole state that lost a race: applies `missed`, and answers the position to store it at (null: do not). */
export type RebaseWhole = (missed: readonly CaughtUp[]) => number | null;

/** A storage adapter: lowdb's whole-document `Adapter`, optionally with the change-set capability. */
export type StorageAdapter = Adapter<DataFile> & Partial<ChangeSetCapability>;
export type ChangeSetAdapter = Adapter<DataFile> & ChangeSetCapability;

export const persistsChangeSets = (a: StorageAdapter): a is ChangeSetAdapter => typeof a.appendChangeSets === 'function';

/** Thrown by an adapter whose shared log moved on since the store last read it. */
export class ChangeSetConflict extends Error {
  static {
    sharedIdentity(this, 'ChangeSetConflict');
  }

  constructor(message = 'another writer committed first') {
    super(message);
    this.name = 'ChangeSetConflict';
  }
}

// What shared storage keeps of sandboxes for every instance: a registry of the live ones and each one's state.

/** One sandbox as the registry holds it (times are real time in ms). */
export interface SandboxRow {
  readonly id: string;
  readonly name: string | null;
  /** Its seed, so every instance that opens it seeds it alike. */
  readonly seed: string | null;
  readonly createdMs: number;
  /** Its last request as the registry knows it (instances report theirs coarsely). */
  readonly lastMs: number;
  readonly ttlMs: number;
  /** Creation order over every instance, for the newest-first list. */
  readonly ord: number;
}

/** A sandbox's state as one instance opens it: its adapter, and the state and seq its store starts from (then catches up). */
export interface OpenedSandbox {
  readonly adapter: ChangeSetAdapter;
  readonly state: StateData;
  readonly seq: number;
}

export interface NewSandbox {
  /** Proposes ids (tried again with the next one when an id is taken). */
  ids(): string;
  name: string | null;
  seed: string | null;
  nowMs: number;
  ttlMs: number;
  /** At most this many live at once, over every instance. */
  max: number;
  /** What it starts from (and resets to). */
  state: StateData;
}

/** The capability: sandboxes kept in the storage itself, so every instance on it serves every sandbox. */
export interface SharedSandboxStorage {
  /** Registers a sandbox; `{ full }` (ms until the next one expires) when `max` are live. */
  create(spec: NewSandbox): Promise<SandboxRow | { full: number }>;
  /** The live sandbox with this id, or null (unknown, deleted or expired at `nowMs`). */
  find(id: string, nowMs: number): Promise<SandboxRow | null>;
  /** The live ones, newest first (at most as many as may live at once). */
  list(nowMs: number): Promise<SandboxRow[]>;
  /** Reports requests to the sandbox up to `lastMs` (moves its expiry later, never earlier). */
  touch(id: string, lastMs: number): Promise<void>;
  /**
   * Removes it and its rows; false when it was not there. Every instance hears of it (`onDrop`), and this resolves once
   * every other live instance's listener has settled (its requests to the sandbox answered), or a bounded wait passed.
   */
  delete(id: string): Promise<boolean>;
  /** Removes the sandboxes expired at `nowMs` and their rows; answers their ids. */
  sweep(nowMs: number): Promise<string[]>;
  /** The sandbox's storage, for a store of its own on this instance (`created`: the state this instance just created it with). */
  open(id: string, created?: StateData): Promise<OpenedSandbox>;
  /** Hears of sandboxes another instance (or this one) removed; a delete waits for what the listener answers to settle. */
  onDrop(listener: (id: string) => void | Promise<void>): void;
}
