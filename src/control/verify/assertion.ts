// A failed verification as node's AssertionError: the answer's message, and `expected`/`actual` that test runners diff.
import { AssertionError } from 'node:assert';
import type { NearMiss } from './check.js';

type Failure = {
  detail: { message: string };
  matched: number;
  expected?: unknown;
  near_misses?: NearMiss[];
  failed_at?: number;
  unexpected?: { id: number; method: string; path: string; status: number }[];
};

/** The differing fields of the closest near miss, side by side (what a diff should show). */
function sides(misses: NearMiss[] | undefined): [Record<string, unknown>, Record<string, unknown>] {
  const expected: Record<string, unknown> = {};
  const actual: Record<string, unknown> = {};
  const closest = misses?.[0];
  if (closest) {
    expected.id = actual.id = closest.id;
    for (const d of closest.differences) {
      expected[d.field] = d.expected;
      actual[d.field] = d.actual;
    }
  }
  return [expected, actual];
}

/**
 * The AssertionError of a 417 body (in process and in the typed client alike). `expected` and `actual` are small
 * objects: the count (or order) asked for against what was found, and the closest near miss's differing fields.
 */
export function verificationError(body: Failure, operator: 'verify' | 'verifySequence' | 'verifyOnly'): AssertionError {
  let expected: Record<string, unknown>;
  let actual: Record<string, unknown>;
  if (body.unexpected) {
    expected = { unexpected: [] };
    actual = { unexpected: body.unexpected.map((e) => `#${e.id} ${e.method} ${e.path} -> ${e.status}`) };
  } else {
    const [e, a] = sides(body.near_misses);
    // A sequence: the pattern that found nothing in order; a count: the count asked for against the matches.
    expected = body.failed_at !== undefined ? { failed_at: body.failed_at, pattern: body.expected, ...e } : { matched: body.expected, ...e };
    actual = body.failed_at !== undefined ? { failed_at: body.failed_at, pattern: 'no match in order', ...a } : { matched: body.matched, ...a };
  }
  return new AssertionError({ message: body.detail.message, expected, actual, operator });
}
