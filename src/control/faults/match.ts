// What a fault's `match` asks of a request beyond method and path: query, headers, body (JSON subsets) and principal.
import { isSubset } from '../subset.js';
import type { FaultBody } from '../../schemas/index.js';

/** The request as fault matching reads it; the body and the principal are looked up only when a fault asks. */
export interface RequestFacts {
  method: string;
  path: string;
  /** The parsed query (a repeated key as an array). */
  query: Record<string, unknown>;
  /** Header names in lowercase. */
  headers: Record<string, unknown>;
  /** The parsed JSON body, or undefined (none, not JSON, or unreadable); read before matching when some fault needs it. */
  body?: unknown;
  /** The principal id behind the bearer token, or null. */
  principal(): string | null;
}

export type MatchTest = (r: RequestFacts) => boolean;

const headerText = (v: unknown): string | undefined => (v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : String(v));

/** The test of a fault's `match` (operation is matched by the index), or null when it asks nothing more. */
export function compileMatch(m: FaultBody['match']): MatchTest | null {
  if (!m) return null;
  const tests: MatchTest[] = [];
  if (m.query) {
    const query = m.query;
    tests.push((r) => isSubset(query, r.query));
  }
  if (m.headers) {
    const wanted = Object.entries(m.headers).map(([k, v]) => [k.toLowerCase(), v] as const);
    tests.push((r) => wanted.every(([k, v]) => headerText(r.headers[k]) === v));
  }
  if (m.body !== undefined) {
    const body = m.body;
    tests.push((r) => r.body !== undefined && isSubset(body, r.body));
  }
  if (m.principal !== undefined) {
    const principal = m.principal;
    tests.push((r) => r.principal() === principal);
  }
  if (tests.length === 0) return null;
  return (r) => tests.every((t) => t(r));
}
