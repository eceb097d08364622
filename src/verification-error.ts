// A failed verification as node's AssertionError: the answer's message, and `expected`/`actual` that test runners diff.
// A leaf shared by the in-process control surface and the shipped typed client, so it names nothing from `node:`.

/** What a near miss shows: the entry and its fields that differ. */
interface NearMiss {
  id: number;
  differences: { field: string; expected: unknown; actual: unknown }[];
}

/** The constructor of an assertion error (node's AssertionError has this shape). */
export type AssertionErrorClass = new (options: { message: string; expected: unknown; actual: unknown; operator: string }) => Error;

/** Node's AssertionError where the runtime offers it (Node 20.16 and later: no import needed), else an Error of the same shape. */
function runtimeAssertionError(): AssertionErrorClass {
  const node = (globalThis as { process?: { getBuiltinModule?: (id: string) => { AssertionError?: AssertionErrorClass } | undefined } }).process;
  const found = node?.getBuiltinModule?.('node:assert')?.AssertionError;
  if (found) return found;
  return class extends Error {
    readonly code = 'ERR_ASSERTION';
    readonly generatedMessage = false;
    readonly expected: unknown;
    readonly actual: unknown;
    readonly operator: string;
    constructor(options: { message: string; expected: unknown; actual: unknown; operator: string }) {
      super(options.message);
      this.name = 'AssertionError';
      this.expected = options.expected;
      this.actual = options.actual;
      this.operator = options.operator;
    }
  };
}

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
export function verificationError(
  body: Failure,
  operator: 'verify' | 'verifySequence' | 'verifyOnly',
  AssertionError: AssertionErrorClass = runtimeAssertionError(),
): Error {
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
