// The control surface's named snapshots (every mock) and sandboxes (the default mock): the part of MockControl they add.
import type { Deps } from '../deps.js';
import { ApiError } from '../errors.js';
import { parse as parseInput } from '../validation.js';
import { DEFAULT_ORIGIN } from '../inprocess/index.js';
import type { Simulation } from '../simulation/index.js';
import {
  SandboxPageQuerySchema,
  SaveSnapshotSchema,
  SnapshotPath,
  type CreateSandboxInput,
  type SandboxInfo,
  type SandboxPage,
  type SandboxPageQuery,
} from '../schemas/index.js';
import { DomainControl } from '../control/index.js';
import { jsonLengthUpTo } from '../json-length.js';
import type { NamedSnapshotInfo, NamedSnapshots } from '../control/index.js';
import type { SandboxDirectory } from './sandbox-directory.js';
import type { MockControl } from './api.js';

/** A mock's named snapshots, and the sandboxes it manages (the default mock only: sandboxes do not nest). */
export interface SandboxParts {
  snapshots: NamedSnapshots;
  sandboxes: SandboxDirectory | null;
}

export class SandboxControl extends DomainControl {
  private readonly named: NamedSnapshots;
  private readonly directory: SandboxDirectory | null;

  constructor(deps: Deps, sim: Simulation, parts: SandboxParts) {
    super(deps, sim);
    this.named = parts.snapshots;
    this.directory = parts.sandboxes;
  }

  // ---- named snapshots ----

  /** Saves the stored state, the clock and the simulation queue under `name` (replacing one of that name); 409 `snapshot_limit` past the bounds. */
  saveSnapshot(name: string): NamedSnapshotInfo {
    const body = parseInput(SaveSnapshotSchema, { name }, 'body');
    const { store } = this.deps;
    // The byte bound counts the state as JSON text: what the snapshot would cost were its records not shared. It is
    // counted record by record and the count stops past the room left, so a save never builds the text it measures.
    const bytes = jsonLengthUpTo(store.toData(), this.named.roomFor(body.name));
    return this.named.save({ name: body.name, created_at: this.deps.clock.nowIso(), bytes }, store.snapshot());
  }

  /** The saved snapshots, in the order they were saved. */
  snapshots(): NamedSnapshotInfo[] {
    return this.named.list();
  }

  /** Puts back the state, clock and simulation queue saved under `name` (the snapshot stays); 404 `snapshot_not_found`. */
  async restoreSnapshot(name: string): Promise<NamedSnapshotInfo> {
    const held = this.named.get(parseInput(SnapshotPath, { name }, 'path').name);
    await this.deps.store.restore(held.snapshot);
    await this.sim.load(false);
    return held.info;
  }

  /** Removes a saved snapshot; 404 `snapshot_not_found`. */
  deleteSnapshot(name: string): void {
    this.named.delete(parseInput(SnapshotPath, { name }, 'path').name);
  }

  /** The state saved under `name`, to start a sandbox from; 404 `snapshot_not_found`. */
  namedState(name: string) {
    return this.named.get(name).snapshot;
  }

  // ---- sandboxes (the default mock only) ----

  /**
   * Creates a sandbox: a whole mock of its own, from `fixtures`, a saved `snapshot`, or what the server started with.
   * In process its base_url is http://localhost/sandboxes/{id}: `mock.fetch(`${base_url}/api/v3/...`)` reaches it.
   */
  createSandbox(input: CreateSandboxInput = {}, origin = DEFAULT_ORIGIN): Promise<SandboxInfo> {
    return this.sandboxDirectory().create(input, origin);
  }

  /** Live sandboxes, newest first, in pages (`limit` 1..200, default 50; `cursor`). */
  async sandboxes(query: SandboxPageQuery = {}, origin = DEFAULT_ORIGIN): Promise<SandboxPage> {
    return this.sandboxDirectory().list(parseInput(SandboxPageQuerySchema, query, 'query'), origin);
  }

  /** One live sandbox; 404 `sandbox_not_found`. */
  async sandbox(id: string, origin = DEFAULT_ORIGIN): Promise<SandboxInfo> {
    return this.sandboxDirectory().get(id, origin);
  }

  /** Drops a sandbox and everything it held; 404 `sandbox_not_found`. */
  deleteSandbox(id: string): Promise<void> {
    return this.sandboxDirectory().delete(id);
  }

  /** A live sandbox's own in-process control API; 404 `sandbox_not_found`. */
  sandboxControl(id: string): MockControl {
    return this.sandboxDirectory().control(id);
  }

  private sandboxDirectory(): SandboxDirectory {
    if (!this.directory) throw new ApiError('route_not_found', { message: 'Sandboxes are managed at the default mock; they do not nest' });
    return this.directory;
  }
}
