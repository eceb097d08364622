// Secrets in text of any shape (a form, invalid JSON, YAML, multipart, an echoed body): values after a secret name are replaced, without recursion.
import { REDACTED, isSecretField } from './redact-names.js';

/** `name=`, `name:`, `"name":`, `'name' =`: a name (letters, digits, `_ . - %`) and a separator; the value is scanned after it. */
const PAIR = /(["']?)([A-Za-z0-9_.%-]{1,128})\1[ \t]*[:=][ \t]*/g;
/** A multipart part named like a secret: its value follows the part's headers and a blank line. */
const MULTIPART = /name=(["']?)([^"';\r\n]{1,128})\1[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n/g;
/** A credential after an HTTP auth scheme, wherever the text mentions one. */
const SCHEME = /\b(Bearer|Basic|Token|Digest)([ \t]+)([^\s,;"'&]{1,4096})/gi;

function decodedName(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The end of the value that starts at `i`: a quoted string to its closing quote, a JSON object or array to its
 * matching bracket (strings inside respected; the end of the text when it is cut), else up to a delimiter.
 */
function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"' || c === "'") {
    let j = i + 1;
    while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
    return Math.min(text.length, j + 1);
  }
  if (c === '{' || c === '[') {
    let depth = 0;
    let j = i;
    while (j < text.length) {
      const d = text[j];
      if (d === '"') {
        j++;
        while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      } else if (d === '{' || d === '[') depth++;
      else if ((d === '}' || d === ']') && --depth === 0) return j + 1;
      j++;
    }
    return text.length;
  }
  let j = i;
  while (j < text.length && !/[\s,;&}\]]/.test(text[j])) j++;
  return j;
}

/** The value without its quotes (what a client sent), for finding it again elsewhere. */
const unquoted = (v: string) => (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v.at(-1) === v[0] ? v.slice(1, -1) : v);

/**
 * `text` with the value of every secret-named pair, secret multipart part and auth-scheme credential replaced.
 * `found` receives each value replaced, so that the same value can be found where it is echoed without its name.
 */
export function redactSecretPairs(text: string, found?: (value: string) => void): string {
  if (text.length === 0) return text;
  let out = '';
  let last = 0;
  PAIR.lastIndex = 0;
  for (let m = PAIR.exec(text); m !== null; m = PAIR.exec(text)) {
    const start = m.index + m[0].length;
    if (!isSecretField(decodedName(m[2]))) continue;
    const end = valueEnd(text, start);
    if (end === start) continue;
    const value = text.slice(start, end);
    // `Authorization: Bearer xyz`: the scheme stays, the credential after it is replaced below.
    if (/^(?:bearer|basic|token|digest)$/i.test(value) && /[ \t]/.test(text[end] ?? '')) continue;
    found?.(unquoted(value));
    const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
    out += text.slice(last, start) + (quote ? `${quote}${REDACTED}${quote}` : REDACTED);
    last = end;
    PAIR.lastIndex = end;
  }
  out += text.slice(last);
  if (out.includes('name=')) out = cutMultipartValues(out, found);
  return out.replace(SCHEME, (all: string, scheme: string, space: string, credential: string) => {
    if (credential === REDACTED || credential.startsWith(`"${REDACTED}`)) return all;
    found?.(credential);
    return `${scheme}${space}${REDACTED}`;
  });
}

/** The values of secret multipart parts (up to the next boundary line) replaced. */
function cutMultipartValues(text: string, found?: (value: string) => void): string {
  let out = '';
  let last = 0;
  MULTIPART.lastIndex = 0;
  for (let m = MULTIPART.exec(text); m !== null; m = MULTIPART.exec(text)) {
    if (!isSecretField(m[2])) continue;
    const from = m.index + m[0].length;
    let to = text.indexOf('\r\n--', from);
    if (to < 0) to = text.indexOf('\n--', from);
    if (to < 0) to = text.length;
    if (to > from) found?.(text.slice(from, to));
    out += text.slice(last, from) + REDACTED;
    last = to;
    MULTIPART.lastIndex = to;
  }
  return out + text.slice(last);
}
