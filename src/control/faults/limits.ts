// How many faults one mock may hold, and their bytes in all: a fault is kept in memory until it fires out or is cleared.
import { ApiError } from '../../errors.js';
import type { FaultBody } from '../../schemas/index.js';

/** One mock (the default one or a sandbox) holds at most `count` faults of `bytes` in all. */
export const FAULT_LIMITS = Object.freeze({ count: 1000, bytes: 1024 * 1024 } as const);

export interface FaultLimits {
  count: number;
  bytes: number;
}

/** The bytes of one rate limit's window per request it counts: one mock-clock time each. */
const WINDOW_BYTES_PER_REQUEST = 8;

/**
 * What a fault costs against the byte bound: its document as JSON text, and for a rate limit the window it may come
 * to hold (one time per request it counts), so what the bound admits is what the fault may ever take.
 */
export function faultBytes(fault: FaultBody & { id?: unknown; remaining?: unknown; hits?: unknown; matched?: unknown; window?: unknown }): number {
  // What changes as it fires (counts, the window) is left out: a fault costs the same from its add to its removal.
  const { id: _id, remaining: _r, hits: _h, matched: _m, window: _w, ...body } = fault;
  return JSON.stringify(body).length + (fault.rate_limit ? fault.rate_limit.requests * WINDOW_BYTES_PER_REQUEST : 0);
}

/** The words of the bound, shared by the 409 and the bundle's 422. */
export const faultBoundText = (l: FaultLimits): string => `at most ${l.count} faults of ${l.bytes} bytes in all`;

/** 409 `fault_limit` when `count` faults of `bytes` would pass the bound (nothing was added). */
export function checkFaultRoom(limits: FaultLimits, count: number, bytes: number): void {
  if (count <= limits.count && bytes <= limits.bytes) return;
  throw new ApiError('fault_limit', { message: `A mock holds ${faultBoundText(limits)}; clear some first (DELETE /_mock/faults)` });
}
