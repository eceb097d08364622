// RFC 8785 (JCS) canonical JSON and SHA-256 fingerprints, written here independently of the code under test
// (which uses the `canonicalize` package), and checked against the RFC's own vectors in fingerprints.test.ts.
import { createHash } from 'node:crypto';

/**
 * RFC 8785 section 3.2: objects with members sorted by the UTF-16 code units of their names, no whitespace,
 * strings and numbers serialized as ECMAScript's JSON.stringify does (3.2.2.2, 3.2.2.3).
 */
export function jcs(value: unknown): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('JCS: NaN and Infinity have no JSON form');
    return Object.is(value, -0) ? '0' : String(value); // ES Number::toString, as JSON.stringify
  }
  if (typeof value === 'string') {
    if (/\p{Cs}/u.test(value)) throw new TypeError('JCS: lone surrogate'); // 3.2.2.2: must be well-formed
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  if (typeof value === 'object') {
    const names = Object.keys(value as object).filter((k) => (value as Record<string, unknown>)[k] !== undefined);
    // Array.prototype.sort without a comparator compares UTF-16 code units: exactly 3.2.3.
    return `{${names
      .sort()
      .map((k) => `${JSON.stringify(k)}:${jcs((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  throw new TypeError(`JCS: ${typeof value} has no JSON form`);
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of the canonical JSON. */
export const fingerprintOf = (value: unknown): string =>
  createHash('sha256')
    .update(Buffer.from(jcs(value), 'utf8'))
    .digest('hex');
