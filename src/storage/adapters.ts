// Storage adapters behind lowdb's Adapter interface: memory for tests, a validated JSON file by default.
import { Memory, type Adapter } from 'lowdb';
import type { TextFile } from 'lowdb/node';
import * as v from 'valibot';
import { DATA_FILE_FORMAT, DATA_FILE_VERSION, DataFileSchema, type DataFile } from '../schemas/state.js';
import { describeIssues } from '../validation.js';
import { serializeDataFile } from './serialize.js';

export type { Adapter };
export type StorageAdapter = Adapter<DataFile>;

/** Raised when a data file cannot be used; start-up stops and the file is left untouched. */
export class DataFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`refusing data file ${file}: ${reason}`);
    this.name = 'DataFileError';
  }
}

/** Keeps the state in memory only; every instance is independent. */
export class MemoryAdapter extends Memory<DataFile> {}

/** Checks that parsed JSON is one of our data files, and of a version this build reads. */
export function checkDataFile(file: string, json: unknown): DataFile {
  if (typeof json !== 'object' || json === null || Array.isArray(json) || (json as { format?: unknown }).format !== DATA_FILE_FORMAT) {
    throw new DataFileError(file, `it is not a project-runtime-mock data file (no "format": "${DATA_FILE_FORMAT}")`);
  }
  const version = (json as { format_version?: unknown }).format_version;
  if (version !== DATA_FILE_VERSION) {
    throw new DataFileError(file, `format_version ${JSON.stringify(version)} is not supported (this build reads ${DATA_FILE_VERSION})`);
  }
  const result = v.safeParse(DataFileSchema, json);
  if (!result.success) throw new DataFileError(file, `invalid content: ${describeIssues(result.issues).slice(0, 5).join('; ')}`);
  return result.output;
}

/**
 * A JSON file written atomically (temp file + rename, through lowdb's TextFile). Reading validates
 * the content: a truncated, corrupt or foreign file is refused, never silently replaced.
 */
export class JsonFileAdapter implements Adapter<DataFile> {
  #file: Promise<TextFile> | undefined;
  constructor(readonly filename: string) {}

  /** lowdb/node (and steno) load on first use: `--memory` never pays for them at start-up (bench g). One writer per adapter. */
  #text(): Promise<TextFile> {
    return (this.#file ??= import('lowdb/node').then((m) => new m.TextFile(this.filename)));
  }

  async read(): Promise<DataFile | null> {
    const text = await (await this.#text()).read();
    if (text === null) return null;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new DataFileError(this.filename, `it is not valid JSON (${(err as Error).message}); it may be truncated or corrupt`);
    }
    return checkDataFile(this.filename, json);
  }

  async write(data: DataFile): Promise<void> {
    await (await this.#text()).write(serializeDataFile(data));
  }
}
