// The snapshot: the data file as a readable JSON document, one record per line, written in chunks so request handling never waits long.
import { performance } from 'node:perf_hooks';
import {
  COLLECTION_NAMES,
  DATA_FILE_FORMAT,
  DATA_FILE_VERSION,
  type ClockState,
  type CollectionName,
  type DataFile,
  type Settings,
} from '../../schemas/index.js';
import type { CommittedState } from '../change-sets.js';
import { writeAt, type FileSystem } from './fs.js';

/** What a snapshot is written from: the live store (compaction) or a whole document (a replacement). */
export interface SnapshotSource {
  readonly seq: number;
  readonly logId: string;
  readonly clock: ClockState;
  readonly settings: Settings;
  records(c: CollectionName): Iterable<unknown>;
  count(c: CollectionName): number;
}

const CHUNK_BYTES = 1024 * 1024;
const SLICE_MS = 4; // the longest stretch spent serializing before the event loop gets a turn

/**
 * Writes the snapshot to `tmp` and fsyncs it; returns its size. Between chunks the event loop runs, so
 * requests are served while a large state is written (records are immutable, and the live maps may
 * change meanwhile: every such change is also in the log, after the snapshot's `seq`).
 */
export async function streamSnapshot(fs: FileSystem, tmp: string, source: SnapshotSource, onProgress?: (done: number, total: number) => void): Promise<number> {
  const fh = await fs.open(tmp, 'w');
  let position = 0;
  try {
    let parts: string[] = [];
    let length = 0;
    const flush = async () => {
      if (parts.length === 0) return;
      const bytes = Buffer.from(parts.join(''));
      parts = [];
      length = 0;
      await writeAt(fh, bytes, position);
      position += bytes.length;
    };
    const push = (s: string) => {
      parts.push(s);
      length += s.length;
    };
    const total = COLLECTION_NAMES.reduce((n, c) => n + source.count(c), 0);
    let done = 0;
    push(
      `{"format":${JSON.stringify(DATA_FILE_FORMAT)},"format_version":${DATA_FILE_VERSION},"seq":${source.seq},"log_id":${JSON.stringify(source.logId)},"state":{\n`,
    );
    push(`"clock":${JSON.stringify(source.clock)},\n"settings":${JSON.stringify(source.settings)}`);
    let sliceStart = performance.now();
    for (const c of COLLECTION_NAMES) {
      push(`,\n${JSON.stringify(c)}:[`);
      let first = true;
      for (const record of source.records(c)) {
        push(first ? `\n${JSON.stringify(record)}` : `,\n${JSON.stringify(record)}`);
        first = false;
        if ((++done & 31) === 0 && (length >= CHUNK_BYTES || performance.now() - sliceStart >= SLICE_MS)) {
          await flush();
          onProgress?.(done, total);
          sliceStart = performance.now();
        }
      }
      push(first ? ']' : '\n]');
    }
    push('\n}}\n');
    await flush();
    onProgress?.(done, total);
    await fh.sync();
  } finally {
    await fh.close();
  }
  return position;
}

/** The live store as a snapshot source: `seq` is the point the snapshot claims (later changes it may hold are in the log too). */
export function liveSource(committed: CommittedState, seq: number, logId: string): SnapshotSource {
  return {
    seq,
    logId,
    clock: committed.clock,
    settings: committed.settings,
    records: (c) => mapValues(committed.entries(c)),
    count: (c) => committed.count(c),
  };
}

function* mapValues<T>(entries: Iterable<[string, T]>): Generator<T> {
  for (const [, v] of entries) yield v;
}

/** A whole document (a replacement) as a snapshot source. */
export function documentSource(data: DataFile, logId: string): SnapshotSource {
  const list = (c: CollectionName) => ((data.state as Record<string, unknown>)[c] as unknown[] | undefined) ?? [];
  return { seq: data.seq ?? 0, logId, clock: data.state.clock, settings: data.state.settings, records: list, count: (c) => list(c).length };
}
