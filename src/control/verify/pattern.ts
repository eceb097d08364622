// Request patterns: which journal entries match one, and how a near miss differs from it field by field.
import { compileGlob, type GlobMatcher } from '../../glob.js';
import type { JournalEntry } from '../journal.js';
import type { RequestPattern } from '../../schemas/index.js';
import { isObject, keyPath, MAX_DIFFERENCES, subsetDifferences, type Difference } from '../subset.js';

export type { Difference } from '../subset.js';

export interface CompiledPattern {
  /** The pattern as matched: method in capitals, a status class in lowercase, header names in lowercase. */
  readonly pattern: RequestPattern;
  /** How `entry` differs from the pattern; empty = it matches. Stops after MAX_DIFFERENCES. */
  differences(entry: JournalEntry): Difference[];
  /** Whether `entry` matches (cheaper than differences: stops at the first). */
  matches(entry: JournalEntry): boolean;
}

/** The reason code of an error answer in the management envelope, or null. */
function reasonCodeOf(entry: JournalEntry): string | null {
  const body = entry.response.body;
  const detail = isObject(body) ? body.detail : undefined;
  return isObject(detail) && typeof detail.reason_code === 'string' ? detail.reason_code : null;
}

const headerText = (v: unknown): string | null => (v === undefined || v === null ? null : Array.isArray(v) ? v.join(', ') : String(v));

export function compilePattern(pattern: RequestPattern): CompiledPattern {
  const method = pattern.method?.toUpperCase();
  const glob: GlobMatcher | null = pattern.path === undefined ? null : compileGlob(pattern.path);
  const status = pattern.status === undefined ? undefined : typeof pattern.status === 'number' ? pattern.status : pattern.status.toLowerCase();
  const headers = pattern.headers && Object.entries(pattern.headers).map(([k, v]) => [k.toLowerCase(), v] as const);

  const differences = (e: JournalEntry, limit: number): Difference[] => {
    const out: Difference[] = [];
    const add = (field: string, expected: unknown, actual: unknown) => out.length < limit && out.push({ field, expected, actual: actual ?? null });
    if (method !== undefined && e.method !== method) add('method', method, e.method);
    if (glob && !glob.test(e.path)) add('path', pattern.path, e.path);
    if (pattern.operation !== undefined && e.operation !== pattern.operation) add('operation', pattern.operation, e.operation);
    if (status !== undefined && (typeof status === 'number' ? e.status !== status : String(e.status)[0] !== status[0])) add('status', status, e.status);
    if (pattern.reason_code !== undefined && out.length < limit) {
      const code = reasonCodeOf(e);
      if (code !== pattern.reason_code) add('reason_code', pattern.reason_code, code);
    }
    if (pattern.query) for (const [k, v] of Object.entries(pattern.query)) if (out.length < limit) subsetDifferences(v, e.query[k], keyPath('query', k), out);
    if (headers) for (const [k, v] of headers) if (headerText(e.request.headers[k]) !== v) add(keyPath('headers', k), v, headerText(e.request.headers[k]));
    if (pattern.body !== undefined && out.length < limit) subsetDifferences(pattern.body, e.request.body, 'body', out);
    return out.length > limit ? out.slice(0, limit) : out;
  };

  const normalized: RequestPattern = { ...pattern };
  if (method !== undefined) normalized.method = method;
  if (status !== undefined) normalized.status = status;
  if (headers) normalized.headers = Object.fromEntries(headers);
  return {
    pattern: normalized,
    differences: (e) => differences(e, MAX_DIFFERENCES),
    matches: (e) => differences(e, 1).length === 0,
  };
}
