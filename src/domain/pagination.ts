// Keyset cursor pages: opaque, tamper-evident cursors and a binary search, so page N costs what page 1 costs.
import { createHash } from 'node:crypto';
import { invalid } from '../errors.js';

export type SortKey = readonly (string | number)[];

const CURSOR_VERSION = 1;
/**
 * The checksum binds the position to the list it came from (`scope`: the list and its project), so a cursor is good
 * only for the list that issued it: another project's cursor, or another list's, fails it like an edited one.
 */
const checksum = (scope: string, payload: string) => createHash('sha256').update(`prm-cursor:${scope}:${payload}`).digest('base64url').slice(0, 16);

function encodeCursor(key: SortKey, scope: string): string {
  const payload = Buffer.from(JSON.stringify([CURSOR_VERSION, ...key])).toString('base64url');
  return `${payload}.${checksum(scope, payload)}`;
}

/** Decodes a cursor this server issued for the list `scope`; anything else is a 422 at loc ["query", "cursor"]. */
function decodeCursor(cursor: string, arity: number, scope: string): SortKey {
  const bad = () => invalid(['query', 'cursor'], 'Invalid cursor', 'value_error', cursor);
  const [payload, sum, extra] = cursor.split('.');
  if (extra !== undefined || !payload || !sum || checksum(scope, payload) !== sum) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parsed) || parsed[0] !== CURSOR_VERSION || parsed.length !== arity + 1) throw bad();
  const key = parsed.slice(1);
  if (!key.every((k) => typeof k === 'string' || typeof k === 'number')) throw bad();
  return key;
}

/** Compares two keys in the list's order (each component descending: newest first). */
function compareDesc(a: SortKey, b: SortKey): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    return a[i] > b[i] ? -1 : 1;
  }
  return 0;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** Which list a cursor belongs to: its name and the project it lists (none for lists of every project). */
export interface ListScope {
  list: string;
  projectId?: string;
}

/**
 * One page of `sorted` (ordered by `keyOf`, descending) starting strictly after `cursor`, which must have been issued
 * by the same list (`scope`). Records
 * added during a walk sort before the cursor or after it, never twice, so every record present
 * when the walk began is seen exactly once.
 */
export function keysetPage<T>(
  sorted: readonly T[],
  keyOf: (t: T) => SortKey,
  arity: number,
  limit: number,
  cursor: string | undefined,
  scope: ListScope,
): Page<T> {
  const scopeText = `${scope.list}:${scope.projectId ?? ''}`;
  let start = 0;
  if (cursor !== undefined) {
    const after = decodeCursor(cursor, arity, scopeText);
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareDesc(keyOf(sorted[mid]), after) <= 0) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const items = sorted.slice(start, start + limit);
  const more = start + limit < sorted.length;
  return { items, next_cursor: more ? encodeCursor(keyOf(items[items.length - 1]), scopeText) : null };
}

/** Sorts newest first by `keyOf`. */
export function sortDesc<T>(xs: T[], keyOf: (t: T) => SortKey): T[] {
  return xs.sort((a, b) => compareDesc(keyOf(a), keyOf(b)));
}
