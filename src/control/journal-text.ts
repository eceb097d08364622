// Bounded text for the journal: a JSON value written with its secrets redacted, stopping after a byte limit, without recursion.
import { REDACTED, isSecretField } from './redact.js';

/** A body the journal holds as plain text, or cut at the body limit: flat text, never the parsed object graph. */
export class BodyText {
  constructor(
    /** The text (JSON when `json` is true), at most the body limit long. */
    readonly text: string,
    /** `text` is JSON that parses; false for plain text and for a truncated prefix. */
    readonly json: boolean,
    /** The full size in UTF-8 bytes when the text was cut; undefined when it is whole. */
    readonly truncatedFrom?: number,
  ) {}
}

/**
 * A body as a journal entry holds it. Whole JSON text (nearly every body) is the bare string: a thousand sandboxes keep
 * ten thousand entries, and a wrapper object per body would cost more than many bodies. Secrets in it are replaced
 * when it is read. Plain text and cut bodies keep their flags in a BodyText.
 */
export type KeptBody = string | BodyText;

/** The kept body's text (null: there was no body). */
export const keptText = (b: KeptBody | null): string | null => (b === null ? null : typeof b === 'string' ? b : b.text);

/** The kept body's text, whether it is JSON, and its full size when it was cut. */
export const bodyParts = (b: KeptBody): BodyText => (typeof b === 'string' ? new BodyText(b, true) : b);

/** Beyond this depth a value is replaced, as redactDeep does: nothing that deep is worth the risk. */
const MAX_DEPTH = 64;

type Frame = { arr: unknown[]; i: number } | { obj: Record<string, unknown>; keys: string[]; i: number; wrote: boolean };

/**
 * `value` as JSON with every secret field replaced, cut once `limit` characters are written.
 * Work is bounded by the limit, not by the size of `value`: a 1 MiB array of `{}` stops after ~8k elements.
 * Returns the text and whether it is whole.
 */
export function redactedJsonPrefix(value: unknown, limit: number): { text: string; whole: boolean } {
  const out: string[] = [];
  let length = 0;
  const emit = (s: string) => {
    out.push(s);
    length += s.length;
  };
  const stack: Frame[] = [];
  // Writes a value; containers push a frame and are finished by the loop below.
  const open = (v: unknown): void => {
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function' && !Buffer.isBuffer(v)) {
      v = (v as { toJSON(): unknown }).toJSON();
    }
    if (v === null || v === undefined || typeof v === 'function' || typeof v === 'symbol') return emit('null');
    if (typeof v === 'string') return emit(JSON.stringify(v.length > limit - length ? v.slice(0, Math.max(0, limit - length) + 1) : v));
    if (typeof v === 'number') return emit(Number.isFinite(v) ? String(v) : 'null');
    if (typeof v === 'boolean') return emit(v ? 'true' : 'false');
    if (typeof v === 'bigint') return emit(String(v));
    if (Buffer.isBuffer(v)) return emit(JSON.stringify(`<${v.length} bytes>`));
    if (stack.length >= MAX_DEPTH) return emit(JSON.stringify(REDACTED));
    if (Array.isArray(v)) {
      emit('[');
      stack.push({ arr: v, i: 0 });
    } else {
      emit('{');
      stack.push({ obj: v as Record<string, unknown>, keys: Object.keys(v as object), i: 0, wrote: false });
    }
  };
  open(value);
  while (stack.length > 0 && length <= limit) {
    const f = stack[stack.length - 1];
    if ('arr' in f) {
      if (f.i >= f.arr.length) {
        emit(']');
        stack.pop();
        continue;
      }
      if (f.i > 0) emit(',');
      open(f.arr[f.i++]);
      continue;
    }
    if (f.i >= f.keys.length) {
      emit('}');
      stack.pop();
      continue;
    }
    const key = f.keys[f.i++];
    const v = f.obj[key];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    emit(f.wrote ? `,${JSON.stringify(key)}:` : `${JSON.stringify(key)}:`);
    f.wrote = true;
    if (isSecretField(key) && v !== null) emit(JSON.stringify(REDACTED));
    else open(v);
  }
  const text = out.join('');
  const whole = stack.length === 0 && text.length <= limit;
  return { text: whole ? text : text.slice(0, limit), whole };
}

/** The first `limit` UTF-8 bytes of `text` as a new flat string (a slice would keep the whole original alive). */
export function textPrefix(text: string, limit: number): string {
  const bytes = Buffer.from(text.length > limit ? text.slice(0, limit) : text);
  // Cutting inside a multi-byte character leaves a replacement character at the end: drop it.
  return bytes
    .subarray(0, limit)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

/** The marker that ends a cut body, so a reader knows what was left out. */
export const truncationMarker = (bytes: number): string => (bytes >= 0 ? `…[truncated: ${bytes} bytes in all]` : '…[truncated]');

const fits = (text: string, limit: number): boolean => text.length <= limit && (text.length * 3 <= limit || Buffer.byteLength(text) <= limit);

/**
 * A JSON value (a parsed request body, a response object) as the journal keeps it. `sent` is the exact
 * text that went on the wire, kept as is when it fits (redacted when read: no second serialization).
 * Otherwise a redacted prefix is written from the value, with work bounded by the limit.
 */
export function jsonBody(value: unknown, limit: number, sent?: string, fullBytes?: number): KeptBody {
  if (sent !== undefined && fits(sent, limit)) return sent;
  const { text, whole } = redactedJsonPrefix(value, limit);
  if (whole && fits(text, limit)) return text;
  return new BodyText(textPrefix(text, limit), false, fullBytes ?? (sent !== undefined ? Buffer.byteLength(sent) : -1));
}

/**
 * Raw text (the bytes of a request, a plain-text answer): JSON text is redacted when read, or now if it must be cut.
 * `json`: sent as JSON (its Content-Type), so a bare `0`, `true` or `null` is that value, not the text.
 */
export function rawBody(text: string, limit: number, json = false): KeptBody {
  if (fits(text, limit)) return json || looksLikeJson(text) ? text : new BodyText(text, false);
  const size = Buffer.byteLength(text);
  let parsed: unknown;
  try {
    parsed = json || looksLikeJson(text) ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined) return jsonBody(parsed, limit, undefined, size);
  return new BodyText(textPrefix(text, limit), false, size);
}

function looksLikeJson(text: string): boolean {
  const c = text.trimStart()[0];
  return c === '{' || c === '[' || c === '"';
}
