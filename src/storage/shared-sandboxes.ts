// What shared storage keeps of sandboxes for every instance: a registry of the live ones and each one's state.
import type { StateData } from '../schemas/state.js';
import type { ChangeSetAdapter } from './change-sets.js';

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
  /** Removes it and its rows; false when it was not there. Every instance hears of it (`onDrop`). */
  delete(id: string): Promise<boolean>;
  /** Removes the sandboxes expired at `nowMs` and their rows; answers their ids. */
  sweep(nowMs: number): Promise<string[]>;
  /** The sandbox's storage, for a store of its own on this instance (`created`: the state this instance just created it with). */
  open(id: string, created?: StateData): Promise<OpenedSandbox>;
  /** Hears of sandboxes another instance (or this one) removed. */
  onDrop(listener: (id: string) => void): void;
}
