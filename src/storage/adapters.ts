// Storage adapters behind lowdb's Adapter interface: memory for tests, a validated JSON file by default.
import { Memory, type Adapter } from 'lowdb';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as v from 'valibot';
import { ClockStateSchema, COLLECTION_NAMES, COLLECTION_SCHEMAS, DATA_FILE_FORMAT, DATA_FILE_VERSION, SettingsSchema, type DataFile } from '../schemas/state.js';
import { describeIssues } from '../validation.js';
import { serializeDataFile } from './serialize.js';
import { sameJson } from '../json.js';

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

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Checks that parsed JSON is one of our data files, of a version this build reads, with valid
 * records. Records are validated one at a time and replaced in place by their parsed form, so a
 * 100k-record file never exists twice in memory (bench h).
 */
export function checkDataFile(file: string, json: unknown): DataFile {
  if (!isObject(json) || json.format !== DATA_FILE_FORMAT) {
    throw new DataFileError(file, `it is not a project-runtime-mock data file (no "format": "${DATA_FILE_FORMAT}")`);
  }
  if (json.format_version !== DATA_FILE_VERSION) {
    throw new DataFileError(file, `format_version ${JSON.stringify(json.format_version)} is not supported (this build reads ${DATA_FILE_VERSION})`);
  }
  const state = json.state;
  if (!isObject(state)) throw new DataFileError(file, 'invalid content: state: Invalid type: Expected Object');
  const problems: string[] = [];
  const check = (path: string, schema: v.GenericSchema, value: unknown): unknown => {
    const result = v.safeParse(schema, value);
    // A record the mock wrote is already complete: keep the parsed input (already in the old
    // generation) and let the copy die young, instead of holding both while the file loads.
    if (result.success) return sameJson(result.output, value) ? value : result.output;
    problems.push(...describeIssues(result.issues).map((line) => (line.startsWith('(root)') ? `${path}${line.slice(6)}` : `${path}.${line}`)));
    return value;
  };
  for (const c of COLLECTION_NAMES) {
    const list = state[c] ?? [];
    if (!Array.isArray(list)) {
      problems.push(`state.${c}: Invalid type: Expected Array`);
      continue;
    }
    for (let i = 0; i < list.length && problems.length < 5; i++) list[i] = check(`state.${c}[${i}]`, COLLECTION_SCHEMAS[c], list[i]);
    state[c] = list;
  }
  state.clock = check('state.clock', v.optional(ClockStateSchema, {}), state.clock);
  state.settings = check('state.settings', v.optional(SettingsSchema, {}), state.settings);
  if (problems.length) throw new DataFileError(file, `invalid content: ${problems.slice(0, 5).join('; ')}`);
  return json as unknown as DataFile;
}

/**
 * A JSON file, replaced atomically on each write (a temp file beside it, then a rename, so a crash
 * leaves the old or the new file, never half of one). Reading validates the content: a truncated,
 * corrupt or foreign file is refused, never silently replaced. The store never writes concurrently.
 */
export class JsonFileAdapter implements Adapter<DataFile> {
  readonly #temp: string;
  constructor(readonly filename: string) {
    this.#temp = join(dirname(filename), `.${basename(filename)}.tmp`);
  }

  async read(): Promise<DataFile | null> {
    let text: string;
    try {
      text = await readFile(this.filename, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new DataFileError(this.filename, `it cannot be read (${(err as Error).message})`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new DataFileError(this.filename, `it is not valid JSON (${(err as Error).message}); it may be truncated or corrupt`);
    }
    return checkDataFile(this.filename, json);
  }

  async write(data: DataFile): Promise<void> {
    await writeFile(this.#temp, serializeDataFile(data));
    await rename(this.#temp, this.filename);
  }
}
