// json.loads as CPython 3.13 runs it (Modules/_json.c, Lib/json/decoder.py): the error message and position of the
// first fault, and the constants NaN, Infinity and -Infinity that Python accepts and JSON.parse refuses. Iterative
// (an explicit stack), so any nesting is safe. Used only when JSON.parse refuses a body: the fast path stays native.

export type PyJsonResult = { ok: true; value: unknown } | { ok: false; msg: string; pos: number };

class DecodeError {
  constructor(
    readonly msg: string,
    readonly pos: number,
  ) {}
}

const isWs = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;
const isDigit = (c: number) => c >= 48 && c <= 57;

function skipWs(s: string, i: number): number {
  while (i < s.length && isWs(s.charCodeAt(i))) i++;
  return i;
}

function hex4(s: string, from: number, errPos: number): number {
  let v = 0;
  for (let k = from; k < from + 4; k++) {
    const d = s.charCodeAt(k);
    const x = isDigit(d) ? d - 48 : d >= 97 && d <= 102 ? d - 87 : d >= 65 && d <= 70 ? d - 55 : -1;
    if (x < 0) throw new DecodeError('Invalid \\uXXXX escape', errPos);
    v = v * 16 + x;
  }
  return v;
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** scanstring_unicode: `end` is the index after the opening quote; returns [text, index after the closing quote]. */
function scanString(s: string, end: number): [string, number] {
  const begin = end - 1;
  const len = s.length;
  let out = '';
  for (;;) {
    let next = end;
    let c = 0;
    for (; next < len; next++) {
      c = s.charCodeAt(next);
      if (c === 34 || c === 92) break;
      if (c <= 0x1f) throw new DecodeError('Invalid control character at', next);
    }
    if (next >= len) throw new DecodeError('Unterminated string starting at', begin);
    out += s.slice(end, next);
    next++;
    if (c === 34) return [out, next];
    if (next === len) throw new DecodeError('Unterminated string starting at', begin);
    const e = s[next];
    if (e !== 'u') {
      end = next + 1;
      if (!(e in ESCAPES)) throw new DecodeError('Invalid \\escape', end - 2);
      out += ESCAPES[e];
      continue;
    }
    next++;
    end = next + 4;
    if (end >= len) throw new DecodeError('Invalid \\uXXXX escape', next - 1);
    const code = hex4(s, next, end - 5);
    // A high surrogate followed by an escaped low one is one character; otherwise each stands alone.
    if (code >= 0xd800 && code <= 0xdbff && end + 6 < len && s[end] === '\\' && s[end + 1] === 'u') {
      const low = hex4(s, end + 2, end + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        out += String.fromCharCode(code, low);
        end += 6;
        continue;
      }
    }
    out += String.fromCharCode(code);
  }
}

/** _match_number_unicode; null = not a number (Python's StopIteration). */
function matchNumber(s: string, start: number): [number, number] | null {
  const endIdx = s.length - 1;
  let i = start;
  if (s.charCodeAt(i) === 45) {
    i++;
    if (i > endIdx) return null;
  }
  const first = s.charCodeAt(i);
  if (first >= 49 && first <= 57) {
    i++;
    while (i <= endIdx && isDigit(s.charCodeAt(i))) i++;
  } else if (first === 48) i++;
  else return null;
  if (i < endIdx && s.charCodeAt(i) === 46 && isDigit(s.charCodeAt(i + 1))) {
    i += 2;
    while (i <= endIdx && isDigit(s.charCodeAt(i))) i++;
  }
  if (i < endIdx && (s[i] === 'e' || s[i] === 'E')) {
    const eStart = i;
    i++;
    if (i < endIdx && (s[i] === '-' || s[i] === '+')) i++;
    while (i <= endIdx && isDigit(s.charCodeAt(i))) i++;
    if (!isDigit(s.charCodeAt(i - 1))) i = eStart;
  }
  return [Number(s.slice(start, i)), i];
}

/** scan_once_unicode for everything but objects and arrays (those are the caller's stack); null = no value here. */
function scanScalar(s: string, i: number): [unknown, number] | null {
  const rest = (word: string) => s.startsWith(word, i) && i + word.length - 1 < s.length;
  switch (s[i]) {
    case '"':
      return scanString(s, i + 1);
    case 'n':
      if (rest('null')) return [null, i + 4];
      break;
    case 't':
      if (rest('true')) return [true, i + 4];
      break;
    case 'f':
      if (rest('false')) return [false, i + 5];
      break;
    case 'N':
      if (rest('NaN')) return [NaN, i + 3];
      break;
    case 'I':
      if (rest('Infinity')) return [Infinity, i + 8];
      break;
    case '-':
      if (rest('-Infinity')) return [-Infinity, i + 9];
      break;
  }
  return matchNumber(s, i);
}

type Frame = { obj: Record<string, unknown>; key: string } | { arr: unknown[] };

function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Reads an object key and its ':' from `i` (at the '"'); returns the index of the value. */
function readKey(s: string, i: number, frame: { key: string }): number {
  if (i >= s.length || s[i] !== '"') throw new DecodeError('Expecting property name enclosed in double quotes', i);
  const [key, next] = scanString(s, i + 1);
  frame.key = key;
  i = skipWs(s, next);
  if (i >= s.length || s[i] !== ':') throw new DecodeError("Expecting ':' delimiter", i);
  return skipWs(s, i + 1);
}

function decode(s: string): unknown {
  const stack: Frame[] = [];
  let i = skipWs(s, 0);
  for (;;) {
    // A value starts at i.
    let value: unknown;
    if (i >= s.length) throw new DecodeError('Expecting value', i);
    const c = s[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      const j = skipWs(s, i + 1);
      if (j < s.length && s[j] === close) {
        value = c === '{' ? {} : [];
        i = j + 1;
      } else if (c === '{') {
        const frame = { obj: {} as Record<string, unknown>, key: '' };
        stack.push(frame);
        i = readKey(s, j, frame);
        continue;
      } else {
        stack.push({ arr: [] });
        i = j;
        continue;
      }
    } else {
      const scanned = scanScalar(s, i);
      if (!scanned) throw new DecodeError('Expecting value', i);
      [value, i] = scanned;
    }
    // The value is complete: hand it to the open containers, closing those that end here.
    for (;;) {
      const top = stack.at(-1);
      if (!top) {
        i = skipWs(s, i);
        if (i !== s.length) throw new DecodeError('Extra data', i);
        return value;
      }
      const close = 'obj' in top ? '}' : ']';
      if ('obj' in top) setKey(top.obj, top.key, value);
      else top.arr.push(value);
      i = skipWs(s, i);
      if (i < s.length && s[i] === close) {
        value = 'obj' in top ? top.obj : top.arr;
        stack.pop();
        i++;
        continue;
      }
      if (i >= s.length || s[i] !== ',') throw new DecodeError("Expecting ',' delimiter", i);
      const comma = i;
      i = skipWs(s, i + 1);
      if (i < s.length && s[i] === close) throw new DecodeError(`Illegal trailing comma before end of ${'obj' in top ? 'object' : 'array'}`, comma);
      if ('obj' in top) i = readKey(s, i, top);
      break;
    }
  }
}

/** json.loads(text): the value, or Python's message and position (in code points, as Python counts). */
export function pyJsonLoads(text: string): PyJsonResult {
  try {
    return { ok: true, value: decode(text) };
  } catch (err) {
    if (!(err instanceof DecodeError)) throw err;
    return { ok: false, msg: err.msg, pos: codePointIndex(text, err.pos) };
  }
}

/** A UTF-16 index as a count of code points (a surrogate pair is one). */
export function codePointIndex(text: string, index: number): number {
  let n = index;
  for (let k = 0; k < index - 1 && k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(k + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        k++;
      }
    }
  }
  return n;
}
