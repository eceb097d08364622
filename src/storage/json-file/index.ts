// The JSON-file storage's face: the adapter, `jsonFile(path)` (the adapter holding the data file's lock, as the CLI
// does), the lock's error, and the streaming JSON reader the fixture loader shares.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { JsonFileAdapter } from './adapter.js';
import { LockError, realDataPath } from './lock.js';
import type { JsonFileOptions } from './options.js';

export { JsonFileAdapter } from './adapter.js';
export { LockError } from './lock.js';
export { JsonStreamError, readJsonStreaming } from './json-document.js';
export type { StorageReporter, JsonFileOptions } from './options.js';

/**
 * The JSON file at `path` (its symlinks resolved: it is written where it really is), holding its lock from the first
 * read or write until `close()`: a second process on the same file, on another path to it, on a hard link to it, or
 * on a copy whose log is linked to this one's, is refused with a LockError naming the file and the process holding it.
 */
export function jsonFile(path: string, options: Omit<JsonFileOptions, 'lock' | 'fs'> = {}): JsonFileAdapter {
  // Its folder first: where the file really is can only be told once the folder exists (a fresh checkout has none).
  try {
    mkdirSync(dirname(resolve(path)), { recursive: true });
  } catch (err) {
    throw new LockError(`cannot create the directory of data file ${resolve(path)}: ${(err as Error).message}`);
  }
  return new JsonFileAdapter(realDataPath(path), { ...options, lock: path });
}
