// A disk for the JSON file adapter that counts its syncs and can be made to fail (full, read-only), and helpers to read what it holds.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFileSystem, type FileSystem, type Handle } from '../../src/storage/json-file/fs.js';

export type Failure = 'write' | 'datasync' | 'sync' | 'rename' | 'open' | null;

/** A file system that works like the real one until `fail` names an operation: then that operation throws ENOSPC or EROFS. */
export class TestDisk implements FileSystem {
  fail: Failure = null;
  /** When set, only operations on paths containing this fail. */
  failOn: string | null = null;
  code: 'ENOSPC' | 'EROFS' | 'EACCES' = 'ENOSPC';
  /** Writes to paths containing `slowOn` wait `slowMs` first (to hold a compaction open while other writes happen). */
  slowOn: string | null = null;
  slowMs = 0;
  datasyncs = 0;
  fileSyncs = 0;
  dirSyncs = 0;
  writes = 0;

  private check(op: Failure, path: string): void {
    if (this.fail === op && (this.failOn === null || path.includes(this.failOn))) {
      throw Object.assign(new Error(`${this.code}: simulated failure, ${op} '${path}'`), { code: this.code, path });
    }
  }

  async open(path: string, flags: string): Promise<Handle> {
    this.check('open', path);
    const fh = await nodeFileSystem.open(path, flags);
    const isDir = flags === 'r';
    return {
      write: async (buf, offset, length, position) => {
        this.check('write', path);
        if (this.slowOn !== null && path.includes(this.slowOn)) await new Promise((r) => setTimeout(r, this.slowMs));
        this.writes++;
        return fh.write(buf, offset, length, position);
      },
      read: (buf, offset, length, position) => fh.read(buf, offset, length, position),
      datasync: async () => {
        this.check('datasync', path);
        this.datasyncs++;
        return fh.datasync();
      },
      sync: async () => {
        this.check('sync', path);
        if (isDir) this.dirSyncs++;
        else this.fileSyncs++;
        return fh.sync();
      },
      truncate: (len) => fh.truncate(len),
      close: () => fh.close(),
    };
  }

  async rename(from: string, to: string): Promise<void> {
    this.check('rename', to);
    return nodeFileSystem.rename(from, to);
  }

  unlink(path: string): Promise<void> {
    return nodeFileSystem.unlink(path);
  }

  size(path: string): Promise<number | null> {
    return nodeFileSystem.size(path);
  }
}

export const tmpDataFile = (prefix = 'prm-file-'): string => join(mkdtempSync(join(tmpdir(), prefix)), 'db.json');

/** The file names in the data file's folder, sorted. */
export const filesBeside = (file: string): string[] => readdirSync(join(file, '..')).sort();

/** The log's lines after its header, parsed. */
export function logLines(file: string): { seq: number; changes: [string, string, unknown][]; more?: boolean }[] {
  const text = readFileSync(`${file}.log`, 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .slice(1)
    .map((l) => JSON.parse(l));
}

/** Collects the adapter's report lines. */
export function recorder() {
  const lines = { warn: [] as string[], summary: [] as string[] };
  return { lines, report: { warn: (l: string) => lines.warn.push(l), summary: (l: string) => lines.summary.push(l) } };
}
