// Any lowdb Adapter (whole document: read/write) behind the change-set seam: each group rewrites the whole document, at the adapter's own cost.
import type { Adapter } from 'lowdb';
import { COLLECTION_NAMES, DATA_FILE_FORMAT, DATA_FILE_VERSION, type CollectionName, type DataFile, type StateData } from '../schemas/index.js';
import type { ChangeSet, ChangeSetAdapter, CommittedState } from './change-sets.js';

/** The whole document after `group` is applied to `committed` (records keep their places; new ones go last). */
export function documentAfter(committed: CommittedState, group: readonly ChangeSet[]): DataFile {
  const touched = new Map<CollectionName, Map<string, unknown>>();
  let { clock, settings } = committed;
  for (const set of group) {
    for (const ch of set.changes) {
      let m = touched.get(ch.collection);
      if (!m) touched.set(ch.collection, (m = new Map()));
      m.set(ch.key, ch.record);
    }
    if (set.clock) clock = set.clock;
    if (set.settings) settings = set.settings;
  }
  const state = { clock, settings } as Record<string, unknown>;
  for (const c of COLLECTION_NAMES) {
    const own = touched.get(c);
    const out: unknown[] = [];
    for (const [key, r] of committed.entries(c)) {
      if (!own?.has(key)) out.push(r);
      else if (own.get(key) !== null) out.push(own.get(key));
    }
    if (own) for (const [key, r] of own) if (r !== null && committed.get(c, key) === undefined) out.push(r);
    state[c] = out;
  }
  const seq = group.length ? group[group.length - 1].seq : committed.seq;
  return { format: DATA_FILE_FORMAT, format_version: DATA_FILE_VERSION, seq, state: state as StateData };
}

/** Wraps a whole-document adapter: each group of change sets becomes one `write` of the document after it. */
export function wholeDocument(adapter: Adapter<DataFile>): ChangeSetAdapter {
  return {
    read: () => adapter.read(),
    write: (data) => adapter.write(data),
    appendChangeSets: (group, committed) => adapter.write(documentAfter(committed, group)),
  };
}
