// UUID parsing as pydantic-core does it: the Rust uuid crate (1.18.1) `Uuid::parse_str`, with its exact error texts.
// Accepted: 32 hex digits, the hyphenated form, `{hyphenated}` and `urn:uuid:hyphenated`, any case. Output: lowercase hyphenated.

const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX = /^[0-9a-fA-F]*$/;
const isHyphenated = (s: string) =>
  s.length === 36 && s[8] === '-' && s[13] === '-' && s[18] === '-' && s[23] === '-' && HEX.test(s.replace(/-/g, '')) && s.split('-').length === 5;

const canonical = (hex32: string) =>
  `${hex32.slice(0, 8)}-${hex32.slice(8, 12)}-${hex32.slice(12, 16)}-${hex32.slice(16, 20)}-${hex32.slice(20)}`.toLowerCase();

export type UuidResult = { ok: true; value: string } | { ok: false; error: string };

/** `Uuid::parse_str`: the canonical form, or the crate's Display text of its error. */
export function parseUuid(input: string): UuidResult {
  if (CANONICAL.test(input)) return { ok: true, value: input };
  // Lengths are in UTF-8 bytes, as the crate counts them; any non-ASCII input fails below anyway.
  const bytes = Buffer.byteLength(input);
  let failed: string = input;
  if (bytes === 32) {
    if (HEX.test(input)) return { ok: true, value: canonical(input) };
  } else if (bytes === 36) {
    if (isHyphenated(input)) return { ok: true, value: canonical(input.replace(/-/g, '')) };
  } else if (bytes === 38 && input.startsWith('{') && input.endsWith('}')) {
    failed = input.slice(1, -1);
    if (isHyphenated(failed)) return { ok: true, value: canonical(failed.replace(/-/g, '')) };
  } else if (bytes === 45 && input.startsWith('urn:uuid:')) {
    failed = input.slice(9);
    if (isHyphenated(failed)) return { ok: true, value: canonical(failed.replace(/-/g, '')) };
  }
  return { ok: false, error: uuidError(failed) };
}

const BLOCK_STARTS = [0, 9, 14, 19, 24];
const GROUP_LENGTHS = [8, 4, 4, 4, 12];

/** `InvalidUuid::into_err` then `Display` (uuid 1.18.1, src/error.rs), on the slice the parser gave up on. */
function uuidError(s: string): string {
  let body = s;
  let offset = 0;
  let simple = true;
  if (s.length >= 2 && s.startsWith('{') && s.endsWith('}')) {
    body = s.slice(1, -1);
    offset = 1;
    simple = false;
  } else if (s.startsWith('urn:uuid:')) {
    body = s.slice(9);
    offset = 9;
    simple = false;
  }
  let hyphens = 0;
  const bounds = [0, 0, 0, 0];
  let index = 0; // byte index, as Rust's char_indices gives it
  for (const ch of body) {
    const c = ch.codePointAt(0)!;
    if (c > 0x7f || (ch !== '-' && !HEX.test(ch))) {
      return `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${ch}\` at ${index + offset + 1}`;
    }
    if (ch === '-') {
      if (hyphens < 4) bounds[hyphens] = index;
      hyphens++;
    }
    index += Buffer.byteLength(ch);
  }
  const len = Buffer.byteLength(s);
  if (hyphens === 0 && simple) return `invalid length: expected length 32 for simple format, found ${len}`;
  if (hyphens !== 4) return `invalid group count: expected 5, found ${hyphens + 1}`;
  for (let i = 0; i < 4; i++) {
    if (bounds[i] !== BLOCK_STARTS[i + 1] - 1) return `invalid group length in group ${i}: expected ${GROUP_LENGTHS[i]}, found ${bounds[i] - BLOCK_STARTS[i]}`;
  }
  return `invalid group length in group 4: expected 12, found ${len - BLOCK_STARTS[4]}`;
}
