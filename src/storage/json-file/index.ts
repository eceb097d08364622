// The JSON file adapter: a readable snapshot plus an append-only log of change sets (one fdatasync per group), compacted in the background.
import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { COLLECTION_NAMES, DATA_FILE_FORMAT, DATA_FILE_VERSION, PRIMARY_KEYS, type CollectionName, type DataFile, type StateData } from '../../schemas/state.js';
import type { ChangeSet, ChangeSetAdapter, CommittedState } from '../change-sets.js';
import { checkHeader, DataFileError, DATA_FILE_MAX_DEPTH, finishState, RecordChecker } from '../data-file.js';
import { JsonStreamError, readJsonStreaming } from '../json-stream.js';
import { nodeFileSystem, removeIfPresent, syncDirectory, writeAt, type FileSystem, type Handle } from './fs.js';
import { encodeGroup, logHeader, replayLog } from './log.js';
import { streamSnapshot, type SnapshotSource } from './snapshot.js';

export type { FileSystem, Handle } from './fs.js';

/** Where the adapter reports long work and trouble; every method is optional. */
export interface StorageReporter {
  /** Progress of long work (loading, compaction), often: show it on a TTY. */
  progress?(line: string): void;
  /** One line with figures when long work ends. */
  summary?(line: string): void;
  /** One line per event: a torn log tail ignored, storage failing, storage recovered. Default: stderr. */
  warn?(line: string): void;
}

export interface JsonFileOptions {
  /** The file operations used for writing (tests inject a failing disk). */
  fs?: FileSystem;
  report?: StorageReporter;
  /** The log is compacted once it outgrows max(this, the snapshot's size). Default 8 MiB. */
  compactBytes?: number;
}

const MB = 1024 * 1024;
const BIG_BYTES = 8 * MB; // a load or compaction at least this large prints its summary line

/**
 * The default storage: `file` is the snapshot (a JSON document people can read and edit after a clean
 * stop), `file.log` the change sets stored since (JSON Lines). A group of change sets is appended and
 * fdatasync'ed before any of its requests is answered, so an acknowledged write survives a crash or a
 * power loss. Loading reads the snapshot as a stream, then replays the log.
 */
export class JsonFileAdapter implements ChangeSetAdapter {
  readonly logFile: string;
  readonly #tmp: string;
  readonly #logTmp: string;
  readonly #fs: FileSystem;
  readonly #report: StorageReporter;
  readonly #compactBytes: number;
  #queue: Promise<unknown> = Promise.resolve();
  #log: Handle | null = null;
  #logSize = 0; // bytes of whole change sets in the log (0: no log yet)
  #logId = '';
  #seq = 0;
  #snapshotBytes = 0;
  #generation = 0; // bumped by every snapshot written outside compaction
  #needsSnapshot = true; // until a snapshot with a log id exists (a new or version-1 file, or after a failed sync)
  #failing = false;
  #compaction: Promise<void> | null = null;
  #compactAt = 0;
  #idle: NodeJS.Timeout | null = null;

  constructor(
    readonly filename: string,
    options: JsonFileOptions = {},
  ) {
    this.logFile = `${filename}.log`;
    this.#tmp = join(dirname(filename), `.${basename(filename)}.tmp`);
    this.#logTmp = join(dirname(filename), `.${basename(filename)}.log.tmp`);
    this.#fs = options.fs ?? nodeFileSystem;
    this.#report = options.report ?? { warn: (line) => process.stderr.write(`project-runtime-mock: ${line}\n`) };
    this.#compactBytes = options.compactBytes ?? 8 * MB;
  }

  async read(): Promise<DataFile | null> {
    const size = await this.#fs.size(this.filename).catch((err: Error) => {
      throw new DataFileError(this.filename, `it cannot be read (${err.message})`);
    });
    if (size === null) return null; // a log without its snapshot is replaced by the first write
    const t0 = performance.now();
    const checker = new RecordChecker();
    const progress = this.#report.progress;
    let doc: unknown;
    try {
      doc = await readJsonStreaming(this.filename, {
        recordDepth: 3,
        maxDepth: DATA_FILE_MAX_DEPTH,
        map: (path, value, i) => (path[0] === 'state' ? checker.record(path[1], `state.${path[1]}[${i}]`, value) : value),
        onProgress: progress && size >= BIG_BYTES ? (done) => progress(`loading ${this.filename}: ${Math.floor((done / size) * 100)}%`) : undefined,
      });
    } catch (err) {
      if (err instanceof JsonStreamError) {
        const nested = err.message.startsWith('it is nested');
        throw new DataFileError(this.filename, nested ? err.message : `it is not valid JSON (${err.message}); it may be truncated or corrupt`);
      }
      throw new DataFileError(this.filename, `it cannot be read (${(err as Error).message})`);
    }
    const header = checkHeader(this.filename, doc);
    const state = header.state;
    finishState(this.filename, state, checker);

    // The log: every change set stored after the snapshot's seq, applied in order.
    const touched = new Map<CollectionName, Map<string, unknown>>();
    let replayed = 0;
    const replay = header.logId
      ? await replayLog(this.logFile, header.logId, header.seq, checker, (set) => {
          replayed++;
          applyTo(state, touched, set);
        })
      : { validLength: 0, lastSeq: header.seq, torn: false, stale: (await this.#fs.size(this.logFile)) !== null };
    for (const [c, m] of touched) state[c] = Array.from(m.values());
    if (replay.stale) this.#warn(`ignoring ${this.logFile}: it belongs to an earlier state of ${this.filename}`);
    if (replay.torn) this.#warn(`ignoring the torn end of ${this.logFile} (a write cut short by a crash, never acknowledged)`);

    this.#logId = header.logId ?? '';
    this.#needsSnapshot = header.logId === null;
    this.#logSize = replay.stale ? 0 : replay.validLength;
    this.#seq = replay.lastSeq;
    this.#snapshotBytes = size;
    const seconds = (performance.now() - t0) / 1000;
    if (size >= BIG_BYTES || seconds >= 1 || replayed > 0) {
      const records = COLLECTION_NAMES.reduce((n, c) => n + (state[c] as unknown[]).length, 0);
      this.#report.summary?.(`loaded ${this.filename}: ${records.toLocaleString('en-US')} records (${(size / MB).toFixed(1)} MB) and ${replayed} logged change sets in ${seconds.toFixed(1)} s`);
    }
    await removeIfPresent(this.#fs, this.#tmp).catch(() => {});
    return { format: DATA_FILE_FORMAT, format_version: DATA_FILE_VERSION, seq: this.#seq, state: state as unknown as StateData };
  }

  /** A whole new state (the first save, a large reset): a fresh snapshot with a new log id; the old log no longer applies. */
  write(data: DataFile): Promise<void> {
    return this.#serial(async () => {
      const logId = randomUUID();
      await this.#snapshot(documentSource(data, logId)).catch((err: Error) => {
        throw new DataFileError(this.filename, `it cannot be written (${err.message})`);
      });
      this.#logId = logId;
      this.#seq = data.seq ?? 0;
    });
  }

  appendChangeSets(group: readonly ChangeSet[], committed: CommittedState): Promise<void> {
    return this.#serial(async () => {
      try {
        if (this.#needsSnapshot) {
          const logId = randomUUID();
          await this.#snapshot(liveSource(committed, committed.seq, logId));
          this.#logId = logId;
          this.#seq = committed.seq;
        }
        const bytes = await encodeGroup(group);
        await this.#appendBytes(bytes);
      } catch (err) {
        if (!this.#failing) this.#warn(`storage failing (${(err as Error).message}): writes answer 503 until it recovers`);
        this.#failing = true;
        throw err;
      }
      this.#seq = group[group.length - 1].seq;
      if (this.#failing) this.#warn('storage recovered: writes are stored again');
      this.#failing = false;
      this.#closeWhenIdle();
      this.#maybeCompact(committed);
    });
  }

  /** Resolves once no background work (a compaction) and no file operation is running. */
  async idle(): Promise<void> {
    while (this.#compaction) await this.#compaction;
    await this.#serial(async () => {});
  }

  /** Waits for background work, then folds the log into the snapshot: after a clean stop the JSON file alone holds the state. */
  async close(committed: CommittedState): Promise<void> {
    await this.#compaction;
    await this.#serial(async () => {
      if (this.#logSize === 0 && !(this.#needsSnapshot && this.#logId !== '')) return;
      const t0 = performance.now();
      const logBytes = this.#logSize;
      const logId = this.#logId || randomUUID();
      await this.#snapshot(liveSource(committed, committed.seq, logId));
      this.#logId = logId;
      this.#seq = committed.seq;
      this.#summary(logBytes, t0);
    });
  }

  // ---- internals: every file change runs in #queue, one at a time ----
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn);
    this.#queue = run.catch(() => {});
    return run;
  }

  /** The log stays open while writes come, and is closed after a quiet second (an app that is dropped holds no file). */
  #closeWhenIdle(): void {
    if (this.#idle) this.#idle.refresh();
    else {
      this.#idle = setTimeout(() => {
        this.#idle = null;
        void this.#serial(async () => {
          await this.#log?.close().catch(() => {});
          this.#log = null;
        });
      }, 1_000);
      this.#idle.unref();
    }
  }

  #warn(line: string): void {
    this.#report.warn?.(line);
  }

  #summary(logBytes: number, t0: number): void {
    const seconds = (performance.now() - t0) / 1000;
    if (this.#snapshotBytes >= BIG_BYTES || logBytes >= BIG_BYTES || seconds >= 1) {
      this.#report.summary?.(`compacted ${this.logFile} (${(logBytes / MB).toFixed(1)} MB) into ${this.filename} (${(this.#snapshotBytes / MB).toFixed(1)} MB) in ${seconds.toFixed(1)} s`);
    }
  }

  /** Appends whole lines and fdatasyncs them; on failure the log is cut back to where it was. */
  async #appendBytes(bytes: Buffer): Promise<void> {
    const fresh = this.#logSize === 0;
    const payload = fresh ? Buffer.concat([logHeader(this.#logId), bytes]) : bytes;
    try {
      if (!this.#log) {
        this.#log = await this.#fs.open(this.logFile, fresh ? 'w+' : 'r+');
        if (!fresh) await this.#log.truncate(this.#logSize); // a torn tail from a crash goes before anything follows it
      }
      await writeAt(this.#log, payload, this.#logSize);
      await this.#log.datasync();
      if (fresh) await syncDirectory(this.#fs, this.logFile);
    } catch (err) {
      await this.#cutBack();
      throw err;
    }
    this.#logSize += payload.length;
  }

  /** Leaves the log as it was before a failed append; if that cannot be verified, the next append starts from a fresh snapshot. */
  async #cutBack(): Promise<void> {
    const log = this.#log;
    this.#log = null;
    try {
      if (log) {
        await log.truncate(this.#logSize);
        await log.datasync();
      }
    } catch {
      this.#needsSnapshot = true;
    }
    await log?.close().catch(() => {});
  }

  /** Streams a snapshot to the temp file, renames it over the data file, and removes the log it makes obsolete. */
  async #snapshot(source: SnapshotSource): Promise<void> {
    try {
      this.#snapshotBytes = await streamSnapshot(this.#fs, this.#tmp, source, this.#progress('writing'));
      await this.#fs.rename(this.#tmp, this.filename);
      await syncDirectory(this.#fs, this.filename);
    } catch (err) {
      await removeIfPresent(this.#fs, this.#tmp).catch(() => {});
      throw err;
    }
    this.#generation++;
    this.#needsSnapshot = false;
    await this.#dropLog();
  }

  async #dropLog(): Promise<void> {
    await this.#log?.close().catch(() => {});
    this.#log = null;
    this.#logSize = 0; // the next append truncates whatever is left and writes a new header
    await removeIfPresent(this.#fs, this.logFile).catch(() => {});
  }

  #progress(what: string): ((done: number, total: number) => void) | undefined {
    const progress = this.#report.progress;
    return progress ? (done, total) => total >= 100_000 && progress(`${what} ${this.filename}: ${Math.floor((done / total) * 100)}%`) : undefined;
  }

  #maybeCompact(committed: CommittedState): void {
    if (this.#compaction || this.#logSize <= Math.max(this.#compactBytes, this.#snapshotBytes, this.#compactAt)) return;
    this.#compaction = this.#compact(committed)
      .catch((err: Error) => {
        this.#compactAt = this.#logSize + Math.max(this.#compactBytes, this.#snapshotBytes); // retry after as much again
        this.#warn(`compaction of ${this.logFile} failed (${err.message}); the log keeps every change and compaction is tried again later`);
      })
      .finally(() => {
        this.#compaction = null;
      });
  }

  /**
   * Folds the log into a fresh snapshot while requests go on: the snapshot streams from the live store
   * and claims only the seq it started from; what is stored meanwhile stays in the (shortened) log.
   */
  async #compact(committed: CommittedState): Promise<void> {
    await nextTurn(); // the store makes the group just stored visible first
    const { seq, offset, generation, logId } = await this.#serial(async () => ({ seq: this.#seq, offset: this.#logSize, generation: this.#generation, logId: this.#logId }));
    while (committed.seq < seq) await nextTurn();
    const t0 = performance.now();
    const logBytes = offset;
    let bytes: number;
    try {
      bytes = await streamSnapshot(this.#fs, this.#tmp, liveSource(committed, seq, logId), this.#progress('compacting'));
    } catch (err) {
      await removeIfPresent(this.#fs, this.#tmp).catch(() => {});
      throw err;
    }
    await this.#serial(async () => {
      if (this.#generation !== generation || this.#needsSnapshot) return removeIfPresent(this.#fs, this.#tmp);
      await this.#fs.rename(this.#tmp, this.filename);
      await syncDirectory(this.#fs, this.filename);
      this.#snapshotBytes = bytes;
      this.#compactAt = 0;
      await this.#shortenLog(offset);
    });
    this.#summary(logBytes, t0);
  }

  /** Keeps only the log lines after `offset` (stored while the snapshot was written), in a new log file. */
  async #shortenLog(offset: number): Promise<void> {
    const tail = this.#logSize - offset;
    if (tail === 0) return this.#dropLog();
    const header = logHeader(this.#logId);
    const source = this.#log ?? (this.#log = await this.#fs.open(this.logFile, 'r+'));
    const out = await this.#fs.open(this.#logTmp, 'w');
    try {
      await writeAt(out, header, 0);
      const buf = Buffer.allocUnsafe(Math.min(tail, 4 * MB));
      for (let done = 0; done < tail; ) {
        const { bytesRead } = await source.read(buf, 0, Math.min(buf.length, tail - done), offset + done);
        if (bytesRead === 0) throw new Error(`${this.logFile} is shorter than expected`);
        await writeAt(out, buf.subarray(0, bytesRead), header.length + done);
        done += bytesRead;
      }
      await out.sync();
    } catch (err) {
      await out.close().catch(() => {});
      await removeIfPresent(this.#fs, this.#logTmp).catch(() => {});
      throw err;
    }
    await out.close();
    await this.#fs.rename(this.#logTmp, this.logFile);
    await syncDirectory(this.#fs, this.logFile);
    await this.#log?.close().catch(() => {});
    this.#log = null;
    this.#logSize = header.length + tail;
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

function liveSource(committed: CommittedState, seq: number, logId: string): SnapshotSource {
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

function documentSource(data: DataFile, logId: string): SnapshotSource {
  const list = (c: CollectionName) => ((data.state as Record<string, unknown>)[c] as unknown[] | undefined) ?? [];
  return { seq: data.seq ?? 0, logId, clock: data.state.clock, settings: data.state.settings, records: list, count: (c) => list(c).length };
}
