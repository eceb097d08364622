// Reads a big JSON document as a stream: the elements of its record arrays are parsed one at a time, the rest as one small skeleton.
import { open } from 'node:fs/promises';

/** Where a streamed document is not usable: syntax, depth, or an element too large for one string. */
export class JsonStreamError extends Error {}

export interface StreamOptions {
  /**
   * How many containers enclose the record arrays' elements: 2 for a fixture (`{"runs": [HERE]}`), 3 for
   * a data file (`{"state": {"runs": [HERE]}}`). Every array at that depth under objects only is a record array.
   */
  recordDepth: number;
  /** Containers nested deeper than this are refused before anything recursive sees them. */
  maxDepth: number;
  /** A record array starts; `path` holds the keys that lead to it. */
  onArray?(path: readonly string[]): void;
  /** Each element of the record array that started last, parsed. */
  onRecord(path: readonly string[], value: unknown): void;
  /** Bytes read so far (called once per chunk). */
  onProgress?(bytes: number): void;
  chunkBytes?: number;
}

const QUOTE = 0x22;
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** True when [s, e) holds at most `limit` opening brackets: it cannot nest deeper than that. */
function fewOpeners(buf: Buffer, s: number, e: number, limit: number): boolean {
  let n = 0;
  for (const opener of [0x7b, 0x5b]) {
    for (let at = buf.indexOf(opener, s); at !== -1 && at < e; at = buf.indexOf(opener, at + 1)) if (++n > limit) return false;
  }
  return true;
}
const BACKSLASH = 0x5c;
const OBJECT = 0;
const ARRAY = 1;

const parseText = (text: string, what: string): unknown => {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new JsonStreamError(`${what}: ${(err as Error).message}`);
  }
};
const decode = (parts: Buffer[]): string => {
  try {
    return (parts.length === 1 ? parts[0] : Buffer.concat(parts)).toString('utf8');
  } catch {
    throw new JsonStreamError('an element is too large to parse (over 512 MB)');
  }
};

/**
 * Streams `file` and returns the skeleton (the document with every record array left empty); each record
 * array's elements go to `onRecord` in order. Any formatting loads (hand-edited, pretty-printed, a BOM), and
 * the whole text is never held at once, so the file may be larger than the biggest string V8 can make.
 */
export async function streamJsonFile(file: string, options: StreamOptions): Promise<unknown> {
  const { recordDepth, maxDepth, onRecord } = options;
  const size = options.chunkBytes ?? 4 * 1024 * 1024;
  const fh = await open(file, 'r');
  const stack: number[] = []; // container kinds
  const keys: string[] = []; // the current key of each enclosing object, up to the record arrays
  let expectKey = false;
  let inString = false;
  let escaped = false;
  let keyParts: Buffer[] | null = null; // a key being read (only above the record arrays)
  let keyStart = 0;
  let skeleton: Buffer[] = [];
  let skeletonStart = 0; // where the skeleton resumes in the current chunk (-1: inside a record array)
  let recordParts: Buffer[] | null = null; // the element being read
  let recordStart = -1;
  let afterComma = false; // in a record array, the last delimiter was a comma
  let elementDone = false; // in a record array, a whole line was read as an element and no delimiter followed yet
  let inRecords = false;
  let recordPath: string[] = [];
  let total = 0;
  let first = true;
  /**
   * The fast path for the layout the mock writes (and any file with one element per line): while each
   * line parses as one element, no byte of it is scanned. Returns where byte-by-byte scanning resumes.
   */
  const wholeLines = (buf: Buffer, from: number): number => {
    for (let at = from; ;) {
      const nl = buf.indexOf(0x0a, at);
      if (nl === -1) return at;
      let s = at;
      let e = nl;
      while (s < e && isSpace(buf[s])) s++;
      while (e > s && isSpace(buf[e - 1])) e--;
      if (s === e) {
        at = nl + 1;
        continue;
      }
      if (buf[s] === 0x5d || buf[s] === 0x2c) return at; // the array closes, or a comma opens the line
      const comma = buf[e - 1] === 0x2c;
      if (comma) e--;
      if (!fewOpeners(buf, s, e, maxDepth - recordDepth)) return at;
      let value: unknown;
      try {
        value = JSON.parse(buf.toString('utf8', s, e));
      } catch {
        return at; // an element over several lines (pretty-printed): scanned byte by byte
      }
      if (elementDone) throw new JsonStreamError(`a missing comma in ${recordPath.join('.')}`);
      onRecord(recordPath, value);
      elementDone = !comma;
      afterComma = comma;
      at = nl + 1;
    }
  };
  // One read buffer for the whole file: what must outlive a chunk (the start of a record or of a key, the skeleton) is copied.
  const chunk = Buffer.allocUnsafe(size);
  try {
    for (;;) {
      const { bytesRead } = await fh.read(chunk, 0, size, null);
      if (bytesRead === 0) break;
      const buf = chunk.subarray(0, bytesRead);
      total += bytesRead;
      let i = 0;
      if (first && buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) i = 3; // a BOM
      if (first) skeletonStart = i;
      first = false;
      let nextBackslash = -2;
      const n = buf.length;
      while (i < n) {
        if (inString) {
          if (escaped) {
            escaped = false;
            i++;
            continue;
          }
          if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = buf.indexOf(BACKSLASH, i);
          const q = buf.indexOf(QUOTE, i);
          if (nextBackslash !== -1 && (q === -1 || nextBackslash < q)) {
            i = nextBackslash + 1;
            escaped = true;
            continue;
          }
          if (q === -1) {
            i = n;
            continue;
          }
          inString = false;
          if (keyParts) {
            keyParts.push(buf.subarray(keyStart, q));
            keys[stack.length - 1] = parseText(`"${decode(keyParts)}"`, 'an object key') as string;
            keyParts = null;
          }
          i = q + 1;
          continue;
        }
        const b = buf[i];
        if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) {
          i++;
          if (b === 0x0a && inRecords && !recordParts && stack.length === recordDepth) i = wholeLines(buf, i);
          continue;
        }
        const depth = stack.length;
        if (inRecords && depth === recordDepth) {
          // At the level of the record array's elements.
          if (b === 0x2c /* , */ || b === 0x5d /* ] */) {
            if (recordParts) {
              recordParts.push(buf.subarray(recordStart, i));
              onRecord(recordPath, parseText(decode(recordParts), `element of ${recordPath.join('.')}`));
              recordParts = null;
            } else if (!elementDone && (b === 0x2c || afterComma)) throw new JsonStreamError(`a missing element in ${recordPath.join('.')}`);
            elementDone = false;
            if (b === 0x2c) {
              afterComma = true;
              i++;
              continue;
            }
            // The record array closes: the skeleton resumes here, with the array left empty.
            inRecords = false;
            skeletonStart = i;
          } else if (!recordParts) {
            if (elementDone) throw new JsonStreamError(`a missing comma in ${recordPath.join('.')}`);
            recordParts = [];
            recordStart = i;
            afterComma = false;
          }
        }
        if (b === QUOTE) {
          inString = true;
          if (expectKey && depth < recordDepth && stack[depth - 1] === OBJECT) {
            keyParts = [];
            keyStart = i + 1;
          }
          i++;
          continue;
        }
        if (b === 0x7b /* { */ || b === 0x5b /* [ */) {
          if (depth >= maxDepth) throw new JsonStreamError(`it is nested deeper than ${maxDepth} levels`);
          const kind = b === 0x7b ? OBJECT : ARRAY;
          stack.push(kind);
          expectKey = kind === OBJECT;
          if (kind === ARRAY && depth + 1 === recordDepth && stack.slice(0, -1).every((k) => k === OBJECT)) {
            skeleton.push(Buffer.from(buf.subarray(skeletonStart, i + 1)));
            skeletonStart = -1;
            inRecords = true;
            afterComma = false;
            elementDone = false;
            recordPath = keys.slice(0, recordDepth - 1);
            options.onArray?.(recordPath);
          }
          i++;
          continue;
        }
        if (b === 0x7d /* } */ || b === 0x5d /* ] */) {
          const kind = stack.pop();
          if (kind === undefined || kind !== (b === 0x7d ? OBJECT : ARRAY))
            throw new JsonStreamError(`unexpected "${String.fromCharCode(b)}" at byte ${total - n + i}`);
          expectKey = false;
          i++;
          continue;
        }
        if (b === 0x2c /* , */) expectKey = stack[depth - 1] === OBJECT;
        else if (b === 0x3a /* : */) expectKey = false;
        i++;
      }
      if (recordParts) {
        recordParts.push(Buffer.from(buf.subarray(recordStart, n)));
        recordStart = 0;
      }
      if (keyParts) {
        keyParts.push(Buffer.from(buf.subarray(keyStart, n)));
        keyStart = 0;
      }
      if (skeletonStart >= 0) {
        skeleton.push(Buffer.from(buf.subarray(skeletonStart, n)));
        skeletonStart = 0;
      }
      if (skeleton.length > 64) skeleton = [Buffer.concat(skeleton)];
      options.onProgress?.(total);
    }
  } finally {
    await fh.close();
  }
  if (inString || stack.length > 0 || recordParts) throw new JsonStreamError('it ends in the middle of a value (truncated?)');
  const text = decode(skeleton).trim();
  if (text === '') throw new JsonStreamError('it is empty');
  return parseText(text, 'the document outside the record arrays');
}
