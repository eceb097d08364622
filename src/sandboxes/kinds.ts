// What the sandbox directory is made of and gives (its options, a sandbox's mock, the directory itself), shared by the
// in-process directory and the one on shared storage.
import type { Middleware } from 'koa';
import type { StateData } from '../schemas/index.js';
import type { Snapshot, Store, StoreOptions, SharedSandboxStorage } from '../storage/index.js';
import type { AddressedMock } from '../pipeline/index.js';
import type { SandboxDirectory } from '../mock-control/index.js';
import type { CreateSandboxInput } from '../schemas/index.js';
import type { SandboxCore } from './registry.js';
import type { Served } from './request-router.js';

/** Sandboxes found at once: a request touches its sandbox on arrival and hands it back once answered. */
export interface LocalSandboxes {
  /**
   * The live sandbox `id`, its time to live restarted. `arrived`: the request's `performance.now()` at arrival, which
   * is the time of the touch when the sandboxes keep real time (no clock was given): the touch reads no clock then.
   */
  touch(id: string, arrived?: number): Served | undefined;
  /** As `touch`, for a sandbox an earlier touch found (undefined once it ended or its time ran out). */
  touchAgain(s: Served, arrived?: number): Served | undefined;
  /** Calls `listener` at each sandbox's end: what remembers a sandbox lets it go then. */
  onEnd(listener: () => void): void;
  answered(s: Served, sameTurn?: boolean): void;
}

/** A sandbox's mock: what the registry needs, and what its requests are answered from. */
export interface SandboxMock extends SandboxCore, AddressedMock {}

export interface SandboxesOptions {
  /**
   * The time in ms that times to live run on (createApp's `clock`). Absent: real time, read in process from the
   * monotonic clock that also times each request (one reading serves both), and on shared storage from Date.now.
   */
  now?(): number;
  ttlMs: number;
  max: number;
  /** Called for each sandbox dropped because its time to live ran out (the server's metrics). */
  expired?(): void;
  /** The server's seed: sandbox ids follow from it (else they are random). */
  seed?: string | number;
  /** What a sandbox starts from when given neither fixtures nor a snapshot: what the server started with. */
  base(): StateData;
  /** A snapshot saved at the default mock (404 `snapshot_not_found`). */
  snapshot(name: string): Snapshot;
  /**
   * A whole mock on the store `open` gives: in memory, holding `state` (its records shared, never copied); or a shared
   * sandbox's (`state` is then what it resets to when the storage keeps nothing else).
   */
  build(state: StateData, own: { seed?: string | number; open: SandboxOpen }): Promise<SandboxMock>;
  /** Shared storage that keeps sandboxes for every instance on it (PostgreSQL); else they live in this process. */
  shared?: SharedSandboxStorage;
}

/** Opens a sandbox's store with the hooks its mock needs (see OwnParts.open). */
export type SandboxOpen = (hooks: StoreOptions) => Promise<{ store: Store; fresh: boolean }>;

export interface Sandboxes extends SandboxDirectory {
  /** Readdresses a request that names a sandbox to that sandbox's mock (its prefix taken off), before anything else sees it. */
  select: Middleware;
  /**
   * Sandboxes kept in this process, found at once (absent on shared storage, where a lookup may wait): the fast path
   * serves their reads as `select` would, touching the sandbox on arrival and calling `answered` once it is answered
   * (`sameTurn`: in the turn of its touch, whose reading of the time stands).
   */
  local?: LocalSandboxes;
  close(): Promise<void>;
}

/** The validated create body and the state it starts from (422, or 404 for an unknown snapshot). */
export type PrepareCreate = (input: CreateSandboxInput) => Promise<{ body: CreateSandboxInput; state: StateData }>;
