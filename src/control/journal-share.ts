// Consecutive requests of one client look alike: an entry keeps the request headers and client facts of the entry
// before it when they are equal, so a full journal holds one copy of each rather than one a request (fewer objects
// that live as long as the entry, which is what the garbage collector pays for). Nothing reads them to change them.

/**
 * `next`, or `prev` when both hold the same keys with the same plain values (text, number, boolean, null). A list or
 * object value (a header repeated, a request's slips) is never shared, so what is kept is always exactly what was seen.
 */
export function shared<T extends object>(prev: T | undefined, next: T): T;
export function shared<T extends object>(prev: T | undefined, next: T | undefined): T | undefined;
export function shared<T extends object>(prev: T | undefined, next: T | undefined): T | undefined {
  if (prev === undefined || next === undefined || prev === next) return next;
  const p = prev as Record<string, unknown>;
  const q = next as Record<string, unknown>;
  let n = 0;
  for (const k in q) {
    const v = q[k];
    if ((v !== null && typeof v === 'object') || !Object.hasOwn(p, k) || p[k] !== v) return next;
    n++;
  }
  for (const k in p) if (Object.hasOwn(p, k)) n--;
  return n === 0 ? prev : next;
}
