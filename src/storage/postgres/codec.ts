// Change sets as the change table holds them (the JSON log's line format), and a group's net effect on the record rows.
import type { ClockState, CollectionName, Settings } from '../../schemas/index.js';
import type { Change, ChangeSet } from '../change-sets.js';

/** `{"seq":N,"changes":[[collection,key,record|null],...],"clock"?,"settings"?}`, as a line of the JSON file's log. */
export function encodeSet(set: ChangeSet): string {
  const line: { seq: number; changes: [string, string, unknown][]; clock?: ClockState; settings?: Settings } = {
    seq: set.seq,
    changes: set.changes.map((c) => [c.collection, c.key, c.record]),
  };
  if (set.clock) line.clock = set.clock;
  if (set.settings) line.settings = set.settings;
  return JSON.stringify(line);
}

export function decodeSet(body: string): ChangeSet {
  const line = JSON.parse(body) as { seq: number; changes: [CollectionName, string, unknown][]; clock?: ClockState; settings?: Settings };
  const set: { seq: number; changes: Change[]; clock?: ClockState; settings?: Settings } = {
    seq: line.seq,
    changes: line.changes.map(([collection, key, record]) => ({ collection, key, record }) as Change),
  };
  if (line.clock) set.clock = line.clock;
  if (line.settings) set.settings = line.settings;
  return set;
}

export interface Keys {
  collection: string[];
  key: string[];
}

/** The records a group leaves written: column arrays for one insert, and where each final value sits in the group. */
export interface RecordRows {
  collection: string[];
  key: string[];
  ordSeq: number[];
  ordI: number[];
  /** The final value's change set (its index in the group) and its change (index in that set). */
  at: [number, number][];
  records: unknown[];
}

/**
 * What a group does to the record rows. A record keeps its place when it is updated, and goes last when it is new or
 * was deleted and written again (as a Map does): such a key is `moved` (its row is deleted, then written anew), new
 * rows are placed by the change set that put them last.
 */
export function netEffect(group: readonly ChangeSet[]): { deletes: Keys; upserts: RecordRows; moved: Keys | null } {
  const final = new Map<string, { collection: string; key: string; record: unknown; seq: number; i: number; at: [number, number] }>();
  const deleted = new Map<string, { collection: string; key: string }>();
  group.forEach((set, n) => {
    set.changes.forEach((c, i) => {
      const id = `${c.collection}\u0000${c.key}`;
      if (c.record === null) {
        final.delete(id);
        deleted.set(id, { collection: c.collection, key: c.key });
      } else {
        const had = final.get(id);
        if (had) {
          // Updated in place: its place is where it was put first, its value the last one written.
          had.record = c.record;
          had.at = [n, i];
        } else final.set(id, { collection: c.collection, key: c.key, record: c.record, seq: set.seq, i, at: [n, i] });
      }
    });
  });
  // Deleted for good, or deleted and written again (moved: the row must be deleted before it is written anew).
  const deletes: Keys = { collection: [], key: [] };
  const moved: Keys = { collection: [], key: [] };
  for (const [id, d] of deleted) {
    const to = final.has(id) ? moved : deletes;
    to.collection.push(d.collection);
    to.key.push(d.key);
  }
  const upserts: RecordRows = { collection: [], key: [], ordSeq: [], ordI: [], at: [], records: [] };
  for (const r of final.values()) {
    upserts.collection.push(r.collection);
    upserts.key.push(r.key);
    upserts.ordSeq.push(r.seq);
    upserts.ordI.push(r.i);
    upserts.at.push(r.at);
    upserts.records.push(r.record);
  }
  return { deletes, upserts, moved: moved.key.length ? moved : null };
}
