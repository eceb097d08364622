// Datetime parsing as pydantic-core does it in lax mode: speedate 0.17 (RFC 3339 text, or a unix timestamp in seconds or
// milliseconds), with speedate's error texts. Output: an ISO 8601 UTC string the rest of the mock can Date.parse.

export type DatetimeResult = { ok: true; value: string } | { ok: false; type: 'datetime_type' | 'datetime_parsing'; error?: string };

// speedate's ParseError documentation strings (what pydantic puts in ctx.error).
const E = {
  TooShort: 'input is too short',
  ExtraCharacters: 'unexpected extra characters at the end of the input',
  InvalidCharDateTimeSep: 'invalid datetime separator, expected `T`, `t`, `_` or space',
  InvalidCharDateSep: 'invalid date separator, expected `-`',
  InvalidCharYear: 'invalid character in year',
  InvalidCharMonth: 'invalid character in month',
  InvalidCharDay: 'invalid character in day',
  InvalidCharTimeSep: 'invalid time separator, expected `:`',
  InvalidCharHour: 'invalid character in hour',
  InvalidCharMinute: 'invalid character in minute',
  InvalidCharSecond: 'invalid character in second',
  InvalidCharTzSign: 'invalid timezone sign',
  InvalidCharTzHour: 'invalid timezone hour',
  InvalidCharTzMinute: 'invalid timezone minute',
  OutOfRangeTzMinute: 'timezone minute value is outside expected range of 0-59',
  OutOfRangeTz: 'timezone offset must be less than 24 hours',
  OutOfRangeMonth: 'month value is outside expected range of 1-12',
  OutOfRangeDay: 'day value is outside expected range',
  OutOfRangeHour: 'hour value is outside expected range of 0-23',
  OutOfRangeMinute: 'minute value is outside expected range of 0-59',
  OutOfRangeSecond: 'second value is outside expected range of 0-59',
  SecondFractionMissing: 'second fraction digits missing after `.`',
  DateTooSmall: 'dates before 0000 are not supported as unix timestamps',
  DateTooLarge: 'dates after 9999 are not supported as unix timestamps',
} as const;

class Fail {
  constructor(readonly error: string) {}
}

const MS_WATERSHED = 20_000_000_000;
const UNIX_0000 = -62_167_219_200;
const UNIX_9999 = 253_402_300_799;
const isDigit = (b: number | undefined) => b !== undefined && b >= 48 && b <= 57;

function digit(b: Uint8Array, i: number, err: string): number {
  const c = b[i];
  if (!isDigit(c)) throw new Fail(err);
  return c - 48;
}

/** A datetime's fields as RFC 3339 text spells them (validated: each in its range). */
interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  micro: number;
  offsetSeconds: number;
}

/** Days in each month of a common year (February's leap day is added apart). */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** DateTime::parse_bytes_rfc3339: date, separator, time, optional offset; every error as speedate names it. */
function rfc3339(b: Uint8Array): Fields {
  if (b.length < 10) throw new Fail(E.TooShort);
  const year =
    digit(b, 0, E.InvalidCharYear) * 1000 + digit(b, 1, E.InvalidCharYear) * 100 + digit(b, 2, E.InvalidCharYear) * 10 + digit(b, 3, E.InvalidCharYear);
  if (b[4] !== 45) throw new Fail(E.InvalidCharDateSep);
  const month = digit(b, 5, E.InvalidCharMonth) * 10 + digit(b, 6, E.InvalidCharMonth);
  if (b[7] !== 45) throw new Fail(E.InvalidCharDateSep);
  const day = digit(b, 8, E.InvalidCharDay) * 10 + digit(b, 9, E.InvalidCharDay);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (month < 1 || month > 12) throw new Fail(E.OutOfRangeMonth);
  const maxDays = MONTH_DAYS[month - 1] + (month === 2 && leap ? 1 : 0);
  if (day < 1 || day > maxDays) throw new Fail(E.OutOfRangeDay);
  const sep = b[10];
  if (sep !== 84 && sep !== 116 && sep !== 32 && sep !== 95) throw new Fail(E.InvalidCharDateTimeSep);
  // Time::parse_bytes_offset from byte 11.
  const o = 11;
  if (b.length - o < 5) throw new Fail(E.TooShort);
  const hour = digit(b, o, E.InvalidCharHour) * 10 + digit(b, o + 1, E.InvalidCharHour);
  if (b[o + 2] !== 58) throw new Fail(E.InvalidCharTimeSep);
  const minute = digit(b, o + 3, E.InvalidCharMinute) * 10 + digit(b, o + 4, E.InvalidCharMinute);
  if (hour > 23) throw new Fail(E.OutOfRangeHour);
  if (minute > 59) throw new Fail(E.OutOfRangeMinute);
  let pos = o + 5;
  let second = 0;
  let micro = 0;
  if (b[pos] === 58) {
    second = digit(b, o + 6, E.InvalidCharSecond) * 10 + digit(b, o + 7, E.InvalidCharSecond);
    if (second > 59) throw new Fail(E.OutOfRangeSecond);
    pos = o + 8;
    if (b[pos] === 46 || b[pos] === 44) {
      pos++;
      let i = 0;
      // Digits past the sixth are truncated (speedate's default overflow behaviour).
      for (; isDigit(b[pos + i]); i++) if (i < 6) micro = micro * 10 + (b[pos + i] - 48);
      if (i === 0) throw new Fail(E.SecondFractionMissing);
      if (i < 6) micro *= 10 ** (6 - i);
      pos += i;
    }
  }
  let offsetSeconds = 0; // no offset (a naive datetime) reads as UTC
  if (pos < b.length) {
    const next = b[pos++];
    if (next !== 90 && next !== 122) {
      let sign: number;
      if (next === 43) sign = 1;
      else if (next === 45) sign = -1;
      else if (next === 226) {
        // U+2212 MINUS SIGN, allowed by ISO 8601.
        if (b[pos] !== 136 || b[pos + 1] !== 146) throw new Fail(E.InvalidCharTzSign);
        pos += 2;
        sign = -1;
      } else throw new Fail(E.InvalidCharTzSign);
      const h = digit(b, pos, E.InvalidCharTzHour) * 10 + digit(b, pos + 1, E.InvalidCharTzHour);
      let m1: number;
      if (b[pos + 2] === 58) {
        pos += 3;
        m1 = digit(b, pos, E.InvalidCharTzMinute);
      } else if (isDigit(b[pos + 2])) {
        pos += 2;
        m1 = b[pos] - 48;
      } else throw new Fail(E.InvalidCharTzMinute);
      const m2 = digit(b, pos + 1, E.InvalidCharTzMinute);
      const minuteSeconds = m1 * 600 + m2 * 60;
      if (minuteSeconds >= 3600) throw new Fail(E.OutOfRangeTzMinute);
      offsetSeconds = sign * (h * 3600 + minuteSeconds);
      if (Math.abs(offsetSeconds) >= 24 * 3600) throw new Fail(E.OutOfRangeTz);
      pos += 2;
    }
  }
  if (b.length > pos) throw new Fail(E.ExtraCharacters);
  if (year === 0) throw new Fail('year 0 is out of range'); // pydantic-core, when it builds the Python datetime
  return { year, month, day, hour, minute, second, micro, offsetSeconds };
}

/** Epoch ms of validated fields. */
function epochMs(f: Fields): number {
  const ms = Date.UTC(2000, f.month - 1, f.day, f.hour, f.minute, f.second, Math.floor(f.micro / 1000));
  // Date.UTC maps years 0..99 to 1900s: place the year explicitly.
  const d = new Date(ms);
  d.setUTCFullYear(f.year, f.month - 1, f.day);
  return d.getTime() - f.offsetSeconds * 1000;
}

/** Room for the longest text KEEP matches (35 characters). */
const SCRATCH = new Uint8Array(64);

/** The bytes of ASCII text (KEEP's alphabet), without encoding it: a view of SCRATCH, valid until the next call. */
function asciiBytes(s: string): Uint8Array {
  for (let i = 0; i < s.length; i++) SCRATCH[i] = s.charCodeAt(i);
  return SCRATCH.subarray(0, s.length);
}

/** A unix timestamp: seconds, or milliseconds past speedate's watershed (2e10). */
function fromTimestamp(x: number): number {
  if (x === -Infinity) throw new Fail(E.DateTooSmall); // i64::MIN has no absolute value
  const ms = Math.abs(x) > MS_WATERSHED ? x : x * 1000;
  const seconds = Math.floor(ms / 1000);
  if (!(seconds >= UNIX_0000)) throw new Fail(E.DateTooSmall);
  if (!(seconds <= UNIX_9999)) throw new Fail(E.DateTooLarge);
  return Math.round(ms);
}

/** i64::MAX (9,223,372,036,854,775,807) as the double it rounds to: 2^63. */
const I64_MAX = 2 ** 63;

/** speedate's float_parse_bytes: a sign and digits (an i64), with a fraction only when a '.' stops the integer. */
function numericText(s: string): number | undefined {
  if (/^[+-]?\d+$/.test(s)) return Math.abs(Number(s)) <= I64_MAX ? Number(s) : undefined;
  if (/^[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Number(s);
  return undefined;
}

const KEEP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** Validates a datetime input the way a pydantic `datetime` field does (lax mode, Python input from JSON). */
export function parseDatetime(input: unknown): DatetimeResult {
  try {
    let ms: number;
    if (typeof input === 'string') {
      try {
        // Text already in the plain ISO form keeps its spelling (fixtures echo what they hold): it is checked as
        // any text is, and needs no epoch. Its characters are ASCII, so they are its bytes (no encoding).
        if (KEEP.test(input)) {
          rfc3339(asciiBytes(input));
          return { ok: true, value: input };
        }
        ms = epochMs(rfc3339(Buffer.from(input, 'utf8')));
      } catch (err) {
        const n = numericText(input);
        if (n === undefined || !(err instanceof Fail)) throw err;
        ms = fromTimestamp(n);
      }
    } else if (typeof input === 'number') {
      if (Number.isNaN(input)) return { ok: false, type: 'datetime_parsing', error: 'NaN values not permitted' };
      ms = fromTimestamp(input);
    } else {
      return { ok: false, type: 'datetime_type' };
    }
    const d = new Date(ms);
    if (d.getUTCFullYear() === 0) throw new Fail('year 0 is out of range');
    return { ok: true, value: d.toISOString() };
  } catch (err) {
    if (err instanceof Fail) return { ok: false, type: 'datetime_parsing', error: err.error };
    throw err;
  }
}
