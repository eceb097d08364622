// Named snapshots of one mock (its stored state, clock and simulation queue), bounded in number and bytes.
import type { Snapshot } from '../storage/index.js';
import { ApiError } from '../errors.js';

/** How many snapshots one mock (the default one or a sandbox) may hold, and their bytes in all (as JSON text). */
const SNAPSHOT_LIMITS = { count: 32, bytes: 64 * 1024 * 1024 } as const;

/** A snapshot as the control surface lists it. */
export interface NamedSnapshotInfo {
  name: string;
  /** When it was saved, by the mock clock. */
  created_at: string;
  /** The size of the state it holds, as JSON text (what the byte bound counts; records are shared, so memory is less). */
  bytes: number;
}

interface Held {
  info: NamedSnapshotInfo;
  snapshot: Snapshot;
}

export class NamedSnapshots {
  /** In the order they were saved (a save under a held name replaces it in place); made at the first save. */
  private held: Map<string, Held> | undefined;
  private total = 0;

  constructor(private readonly limits: { count: number; bytes: number } = SNAPSHOT_LIMITS) {}

  /** Keeps `snapshot` under `name` (replacing one of that name); 409 `snapshot_limit` past the count or byte bound, and nothing changes. */
  save(info: NamedSnapshotInfo, snapshot: Snapshot): NamedSnapshotInfo {
    const old = this.held?.get(info.name);
    const count = (this.held?.size ?? 0) + (old ? 0 : 1);
    const bytes = this.total - (old?.info.bytes ?? 0) + info.bytes;
    if (count > this.limits.count || bytes > this.limits.bytes) {
      throw new ApiError('snapshot_limit', {
        message: `A mock holds at most ${this.limits.count} snapshots of ${this.limits.bytes} bytes in all; delete one first`,
        affected_resource: `snapshot:${info.name}`,
      });
    }
    (this.held ??= new Map()).set(info.name, { info, snapshot });
    this.total = bytes;
    return info;
  }

  /** The bytes a save under `name` may take (what it would replace counts as free): past them the save is refused. */
  roomFor(name: string): number {
    return this.limits.bytes - this.total + (this.held?.get(name)?.info.bytes ?? 0);
  }

  list(): NamedSnapshotInfo[] {
    return [...(this.held?.values() ?? [])].map((h) => h.info);
  }

  /** The snapshot and its description; 404 `snapshot_not_found`. */
  get(name: string): Held {
    const h = this.held?.get(name);
    if (!h) throw new ApiError('snapshot_not_found', { affected_resource: `snapshot:${name}` });
    return h;
  }

  delete(name: string): void {
    const h = this.get(name);
    this.held!.delete(name);
    this.total -= h.info.bytes;
  }

  clear(): void {
    this.held = undefined;
    this.total = 0;
  }
}
