// JSON subsets, shared by verification patterns and fault matching: objects by their keys, arrays by position.
/** One place where a value differs from the subset expected; `field` is a path such as `query.page` or `body.steps[0].name`. */
export interface Difference {
  field: string;
  expected: unknown;
  /** What the value has there; null when it has nothing. */
  actual: unknown;
}

/** Differences kept per value: a large body cannot blow up an answer. */
export const MAX_DIFFERENCES = 10;

export const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
export const keyPath = (base: string, key: string) => (/^[A-Za-z_][\w-]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`);

/**
 * `actual` contains `expected`: objects by their keys (more keys allowed), arrays element by element with the same
 * length, anything else by equality. Appends a Difference at each innermost place that differs (depth is bounded by
 * the expected value, which is validated JSON no deeper than the body limit allows).
 */
export function subsetDifferences(expected: unknown, actual: unknown, field: string, out: Difference[], limit = MAX_DIFFERENCES): void {
  if (out.length >= limit) return;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) out.push({ field, expected, actual: actual ?? null });
    else for (let i = 0; i < expected.length; i++) subsetDifferences(expected[i], actual[i], `${field}[${i}]`, out, limit);
  } else if (isObject(expected)) {
    if (!isObject(actual)) out.push({ field, expected, actual: actual ?? null });
    else for (const k of Object.keys(expected)) subsetDifferences(expected[k], Object.hasOwn(actual, k) ? actual[k] : undefined, keyPath(field, k), out, limit);
  } else if (actual !== expected) {
    out.push({ field, expected, actual: actual ?? null });
  }
}

/** Whether `actual` contains `expected` (stops at the first difference). */
export function isSubset(expected: unknown, actual: unknown): boolean {
  const out: Difference[] = [];
  subsetDifferences(expected, actual, '', out, 1);
  return out.length === 0;
}
