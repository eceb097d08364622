// The length of a value's JSON text, counted element by element and given up past a bound: no string of the whole is built.

/** The part of a value counted element by element; below it each element is stringified on its own (bounded depth, no recursion on input). */
const WALKED_LEVELS = 2;

const isPlainContainer = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON !== 'function';

/**
 * `JSON.stringify(value).length` when that is at most `max`; otherwise some number above `max`, found without going
 * further. Memory is that of the largest element below the walked levels (one record of a state), never the whole text.
 */
export function jsonLengthUpTo(value: unknown, max: number): number {
  let total = 0;
  const visit = (v: unknown, level: number, inArray: boolean): void => {
    if (total > max) return;
    if (level >= WALKED_LEVELS || !isPlainContainer(v)) {
      const text = JSON.stringify(v);
      // What stringify leaves out of an object, it writes as null in an array.
      total += text === undefined ? (inArray ? 4 : 0) : text.length;
      return;
    }
    if (Array.isArray(v)) {
      total += 2 + Math.max(0, v.length - 1);
      for (const item of v) visit(item, level + 1, true);
      return;
    }
    let members = 0;
    total += 2;
    for (const [k, item] of Object.entries(v)) {
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      total += (members++ > 0 ? 1 : 0) + JSON.stringify(k).length + 1;
      visit(item, level + 1, false);
    }
  };
  visit(value, 0, false);
  return total;
}
