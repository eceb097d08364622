// Consecutive requests of one client look alike: an entry keeps the request headers, path and client facts of the
// entry before it when they are equal, so a full journal holds one copy of each rather than one a request (fewer objects
// that live as long as the entry, which is what the garbage collector pays for). Nothing reads them to change them.
import type { ClientFacts } from './journal-types.js';

/** `next`, or `prev` when it has the same header names with the same string values (a list value is never shared). */
export function sharedHeaders(prev: Record<string, unknown> | undefined, next: Record<string, unknown>): Record<string, unknown> {
  if (prev === undefined || prev === next) return next;
  let n = 0;
  for (const k in next) {
    const v = next[k];
    if (typeof v !== 'string' || !Object.hasOwn(prev, k) || prev[k] !== v) return next;
    n++;
  }
  for (const k in prev) if (Object.hasOwn(prev, k)) n--;
  return n === 0 ? prev : next;
}

/** `next`, or `prev` when every fact is the same (facts that name slips are never shared). */
export function sharedFacts(prev: ClientFacts | undefined, next: ClientFacts | undefined): ClientFacts | undefined {
  if (prev === undefined || next === undefined || prev.slips !== undefined || next.slips !== undefined) return next;
  const same =
    prev.principal === next.principal &&
    prev.access === next.access &&
    prev.inFlight === next.inFlight &&
    prev.reason === next.reason &&
    prev.grant === next.grant &&
    prev.refresh === next.refresh &&
    prev.code === next.code;
  return same ? prev : next;
}
