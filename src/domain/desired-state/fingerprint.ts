// Content fingerprints: lowercase hex SHA-256 of the RFC 8785 (JCS) canonical JSON, as docs/desired-state.md defines.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** RFC 8785 canonical JSON text; throws on values JSON cannot hold (undefined at top level, NaN, lone surrogates). */
function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The fingerprint of any JSON value: equal values (whatever their key order) give equal fingerprints. */
export function fingerprint(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/** Deep JSON equality (structural: no need to canonicalize and compare strings). */
export { sameJson } from '../../json.js';
