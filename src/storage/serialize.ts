// Serializes the data file from each record's remembered UTF-8 bytes: records are immutable, so a write encodes only what changed.
import type { DataFile } from '../schemas/state.js';

/** Record object -> its JSON as UTF-8. Safe to share between instances: a record never changes after it is stored. */
const recordBytes = new WeakMap<object, Buffer>();
const COMMA = Buffer.from(',');

function bytesOf(record: unknown): Buffer {
  if (record === null || typeof record !== 'object') return Buffer.from(JSON.stringify(record));
  let bytes = recordBytes.get(record);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(record));
    recordBytes.set(record, bytes);
  }
  return bytes;
}

/**
 * The bytes of `JSON.stringify(doc)`, as chunks: a write of a 100k-record file costs one copy of
 * the bytes, not a full stringify and UTF-8 encoding of every record (bench d).
 */
export function dataFileChunks(doc: DataFile): Buffer[] {
  const chunks: Buffer[] = [Buffer.from(`{"format":${JSON.stringify(doc.format)},"format_version":${JSON.stringify(doc.format_version)},"state":{`)];
  let first = true;
  for (const [key, value] of Object.entries(doc.state as unknown as Record<string, unknown>)) {
    if (value === undefined) continue;
    chunks.push(Buffer.from(`${first ? '' : ','}${JSON.stringify(key)}:`));
    first = false;
    if (!Array.isArray(value)) {
      chunks.push(Buffer.from(JSON.stringify(value)));
      continue;
    }
    chunks.push(Buffer.from('['));
    value.forEach((record, i) => {
      if (i > 0) chunks.push(COMMA);
      chunks.push(bytesOf(record));
    });
    chunks.push(Buffer.from(']'));
  }
  chunks.push(Buffer.from('}}'));
  return chunks;
}

/** The whole data file as bytes (exactly `JSON.stringify(doc)`, UTF-8). */
export const serializeDataFile = (doc: DataFile): Buffer => Buffer.concat(dataFileChunks(doc));
