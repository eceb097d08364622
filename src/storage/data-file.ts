// What a data file must hold: its header, a version this build reads, and valid records (checked one at a time as they stream in).
import * as v from 'valibot';
import {
  ClockStateSchema,
  COLLECTION_NAMES,
  COLLECTION_SCHEMAS,
  DATA_FILE_FORMAT,
  DATA_FILE_VERSIONS,
  SettingsSchema,
  type CollectionName,
} from '../schemas/index.js';
import { describeIssues } from '../validation.js';
import { sameJson } from '../json.js';
import { completeAndValid } from './record-check.js';
import { sharedIdentity } from '../shared-identity.js';

/** Raised when a data file cannot be used; start-up stops and the file is left untouched. */
export class DataFileError extends Error {
  static {
    sharedIdentity(this, 'DataFileError');
  }

  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`refusing data file ${file}: ${reason}`);
    this.name = 'DataFileError';
  }
}

/**
 * Containers nested deeper than this are refused before anything recursive sees a record: the file's
 * own three levels plus records far deeper than any request body may be.
 */
export const DATA_FILE_MAX_DEPTH = 256;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const COLLECTIONS = new Set<string>(COLLECTION_NAMES);

/** Collects the first few problems of a file while its records stream in, each as `path: message`. */
export class RecordChecker {
  readonly problems: string[] = [];

  /**
   * The record as stored: the input itself when it is already complete (so a record reads back exactly
   * as it was written, key order included), else its parsed form (defaults filled in); an invalid
   * record is kept unchanged and noted.
   */
  record(c: string, path: string, value: unknown): unknown {
    if (!COLLECTIONS.has(c)) return value;
    return this.check(path, COLLECTION_SCHEMAS[c as CollectionName] as v.GenericSchema, value);
  }

  check(path: string, schema: v.GenericSchema, value: unknown): unknown {
    if (this.problems.length >= 5 || completeAndValid(schema)(value)) return value;
    const result = v.safeParse(schema, value);
    if (result.success) return sameJson(result.output, value) ? value : result.output;
    this.problems.push(...describeIssues(result.issues).map((line) => (line.startsWith('(root)') ? `${path}${line.slice(6)}` : `${path}.${line}`)));
    return value;
  }
}

/** The header fields of a data file document; throws naming what is wrong. */
export function checkHeader(file: string, doc: unknown): { version: number; seq: number; logId: string | null; state: Record<string, unknown> } {
  if (!isObject(doc) || doc.format !== DATA_FILE_FORMAT) {
    throw new DataFileError(file, `it is not a project-runtime-mock data file (no "format": "${DATA_FILE_FORMAT}")`);
  }
  if (!DATA_FILE_VERSIONS.includes(doc.format_version as number)) {
    throw new DataFileError(
      file,
      `format_version ${JSON.stringify(doc.format_version)} is not supported (this build reads ${DATA_FILE_VERSIONS.join(' and ')})`,
    );
  }
  const seq = doc.seq ?? 0;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) throw new DataFileError(file, 'invalid content: seq: Expected a non-negative integer');
  const logId = doc.log_id ?? null;
  if (logId !== null && typeof logId !== 'string') throw new DataFileError(file, 'invalid content: log_id: Expected a string');
  if (!isObject(doc.state)) throw new DataFileError(file, 'invalid content: state: Invalid type: Expected Object');
  return { version: doc.format_version as number, seq, logId, state: doc.state };
}

/** Fills in the state's clock, settings and missing collections; throws with the first problems found. */
export function finishState(file: string, state: Record<string, unknown>, checker: RecordChecker): void {
  for (const c of COLLECTION_NAMES) {
    const list = state[c] ?? [];
    if (!Array.isArray(list)) checker.problems.push(`state.${c}: Invalid type: Expected Array`);
    state[c] = list;
  }
  state.clock = checker.check('state.clock', v.optional(ClockStateSchema, {}), state.clock);
  state.settings = checker.check('state.settings', v.optional(SettingsSchema, {}), state.settings);
  if (checker.problems.length) throw new DataFileError(file, `invalid content: ${checker.problems.slice(0, 5).join('; ')}`);
}
