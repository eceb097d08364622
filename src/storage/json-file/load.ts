// Loading the JSON file: the snapshot as a stream (each record checked as it arrives), then the log replayed after its seq.
import { performance } from 'node:perf_hooks';
import {
  COLLECTION_NAMES,
  DATA_FILE_FORMAT,
  DATA_FILE_VERSION,
  PRIMARY_KEYS,
  type CollectionName,
  type DataFile,
  type StateData,
} from '../../schemas/index.js';
import type { ChangeSet } from '../change-sets.js';
import { checkHeader, DataFileError, DATA_FILE_MAX_DEPTH, finishState, RecordChecker } from '../data-file.js';
import { JsonStreamError, readJsonStreaming } from './json-document.js';
import type { FileSystem } from './fs.js';
import { replayLog } from './log.js';
import type { StorageReporter } from './options.js';

const MB = 1024 * 1024;
/** A load at least this large (or this slow) prints its summary line. */
const BIG_BYTES = 8 * MB;

export interface Loaded {
  doc: DataFile;
  /** The snapshot's log id (null: a version-1 file, which has no log). */
  logId: string | null;
  /** Bytes of the log that hold whole change sets (0: none to keep). */
  logBytes: number;
  snapshotBytes: number;
}

/** Reads `file` and its log, or null when there is no data file yet; refuses damage with a DataFileError naming the file. */
export async function loadDataFile(file: string, logFile: string, fs: FileSystem, report: StorageReporter): Promise<Loaded | null> {
  const size = await fs.size(file).catch((err: Error) => {
    throw new DataFileError(file, `it cannot be read (${err.message})`);
  });
  if (size === null) return null; // a log without its snapshot is replaced by the first write
  const t0 = performance.now();
  const checker = new RecordChecker();
  const progress = report.progress;
  let doc: unknown;
  try {
    doc = await readJsonStreaming(file, {
      recordDepth: 3,
      maxDepth: DATA_FILE_MAX_DEPTH,
      map: (path, value, i) => (path[0] === 'state' ? checker.record(path[1], `state.${path[1]}[${i}]`, value) : value),
      onProgress: progress && size >= BIG_BYTES ? (done) => progress(`loading ${file}: ${Math.floor((done / size) * 100)}%`) : undefined,
    });
  } catch (err) {
    if (err instanceof JsonStreamError) {
      const nested = err.message.startsWith('it is nested');
      throw new DataFileError(file, nested ? err.message : `it is not valid JSON (${err.message}); it may be truncated or corrupt`);
    }
    throw new DataFileError(file, `it cannot be read (${(err as Error).message})`);
  }
  const header = checkHeader(file, doc);
  const state = header.state;
  finishState(file, state, checker);

  // The log: every change set stored after the snapshot's seq, applied in order.
  const touched = new Map<CollectionName, Map<string, unknown>>();
  let replayed = 0;
  const replay = header.logId
    ? await replayLog(logFile, header.logId, header.seq, checker, (set) => {
        replayed++;
        applyTo(state, touched, set);
      })
    : { validLength: 0, lastSeq: header.seq, torn: false, stale: (await fs.size(logFile)) !== null };
  for (const [c, m] of touched) state[c] = Array.from(m.values());
  if (replay.stale) report.warn?.(`ignoring ${logFile}: it belongs to an earlier state of ${file}`);
  if (replay.torn) report.warn?.(`ignoring the torn end of ${logFile} (a write cut short by a crash, never acknowledged)`);

  const seconds = (performance.now() - t0) / 1000;
  if (size >= BIG_BYTES || seconds >= 1 || replayed > 0) {
    const records = COLLECTION_NAMES.reduce((n, c) => n + (state[c] as unknown[]).length, 0);
    report.summary?.(
      `loaded ${file}: ${records.toLocaleString('en-US')} records (${(size / MB).toFixed(1)} MB) and ${replayed} logged change sets in ${seconds.toFixed(1)} s`,
    );
  }
  return {
    doc: { format: DATA_FILE_FORMAT, format_version: DATA_FILE_VERSION, seq: replay.lastSeq, state: state as unknown as StateData },
    logId: header.logId,
    logBytes: replay.stale ? 0 : replay.validLength,
    snapshotBytes: size,
  };
}

/** The line a compaction that took long or moved much ends with (its figures: the log folded, the snapshot written). */
export function compactedSummary(report: StorageReporter, c: { logFile: string; file: string; logBytes: number; snapshotBytes: number; t0: number }): void {
  const seconds = (performance.now() - c.t0) / 1000;
  if (c.snapshotBytes >= BIG_BYTES || c.logBytes >= BIG_BYTES || seconds >= 1) {
    report.summary?.(
      `compacted ${c.logFile} (${(c.logBytes / MB).toFixed(1)} MB) into ${c.file} (${(c.snapshotBytes / MB).toFixed(1)} MB) in ${seconds.toFixed(1)} s`,
    );
  }
}

/** Applies a logged change set to the loaded state (collections it touches become maps until the end of the load). */
function applyTo(state: Record<string, unknown>, touched: Map<CollectionName, Map<string, unknown>>, set: ChangeSet): void {
  for (const ch of set.changes) {
    let m = touched.get(ch.collection);
    if (!m) {
      const key = PRIMARY_KEYS[ch.collection] as (r: unknown) => string;
      m = new Map((state[ch.collection] as unknown[]).map((r) => [key(r), r]));
      touched.set(ch.collection, m);
    }
    if (ch.record === null) m.delete(ch.key);
    else m.set(ch.key, ch.record);
  }
  if (set.clock) state.clock = set.clock;
  if (set.settings) state.settings = set.settings;
}
