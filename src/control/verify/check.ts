// The three verifications over journal entries: a pattern's count, patterns in order, and nothing but the patterns.
import { ApiError, invalid } from '../../errors.js';
import type { JournalEntry } from '../journal.js';
import type { Count, RequestPattern } from '../../schemas/index.js';
import { compilePattern, type CompiledPattern, type Difference } from './pattern.js';

/** Near misses an answer names at most, closest first. */
const MAX_NEAR_MISSES = 5;
/** Unexpected entries `verify/only` lists at most (`unexpected_count` has them all). */
const MAX_UNEXPECTED = 20;

interface NearMiss {
  id: number;
  differences: Difference[];
}

/** What the journal held: its entries oldest first, and how many its bounds pushed out before them. */
export interface JournalView {
  entries: JournalEntry[];
  evicted: number;
}

export interface VerifyAnswer {
  matched: number;
  ids: number[];
  /** Present when entries left the journal: they were not counted. */
  evicted?: number;
}

/** The 417 body: the management envelope, and beside it what was found. */
interface VerifyFailure {
  detail: { reason_code: string; message: string };
  matched: number;
  evicted?: number;
  [key: string]: unknown;
}

export type Outcome<F extends VerifyFailure = VerifyFailure> = { ok: true; answer: VerifyAnswer } | { ok: false; failure: F };

export interface CountFailure extends VerifyFailure {
  expected: Count;
  near_misses: NearMiss[];
}
export interface SequenceFailure extends VerifyFailure {
  ids: number[];
  /** The index of the first pattern with no match after the previous one's. */
  failed_at: number;
  expected: RequestPattern;
  near_misses: NearMiss[];
}
interface UnexpectedEntry {
  id: number;
  method: string;
  path: string;
  status: number;
  operation: string | null;
}
export interface OnlyFailure extends VerifyFailure {
  unexpected: UnexpectedEntry[];
  unexpected_count: number;
}

/** The count a verification holds the matches to: `{}`, exactly with a bound, or bounds that cross are 422s. */
function checkedCount(count: Count | undefined): Count {
  if (count === undefined) return { at_least: 1 };
  const { exactly, at_least, at_most } = count;
  if (exactly === undefined && at_least === undefined && at_most === undefined)
    throw invalid(['body', 'count'], 'Give exactly, at_least or at_most', 'value_error', count);
  if (exactly !== undefined && (at_least !== undefined || at_most !== undefined))
    throw invalid(['body', 'count'], 'exactly excludes at_least and at_most', 'value_error', count);
  if (at_least !== undefined && at_most !== undefined && at_least > at_most)
    throw invalid(['body', 'count'], 'at_least must not be greater than at_most', 'value_error', count);
  return count;
}

/** `exactly 1 request`, `at least 2 requests`, `between 1 and 3 requests`. */
function countText(c: Count): string {
  if (c.at_least !== undefined && c.at_most !== undefined) return `between ${c.at_least} and ${c.at_most} requests`;
  const [words, n] = c.exactly !== undefined ? ['exactly', c.exactly] : c.at_least !== undefined ? ['at least', c.at_least] : ['at most', c.at_most!];
  return `${words} ${plural(n, 'request')}`;
}

const holds = (c: Count, n: number) =>
  (c.exactly === undefined || n === c.exactly) && (c.at_least === undefined || n >= c.at_least) && (c.at_most === undefined || n <= c.at_most);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const label = (e: JournalEntry) => `#${e.id} ${e.method} ${e.path} -> ${e.status}`;

/** The closest non-matching entries: fewest differences first, then the newest. */
function nearMisses(p: CompiledPattern, entries: JournalEntry[]): { misses: NearMiss[]; lines: string[] } {
  const scored: { e: JournalEntry; d: Difference[] }[] = [];
  for (const e of entries) {
    const d = p.differences(e);
    if (d.length) scored.push({ e, d });
  }
  scored.sort((a, b) => a.d.length - b.d.length || b.e.id - a.e.id);
  const top = scored.slice(0, MAX_NEAR_MISSES);
  const lines = top.map(
    ({ e, d }) => `  ${label(e)}: ${d.map((x) => `${x.field} expected ${JSON.stringify(x.expected)}, got ${JSON.stringify(x.actual)}`).join('; ')}`,
  );
  return { misses: top.map(({ e, d }) => ({ id: e.id, differences: d })), lines };
}

function failure<F extends VerifyFailure>(message: string, evicted: number, rest: Omit<F, 'detail' | 'evicted'>): F {
  const note = evicted > 0 ? `\n${plural(evicted, 'earlier request')} left the journal (its bounds) and could not be checked.` : '';
  const detail = new ApiError('verification_failed', { message: message + note }).body().detail as VerifyFailure['detail'];
  return { detail, ...rest, ...(evicted > 0 ? { evicted } : {}) } as F;
}

const passed = (ids: number[], evicted: number): { ok: true; answer: VerifyAnswer } => ({
  ok: true,
  answer: { matched: ids.length, ids, ...(evicted > 0 ? { evicted } : {}) },
});

/** `pattern` matched a number of entries `count` allows (at least 1 without it). */
export function verifyCount(view: JournalView, pattern: RequestPattern, count: Count | undefined): Outcome<CountFailure> {
  const c = checkedCount(count);
  const p = compilePattern(pattern);
  const ids = view.entries.filter((e) => p.matches(e)).map((e) => e.id);
  if (holds(c, ids.length)) return passed(ids, view.evicted);
  const { misses, lines } = nearMisses(p, view.entries);
  const head = `Expected ${countText(c)} matching ${JSON.stringify(p.pattern)}, but ${ids.length} matched${ids.length ? ` (${ids.map((i) => `#${i}`).join(', ')})` : ''} among ${plural(view.entries.length, 'journaled request')}.`;
  const message = lines.length ? `${head}\nClosest requests:\n${lines.join('\n')}` : head;
  return { ok: false, failure: failure<CountFailure>(message, view.evicted, { matched: ids.length, expected: c, near_misses: misses }) };
}

/** The patterns matched entries in this order, others possibly between them. */
export function verifySequence(view: JournalView, patterns: RequestPattern[]): Outcome<SequenceFailure> {
  const compiled = patterns.map(compilePattern);
  const ids: number[] = [];
  let at = 0;
  for (let k = 0; k < compiled.length; k++) {
    const p = compiled[k];
    let found = -1;
    for (let i = at; i < view.entries.length; i++) {
      if (p.matches(view.entries[i])) {
        found = i;
        break;
      }
    }
    if (found < 0) {
      const after = ids.length ? ` after #${ids[ids.length - 1]}` : '';
      const { misses, lines } = nearMisses(p, view.entries.slice(at));
      const head = `Expected requests in order; pattern ${k} ${JSON.stringify(p.pattern)} has no match${after} (${k} of ${compiled.length} matched in order${ids.length ? `: ${ids.map((i) => `#${i}`).join(', ')}` : ''}).`;
      const message = lines.length ? `${head}\nClosest requests${after}:\n${lines.join('\n')}` : head;
      return {
        ok: false,
        failure: failure<SequenceFailure>(message, view.evicted, { matched: k, ids, failed_at: k, expected: p.pattern, near_misses: misses }),
      };
    }
    ids.push(view.entries[found].id);
    at = found + 1;
  }
  return passed(ids, view.evicted);
}

/** Every entry matches at least one pattern. */
export function verifyOnly(view: JournalView, patterns: RequestPattern[]): Outcome<OnlyFailure> {
  const compiled = patterns.map(compilePattern);
  const ids: number[] = [];
  const unexpected: JournalEntry[] = [];
  for (const e of view.entries) {
    if (compiled.some((p) => p.matches(e))) ids.push(e.id);
    else unexpected.push(e);
  }
  if (unexpected.length === 0) return passed(ids, view.evicted);
  const shown = unexpected.slice(0, MAX_UNEXPECTED);
  const more = unexpected.length > shown.length ? `\n  ... and ${unexpected.length - shown.length} more` : '';
  const message = `Expected only requests matching ${compiled.length === 1 ? 'the pattern' : `one of ${compiled.length} patterns`}, but ${plural(unexpected.length, 'request')} matched none:\n${shown.map((e) => `  ${label(e)}`).join('\n')}${more}`;
  const list = shown.map((e) => ({ id: e.id, method: e.method, path: e.path, status: e.status, operation: e.operation }));
  return { ok: false, failure: failure<OnlyFailure>(message, view.evicted, { matched: ids.length, unexpected: list, unexpected_count: unexpected.length }) };
}
