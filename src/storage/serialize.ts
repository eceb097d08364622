// Serializes the data file with each record's JSON remembered: records are immutable, so a write re-serializes only what changed.
import type { DataFile } from '../schemas/state.js';

/** Record object -> its JSON. Safe to share between instances: a record never changes after it is stored. */
const recordJson = new WeakMap<object, string>();

function jsonOf(record: object): string {
  let text = recordJson.get(record);
  if (text === undefined) {
    text = JSON.stringify(record);
    recordJson.set(record, text);
  }
  return text;
}

/** Exactly `JSON.stringify(doc)`, but a 100k-record file costs a join, not a full stringify, per write. */
export function serializeDataFile(doc: DataFile): string {
  const state = doc.state as unknown as Record<string, unknown>;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(state)) {
    if (value === undefined) continue;
    const body = Array.isArray(value) ? `[${value.map((r) => (r !== null && typeof r === 'object' ? jsonOf(r) : JSON.stringify(r))).join(',')}]` : JSON.stringify(value);
    parts.push(`${JSON.stringify(key)}:${body}`);
  }
  return `{"format":${JSON.stringify(doc.format)},"format_version":${JSON.stringify(doc.format_version)},"state":{${parts.join(',')}}}`;
}
