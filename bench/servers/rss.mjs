// Loads a data file (as the CLI does at start) and reports process.memoryUsage().rss after GC, as one JSON line.
// Usage: node --expose-gc bench/servers/rss.mjs <data-file>
import { createApp } from '../../dist/app.js';
import { JsonFileAdapter } from '../../dist/storage/adapters.js';

const settle = () => {
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage().rss;
};
const before = settle();
const mock = await createApp({ storage: new JsonFileAdapter(process.argv[2]) });
await new Promise((r) => setTimeout(r, 100));
const after = settle();
const runs = mock.store.count('runs');
const runsJsonBytes = Buffer.byteLength(JSON.stringify(mock.store.toData().runs));
process.stdout.write(`${JSON.stringify({ rssBefore: before, rss: after, runs, runsJsonBytes })}\n`);
