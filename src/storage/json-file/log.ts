// The sidecar log: change sets as JSON Lines after a header naming the snapshot it continues; encoding, and replay at load.
import { open } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ClockStateSchema, COLLECTION_NAMES, PRIMARY_KEYS, SettingsSchema, type CollectionName } from '../../schemas/index.js';
import type { Change, ChangeSet } from '../change-sets.js';
import { DataFileError, DATA_FILE_MAX_DEPTH, type RecordChecker } from '../data-file.js';
import { nestedDeeperThan } from './json-document.js';
import { removeIfPresent, writeAt, type FileSystem, type Handle } from './fs.js';

const LOG_FORMAT = 'project-runtime-mock-log';
/** A change set larger than this is written as several lines (`"more": true` on all but the last). */
const PART_BYTES = 4 * 1024 * 1024;
const MAX_LINE_BYTES = 256 * 1024 * 1024;
const COLLECTIONS = new Set<string>(COLLECTION_NAMES);

/** Writes `header` and then `length` bytes of `source` from `offset` to a new, fsync'ed file `dest` (the log shortened by a compaction). */
export async function copyTail(fs: FileSystem, source: Handle, offset: number, length: number, dest: string, header: Buffer): Promise<void> {
  const out = await fs.open(dest, 'w');
  try {
    await writeAt(out, header, 0);
    const buf = Buffer.allocUnsafe(Math.min(length, 4 * 1024 * 1024));
    for (let done = 0; done < length;) {
      const { bytesRead } = await source.read(buf, 0, Math.min(buf.length, length - done), offset + done);
      if (bytesRead === 0) throw new Error('the log is shorter than expected');
      await writeAt(out, buf.subarray(0, bytesRead), header.length + done);
      done += bytesRead;
    }
    await out.sync();
  } catch (err) {
    await out.close().catch(() => {});
    await removeIfPresent(fs, dest).catch(() => {});
    throw err;
  }
  await out.close();
}

export const logHeader = (logId: string): Buffer => Buffer.from(`${JSON.stringify({ format: LOG_FORMAT, log_id: logId })}\n`);

/** The lines of a group of change sets, as one buffer. Large sets are split in parts, yielding between them. */
export async function encodeGroup(group: readonly ChangeSet[]): Promise<Buffer> {
  const lines: string[] = [];
  for (const set of group) {
    let part: string[] = [];
    let size = 0;
    for (const ch of set.changes) {
      const item = JSON.stringify([ch.collection, ch.key, ch.record]);
      part.push(item);
      size += item.length;
      if (size >= PART_BYTES) {
        lines.push(`{"seq":${set.seq},"more":true,"changes":[${part.join(',')}]}\n`);
        part = [];
        size = 0;
        await nextTurn();
      }
    }
    const tail = `${set.clock ? `,"clock":${JSON.stringify(set.clock)}` : ''}${set.settings ? `,"settings":${JSON.stringify(set.settings)}` : ''}`;
    lines.push(`{"seq":${set.seq},"changes":[${part.join(',')}]${tail}}\n`);
  }
  return Buffer.from(lines.join(''));
}

export interface Replay {
  /** Bytes of the log that hold whole change sets (what follows is a torn tail, or nothing). */
  validLength: number;
  lastSeq: number;
  /** The log was cut short by a crash: a torn last line, or a change set missing its last part. */
  torn: boolean;
  /** The log belongs to another snapshot (it was replaced before the log could be removed). */
  stale: boolean;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Reads `file` and hands each whole change set after `afterSeq` to `apply`, in order. Damage anywhere but the last
 * line, and a line out of the writer's order, is refused (DataFileError naming the file and line).
 */
export async function replayLog(
  file: string,
  logId: string | null,
  afterSeq: number,
  checker: RecordChecker,
  apply: (set: ChangeSet) => void,
): Promise<Replay> {
  let fh;
  try {
    fh = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { validLength: 0, lastSeq: afterSeq, torn: false, stale: false };
    throw new DataFileError(file, `it cannot be read (${(err as Error).message})`);
  }
  const refuse = (line: number, why: string): never => {
    throw new DataFileError(file, `line ${line}: ${why}`);
  };
  let offset = 0; // where the current line starts
  let validLength = 0;
  let lastSeq = afterSeq;
  let lineNo = 0;
  let previous: number | null = null; // the seq of the last whole change set read
  let parts: { seq: number; changes: Change[]; start: number } | null = null;
  let carry: Buffer[] = [];
  let carryBytes = 0;
  const onLine = (line: Buffer, end: number) => {
    lineNo++;
    if (nestedDeeperThan(line, DATA_FILE_MAX_DEPTH)) refuse(lineNo, `it is nested deeper than ${DATA_FILE_MAX_DEPTH} levels`);
    let json: unknown;
    try {
      json = JSON.parse(line.toString('utf8'));
    } catch (err) {
      refuse(lineNo, `it is not valid JSON (${(err as Error).message})`);
    }
    if (lineNo === 1) {
      if (!isObject(json) || json.format !== LOG_FORMAT) refuse(1, `it is not a project-runtime-mock log (no "format": "${LOG_FORMAT}")`);
      if ((json as Record<string, unknown>).log_id !== logId) throw new Stale();
      validLength = end;
      return;
    }
    if (!isObject(json) || !Number.isSafeInteger(json.seq) || !Array.isArray(json.changes)) refuse(lineNo, 'expected {"seq": <integer>, "changes": [...]}');
    const entry = json as { seq: number; changes: unknown[]; more?: unknown; clock?: unknown; settings?: unknown };
    if (parts && parts.seq !== entry.seq) refuse(lineNo, `change set ${parts.seq} is missing its last part`);
    const changes: Change[] = parts?.changes ?? [];
    entry.changes.forEach((item, i) => {
      if (!Array.isArray(item) || item.length !== 3 || !COLLECTIONS.has(item[0]) || typeof item[1] !== 'string')
        refuse(lineNo, `changes[${i}]: expected [collection, key, record or null]`);
      const [collection, key, record] = item as [CollectionName, string, unknown];
      if (record !== null && isObject(record) && (PRIMARY_KEYS[collection] as (r: unknown) => unknown)(record) !== key)
        refuse(lineNo, `changes[${i}]: the key ${JSON.stringify(key)} is not the record's`);
      const checked = record === null ? null : checker.record(collection, `line ${lineNo}: changes[${i}][2]`, record);
      changes.push({ collection, key, record: checked } as Change);
    });
    if (entry.more === true) {
      parts ??= { seq: entry.seq, changes, start: offset };
      return;
    }
    const clock = entry.clock === undefined ? undefined : checker.check(`line ${lineNo}: clock`, ClockStateSchema, entry.clock);
    const settings = entry.settings === undefined ? undefined : checker.check(`line ${lineNo}: settings`, SettingsSchema, entry.settings);
    if (checker.problems.length) throw new DataFileError(file, `invalid content: ${checker.problems.slice(0, 5).join('; ')}`);
    parts = null;
    // One writer numbers its change sets one after another: a seq out of that order anywhere (twice, back, a gap) is a
    // line this log's writer did not write (another process appended to it), refused before anything is written.
    if (previous !== null && entry.seq !== previous + 1) {
      refuse(
        lineNo,
        entry.seq <= previous
          ? `change set ${entry.seq} follows ${previous}: a line another process wrote`
          : `change set ${entry.seq} follows ${previous}: a change set is missing`,
      );
    }
    previous = entry.seq;
    if (entry.seq <= afterSeq) {
      // Already in the snapshot (a compaction stopped before it could shorten the log).
      validLength = end;
      return;
    }
    if (entry.seq !== lastSeq + 1) refuse(lineNo, `change set ${entry.seq} follows ${lastSeq}: a change set is missing`);
    apply({ seq: entry.seq, changes, ...(clock ? { clock } : {}), ...(settings ? { settings } : {}) } as ChangeSet);
    lastSeq = entry.seq;
    validLength = end;
  };
  try {
    const buf = Buffer.allocUnsafe(4 * 1024 * 1024);
    let position = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, position);
      if (bytesRead === 0) break;
      let start = 0;
      for (;;) {
        const nl = buf.indexOf(0x0a, start);
        if (nl === -1 || nl >= bytesRead) break;
        const piece = buf.subarray(start, nl);
        const line = carry.length ? Buffer.concat([...carry, piece]) : piece;
        carry = [];
        carryBytes = 0;
        onLine(line, position + nl + 1);
        offset = position + nl + 1;
        start = nl + 1;
      }
      if (start < bytesRead) {
        carry.push(Buffer.from(buf.subarray(start, bytesRead)));
        carryBytes += bytesRead - start;
        if (carryBytes > MAX_LINE_BYTES) refuse(lineNo + 1, `it is longer than ${MAX_LINE_BYTES} bytes`);
      }
      position += bytesRead;
    }
  } catch (err) {
    if (err instanceof Stale) return { validLength: 0, lastSeq: afterSeq, torn: false, stale: true };
    throw err;
  } finally {
    await fh.close();
  }
  const torn = carryBytes > 0 || parts !== null;
  const unfinished = parts as { start: number } | null;
  return { validLength: unfinished ? unfinished.start : validLength, lastSeq, torn, stale: false };
}

class Stale extends Error {}
