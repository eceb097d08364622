// Journal redaction: secrets by name (fields, headers, pairs in any text), where a 422 echoes them, and wherever a known credential shows.
import { REDACTED, isSecretField, isSecretHeader } from './redact-names.js';
import { redactSecretPairs } from './redact-text.js';

export { REDACTED, isSecretField } from './redact-names.js';

/** Credentials the mock holds now, so that one sent where no name says so (a bare text body, a path) is found. */
export interface SecretIndex {
  /** Whether `word` (a run of token characters) is a credential. */
  has(word: string): boolean;
  /** Secrets found by substring: the configured keys, which may have any shape. */
  readonly fixed: readonly string[];
  /** The broker signature of a request body: a valid one is a credential for that body, wherever it is put. */
  signature?(body: string): string | undefined;
}

/** Beyond this depth a value is replaced: nothing that deep is worth the risk (bodies are depth-checked far below it). */
const MAX_DEPTH = 64;
/** A value seen under a secret name is looked for elsewhere in the entry from this length on (shorter ones are words). */
const MIN_ECHO = 6;
/** Runs of the characters tokens, codes and verifiers are made of (RFC 7636 unreserved), as candidates for the index. */
const WORD = /[A-Za-z0-9_~.-]{6,1024}/g;

/**
 * Redacts the parts of one journal entry. Values sent under a secret name anywhere in the entry are `collect`ed
 * first, so that where the same value is echoed without its name (a 422 `input`, a message) it is replaced too.
 */
export class Redactor {
  private readonly found = new Set<string>();

  constructor(private readonly index?: SecretIndex) {}

  private readonly note = (v: string): void => {
    if (v.length >= MIN_ECHO && !v.includes(REDACTED)) this.found.add(v);
  };

  /** Remembers a value to replace wherever the entry shows it. */
  remember(value: string | undefined): void {
    if (value !== undefined) this.note(value);
  }

  /** Remembers the secret values of headers (and the credential after an auth scheme). */
  collectHeaders(headers: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(headers)) {
      for (const s of Array.isArray(v) ? v : [v]) {
        if (typeof s !== 'string') continue;
        if (isSecretHeader(k)) this.note(s);
        redactSecretPairs(s, this.note);
      }
    }
  }

  /** Remembers every string under a secret name in `value`, and the secret pairs of its strings. */
  collect(value: unknown, secret = false, depth = 0): void {
    if (typeof value === 'string') {
      if (secret) this.note(value);
      redactSecretPairs(value, this.note);
      return;
    }
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(value)) return;
    if (Array.isArray(value)) {
      for (const x of value) this.collect(x, secret, depth + 1);
      return;
    }
    for (const [k, v] of Object.entries(value)) this.collect(v, secret || isSecretField(k), depth + 1);
  }

  /** `s` with secret pairs, collected values and known credentials replaced. */
  text(s: string): string {
    let out = redactSecretPairs(s);
    for (const v of this.found) if (out.includes(v)) out = out.split(v).join(REDACTED);
    if (!this.index) return out;
    for (const v of this.index.fixed) if (v.length >= 4 && out.includes(v)) out = out.split(v).join(REDACTED);
    return out.replace(WORD, (w) => (this.known(w) ? REDACTED : w));
  }

  private known(word: string): boolean {
    const index = this.index!;
    if (index.has(word)) return true;
    const trimmed = word.replace(/[.~-]+$/, '');
    if (trimmed !== word && index.has(trimmed)) return true;
    return word.includes('.') && word.split('.').some((part) => part.length >= 6 && index.has(part));
  }

  /**
   * A copy of `value` with every secret field replaced, every string redacted as `text` does, and the `input` of a
   * validation item (pydantic's echo of what was sent) replaced when its `loc` names a secret field.
   */
  deep(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object') return value;
    if (depth > MAX_DEPTH) return REDACTED;
    if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
    if (Array.isArray(value)) return value.map((x) => this.deep(x, depth + 1));
    const o = value as Record<string, unknown>;
    const secretInput = Array.isArray(o.loc) && 'input' in o && o.loc.some((l) => typeof l === 'string' && isSecretField(l));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) {
      const hide = (isSecretField(k) && v !== null && v !== undefined) || (secretInput && k === 'input');
      out[this.text(k)] = hide ? REDACTED : this.deep(v, depth + 1);
    }
    return out;
  }

  /** Headers with the credential-carrying ones replaced and the others' values redacted as text. */
  headers(headers: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(headers)) {
      if (v === undefined) continue;
      if (isSecretHeader(k)) out[k] = REDACTED;
      else out[k] = typeof v === 'string' ? this.text(v) : Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? this.text(x) : x)) : v;
    }
    return out;
  }
}

/** A deep copy of `value` with every secret field (and secret pair in its strings) replaced. */
export const redactDeep = (value: unknown): unknown => new Redactor().deep(value);
