// The control operations on snapshots of a mock: the cheap in-process ones, and the named ones (bounded in number and bytes).
import type { Snapshot, Store } from '../storage/index.js';
import { parse as parseInput } from '../validation.js';
import { SaveSnapshotSchema, SnapshotPath } from '../schemas/index.js';
import { jsonLengthUpTo } from '../json-length.js';
import type { NamedSnapshotInfo } from '../control/index.js';
import { reloaded, type ControlWrites } from './control-core.js';

/**
 * Restores write through `core` (no clock, no store reads); saves read `stored`, which has no clock either: a named
 * snapshot's time is read from the snapshot itself.
 */
export class SnapshotControl {
  constructor(
    private readonly core: ControlWrites,
    private readonly stored: Pick<Store, 'snapshot' | 'snapshotAt' | 'toData'>,
  ) {}

  /** A cheap in-process snapshot (no serialization), to restore before each test. */
  snapshot(): Snapshot {
    return this.stored.snapshot();
  }

  /** Puts `snapshot` back; resolves the mock clock's "now" as the restoring write read it (the snapshot's clock, put back). */
  async restore(snapshot: Snapshot): Promise<string> {
    const now = await this.core.store.restore(snapshot);
    await reloaded(this.core);
    return now;
  }

  /** Saves the stored state, the clock and the simulation queue under `name` (replacing one of that name); 409 `snapshot_limit` past the bounds. */
  saveSnapshot(name: string): NamedSnapshotInfo {
    const body = parseInput(SaveSnapshotSchema, { name }, 'body');
    const { snapshots } = this.core.parts;
    // The byte bound counts the state as JSON text: what the snapshot would cost were its records not shared. It is
    // counted record by record and the count stops past the room left, so a save never builds the text it measures.
    const bytes = jsonLengthUpTo(this.stored.toData(), snapshots.roomFor(body.name));
    // Saved at the time the snapshot's own clock reads as it is taken: the clock of the state it holds.
    const { snapshot, now } = this.stored.snapshotAt();
    return snapshots.save({ name: body.name, created_at: now, bytes }, snapshot);
  }

  /** The saved snapshots, in the order they were saved. */
  snapshots(): NamedSnapshotInfo[] {
    return this.core.parts.snapshots.list();
  }

  /** Puts back the state, clock and simulation queue saved under `name` (the snapshot stays); 404 `snapshot_not_found`. */
  async restoreSnapshot(name: string): Promise<NamedSnapshotInfo> {
    const held = this.core.parts.snapshots.get(parseInput(SnapshotPath, { name }, 'path').name);
    await this.restore(held.snapshot);
    return held.info;
  }

  /** Removes a saved snapshot; 404 `snapshot_not_found`. */
  deleteSnapshot(name: string): void {
    this.core.parts.snapshots.delete(parseInput(SnapshotPath, { name }, 'path').name);
  }

  /** The state saved under `name`, to start a sandbox from; 404 `snapshot_not_found`. */
  namedState(name: string) {
    return this.core.parts.snapshots.get(name).snapshot;
  }
}
