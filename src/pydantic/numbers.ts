// pydantic-core's lax coercions of JSON scalars (src/input/input_python.rs, src/input/shared.rs): which inputs an int,
// float or bool field accepts, and which error type each refusal gets.

export type Coerced<T> = { ok: true; value: T } | { ok: false; type: string };

const fail = (type: string): Coerced<never> => ({ ok: false, type });
const ok = <T>(value: T): Coerced<T> => ({ ok: true, value });

/** The i64 range: past it pydantic-core holds a Python big int; the mock bounds every int to JS's safe range instead. */
export const MAX_INT = Number.MAX_SAFE_INTEGER;

const JSON_INT = /^-?(0|[1-9]\d*)$/;

/** Leading and trailing underscores, doubled ones, or none: not a Python digit grouping. */
function stripUnderscores(s: string): string | undefined {
  if (s.startsWith('_') || s.endsWith('_') || !s.includes('_') || s.includes('__')) return undefined;
  return s.replace(/_/g, '');
}

/** shared.rs strip_leading_zeros: keeps one zero, and the zero before a '.'. */
function stripLeadingZeros(s: string): string | undefined {
  if (s === '') return undefined;
  const first = s[0];
  if (first !== '0') return (first >= '1' && first <= '9') || first === '-' ? s : undefined;
  for (let i = 1; i < s.length; i++) {
    const c = s[i];
    if (c === '0' || c === '_') continue;
    if ((c >= '1' && c <= '9') || c === '-') return s.slice(i);
    if (c === '.') return s.slice(i - 1);
    return undefined;
  }
  return s.slice(-1);
}

/** shared.rs clean_int_str: trim, one sign, leading zeros, a ".000" tail, digit-group underscores. */
function cleanIntStr(input: string): string | undefined {
  let s = input.trim();
  const lenBefore = input.length;
  if (s.startsWith('+')) {
    if (s[1] === '-') return undefined;
    s = s.slice(1);
  }
  let negative = false;
  if (s.startsWith('-')) {
    if (s[1] === '-' || s[1] === '+') return undefined;
    negative = true;
    s = s.slice(1);
  }
  const stripped = stripLeadingZeros(s);
  if (stripped === undefined) return undefined;
  s = stripped;
  const dot = s.indexOf('.');
  if (dot >= 0) {
    const decimals = s.slice(dot + 1);
    if (decimals !== '' && /^0+$/.test(decimals)) s = s.slice(0, dot);
  }
  const grouped = stripUnderscores(s);
  if (grouped !== undefined) return (negative ? '-' : '') + grouped;
  if (lenBefore === s.length) return undefined;
  return (negative ? '-' : '') + s;
}

/** str_as_int: a JSON integer, or the same after clean_int_str. */
function strAsInt(s: string): number | undefined {
  if (JSON_INT.test(s)) return Number(s);
  const cleaned = cleanIntStr(s);
  return cleaned !== undefined && JSON_INT.test(cleaned) ? Number(cleaned) : undefined;
}

/** Rust's f64::from_str after trim (inf, infinity and nan in any case included), then with underscores stripped. */
const RUST_FLOAT = /^[+-]?(inf|infinity|nan|(\d+\.?\d*|\.\d+)(e[+-]?\d+)?)$/i;
function rustFloat(s: string): number | undefined {
  if (!RUST_FLOAT.test(s)) return undefined;
  const body = s.replace(/^[+-]/, '').toLowerCase();
  const sign = s.startsWith('-') ? -1 : 1;
  if (body === 'nan') return NaN;
  if (body === 'inf' || body === 'infinity') return sign * Infinity;
  return Number(s);
}

function strAsFloat(s: string): number | undefined {
  const direct = rustFloat(s.trim());
  if (direct !== undefined) return direct;
  const grouped = stripUnderscores(s);
  return grouped === undefined ? undefined : rustFloat(grouped);
}

/** An int field: ints, whole floats, bools (lax) and numeric strings; the result must also be finite and within ±MAX_INT. */
export function toInt(x: unknown): Coerced<number> {
  let n: number;
  if (typeof x === 'number') {
    if (!Number.isFinite(x)) return fail('finite_number');
    if (!Number.isInteger(x)) return fail('int_from_float');
    n = x;
  } else if (typeof x === 'boolean') n = x ? 1 : 0;
  else if (typeof x === 'string') {
    const parsed = strAsInt(x);
    if (parsed === undefined) return fail('int_parsing');
    n = parsed;
  } else return fail('int_type');
  return ok(n === 0 ? 0 : n); // -0 reads as 0, as Python's int has no negative zero
}

/** A float field: numbers, bools (lax) and numeric strings (Rust's float syntax). Finiteness is checked by the caller. */
export function toFloat(x: unknown): Coerced<number> {
  if (typeof x === 'number') return ok(x);
  if (typeof x === 'boolean') return ok(x ? 1 : 0);
  if (typeof x === 'string') {
    const parsed = strAsFloat(x);
    return parsed === undefined ? fail('float_parsing') : ok(parsed);
  }
  return fail('float_type');
}

const FALSE = new Set(['0', 'f', 'n', 'no', 'off', 'false']);
const TRUE = new Set(['1', 't', 'y', 'on', 'yes', 'true']);

/** A bool field: bools, 0 and 1 (also as floats), and the strings of shared.rs str_as_bool (ASCII case-insensitive). */
export function toBool(x: unknown): Coerced<boolean> {
  if (typeof x === 'boolean') return ok(x);
  if (typeof x === 'string') {
    const lower = x.toLowerCase();
    if (FALSE.has(lower)) return ok(false);
    if (TRUE.has(lower)) return ok(true);
    return fail('bool_parsing');
  }
  if (typeof x === 'number') {
    if (x === 0) return ok(false);
    if (x === 1) return ok(true);
    return Number.isInteger(x) ? fail('bool_parsing') : fail('bool_type');
  }
  return fail('bool_type');
}
