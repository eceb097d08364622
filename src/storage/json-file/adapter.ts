// The JSON file adapter: a readable snapshot plus an append-only log of change sets (one fdatasync per group), compacted in the background.
import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DataFile } from '../../schemas/index.js';
import type { ChangeSet, ChangeSetAdapter, CommittedState } from '../change-sets.js';
import { DataFileError } from '../data-file.js';
import { nodeFileSystem, removeIfPresent, syncDirectory, writeAt, type FileSystem, type Handle } from './fs.js';
import { copyTail, encodeGroup, logHeader } from './log.js';
import { compactedSummary, loadDataFile } from './load.js';
import { documentSource, liveSource, streamSnapshot, type SnapshotSource } from './snapshot.js';
import type { JsonFileOptions, StorageReporter } from './options.js';
import { DataFileLock } from './file-lock.js';

/**
 * The default storage: `file` is the snapshot (a JSON document people can read and edit after a clean stop), `file.log`
 * the change sets stored since (JSON Lines). A group of change sets is appended and fdatasync'ed before any of its
 * requests is answered, so an acknowledged write survives a crash or a power loss. Loading streams the snapshot, then replays the log.
 */
export class JsonFileAdapter implements ChangeSetAdapter {
  readonly logFile: string;
  readonly #tmp: string;
  /** Compaction streams to its own temp file: a snapshot written meanwhile (a reset) must never share one. */
  readonly #compactTmp: string;
  readonly #logTmp: string;
  readonly #fs: FileSystem;
  readonly #report: StorageReporter;
  readonly #compactBytes: number;
  readonly #onReplaced: (file: string) => void;
  readonly #lock: DataFileLock | null;
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
    this.#compactTmp = join(dirname(filename), `.${basename(filename)}.compacting.tmp`);
    this.#logTmp = join(dirname(filename), `.${basename(filename)}.log.tmp`);
    this.#fs = options.fs ?? nodeFileSystem;
    this.#report = options.report ?? { warn: (line) => process.stderr.write(`project-runtime-mock: ${line}\n`) };
    this.#compactBytes = options.compactBytes ?? 8 * 1024 * 1024;
    this.#onReplaced = options.onReplaced ?? (() => {});
    this.#lock = options.lock ? new DataFileLock(filename, options.lock === true ? filename : options.lock) : null;
  }

  async read(): Promise<DataFile | null> {
    this.#lock?.take(); // before a byte is read: another process may be writing these files
    const loaded = await loadDataFile(this.filename, this.logFile, this.#fs, this.#report);
    if (!loaded) return null;
    this.#logId = loaded.logId ?? '';
    this.#needsSnapshot = loaded.logId === null;
    this.#logSize = loaded.logBytes;
    this.#seq = loaded.doc.seq ?? 0;
    this.#snapshotBytes = loaded.snapshotBytes;
    for (const stale of [this.#tmp, this.#compactTmp, this.#logTmp]) await removeIfPresent(this.#fs, stale).catch(() => {});
    return loaded.doc;
  }

  /** A whole new state (the first save, a large reset): a fresh snapshot with a new log id; the old log no longer applies. */
  write(data: DataFile): Promise<void> {
    return this.#serial(async () => {
      this.#lock?.take();
      const logId = randomUUID();
      // createApp() with the default `.data/db.json` in a fresh checkout: make the folder, as the CLI does.
      await (async () => {
        await this.#fs.mkdir?.(dirname(this.filename));
        await this.#snapshot(documentSource(data, logId));
      })().catch((err: Error) => {
        throw new DataFileError(this.filename, `it cannot be written (${err.message})`);
      });
      this.#logId = logId;
      this.#seq = data.seq ?? 0;
    });
  }

  appendChangeSets(group: readonly ChangeSet[], committed: CommittedState): Promise<void> {
    return this.#serial(async () => {
      try {
        this.#lock?.take();
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
    this.#lock?.release();
  }

  /** Lets go of the data file's lock without closing (a process that exits without closing the app). */
  releaseLock(): void {
    this.#lock?.release();
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
    compactedSummary(this.#report, { logFile: this.logFile, file: this.filename, logBytes, snapshotBytes: this.#snapshotBytes, t0 });
  }

  /** Appends whole lines and fdatasyncs them; on failure the log is cut back to where it was. */
  async #appendBytes(bytes: Buffer): Promise<void> {
    const fresh = this.#logSize === 0;
    const payload = fresh ? Buffer.concat([logHeader(this.#logId), bytes]) : bytes;
    try {
      if (!this.#log) {
        // A new log is a new file: a path left linked to another file's log is unlinked first, never written through.
        if (fresh) await removeIfPresent(this.#fs, this.logFile);
        this.#log = await this.#fs.open(this.logFile, fresh ? 'w+' : 'r+');
        if (fresh) this.#lock?.moved(this.#report);
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
      this.#lock?.moved(this.#report);
      this.#onReplaced(this.filename);
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
    const { seq, offset, generation, logId } = await this.#serial(async () => ({
      seq: this.#seq,
      offset: this.#logSize,
      generation: this.#generation,
      logId: this.#logId,
    }));
    while (committed.seq < seq) await nextTurn();
    const t0 = performance.now();
    const logBytes = offset;
    let bytes: number;
    try {
      bytes = await streamSnapshot(this.#fs, this.#compactTmp, liveSource(committed, seq, logId), this.#progress('compacting'));
    } catch (err) {
      await removeIfPresent(this.#fs, this.#compactTmp).catch(() => {});
      throw err;
    }
    await this.#serial(async () => {
      if (this.#generation !== generation || this.#needsSnapshot) return removeIfPresent(this.#fs, this.#compactTmp);
      await this.#fs.rename(this.#compactTmp, this.filename);
      this.#lock?.moved(this.#report);
      this.#onReplaced(this.filename);
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
    await copyTail(this.#fs, source, offset, tail, this.#logTmp, header);
    await this.#fs.rename(this.#logTmp, this.logFile);
    this.#lock?.moved(this.#report);
    await syncDirectory(this.#fs, this.logFile);
    await this.#log?.close().catch(() => {});
    this.#log = null;
    this.#logSize = header.length + tail;
  }
}
