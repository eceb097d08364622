// GET /_mock/state as a stream: the same bytes as JSON.stringify of the sealed export, written in chunks, so any size of state is served.
import { Readable } from 'node:stream';
import { streamed, type Streamed } from '../json-stream.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { COLLECTION_NAMES, type StateData } from '../schemas/index.js';
import type { Sealer } from './sealing.js';

/** Text is handed on once it reaches this size. */
const CHUNK = 256 * 1024;

/**
 * The sealed state as JSON text, chunk by chunk. `data` is taken whole first (arrays of immutable
 * records: one consistent state, even when writes land while it streams); serializing yields to
 * the event loop between chunks, and no string ever holds the whole document. `head` is text to
 * write before the document (a repro bundle's keys before its state); `credentials` seals tokens and codes too.
 */
export async function* sealedStateChunks(data: StateData, sealer: Sealer, head = '', credentials = false): AsyncGenerator<string> {
  let out = `${head}{"clock":${JSON.stringify(data.clock)},"settings":${JSON.stringify(sealer.sealSettings(data.settings))}`;
  for (const c of COLLECTION_NAMES) {
    out += `,${JSON.stringify(c)}:[`;
    const records = data[c] as unknown[];
    for (let i = 0; i < records.length; i++) {
      out += (i > 0 ? ',' : '') + JSON.stringify(sealer.sealRecord(c, records[i], credentials));
      if (out.length >= CHUNK) {
        yield out;
        out = '';
        await nextTurn();
      }
    }
    out += ']';
  }
  yield `${out}}`;
}

export function sealedStateStream(data: StateData, sealer: Sealer): Streamed<StateData> {
  return streamed(Readable.from(sealedStateChunks(data, sealer), { objectMode: false }));
}
