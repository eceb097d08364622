// Request bytes -> text as Python's json.loads(bytes) decodes them (json.detect_encoding): UTF-8 with an optional BOM,
// UTF-16 or UTF-32 told apart by their BOM or their zero bytes. Bytes that do not decode are FastAPI's 400.

const utf8 = new TextDecoder('utf-8', { fatal: true }); // strips a leading BOM, as Python's utf-8-sig does

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

/** json.detect_encoding. */
function detectEncoding(b: Uint8Array): Encoding {
  if (b.length >= 4 && ((b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff) || (b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0))) {
    return b[0] === 0 ? 'utf-32be' : 'utf-32le';
  }
  if (b.length >= 2 && ((b[0] === 0xfe && b[1] === 0xff) || (b[0] === 0xff && b[1] === 0xfe))) return b[0] === 0xfe ? 'utf-16be' : 'utf-16le';
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b.length >= 4) {
    if (!b[0]) return b[1] ? 'utf-16be' : 'utf-32be';
    if (!b[1]) return b[2] || b[3] ? 'utf-16le' : 'utf-32le';
  } else if (b.length === 2) {
    if (!b[0]) return 'utf-16be';
    if (!b[1]) return 'utf-16le';
  }
  return 'utf-8';
}

/** UTF-32 (TextDecoder has none): code points, a BOM dropped; undefined when a unit is not a Unicode scalar. */
function decodeUtf32(b: Uint8Array, bigEndian: boolean): string | undefined {
  if (b.length % 4 !== 0) return undefined;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let out = '';
  for (let i = 0; i < b.length; i += 4) {
    const cp = view.getUint32(i, !bigEndian);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
    if (i === 0 && cp === 0xfeff) continue;
    out += String.fromCodePoint(cp);
  }
  return out;
}

/** The text of a JSON body, or undefined when its bytes are not text in any encoding json.loads detects. */
export function decodeJsonBytes(bytes: Uint8Array): string | undefined {
  const encoding = detectEncoding(bytes);
  try {
    if (encoding === 'utf-8') return utf8.decode(bytes);
    if (encoding === 'utf-32le' || encoding === 'utf-32be') return decodeUtf32(bytes, encoding === 'utf-32be');
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
