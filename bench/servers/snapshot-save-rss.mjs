// Peak memory of saving a named snapshot of a large state: RSS sampled every millisecond by a worker thread (a save
// runs on the main thread, so only another thread sees its peak), against the bytes the snapshot holds as JSON text.
// The state is the demo fixture with its runs copied to about `mb` MB. Three saves: in process, over POST
// /_mock/snapshots, and one the byte bound refuses (a second name while the first holds more than half the room).
// Prints one JSON line of figures. Usage: node --expose-gc bench/servers/snapshot-save-rss.mjs [mb]
import { Worker } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createApp, demoFixture } from '../../dist/index.js';

const targetMb = Number(process.argv[2] ?? 37);
const PAGE = 4096;
const rssNow = () => Number(readFileSync('/proc/self/statm', 'utf8').split(' ')[1]) * PAGE;
const collect = () => {
  for (let i = 0; i < 4; i++) globalThis.gc();
};
const mb = (n) => Math.round((n / 1048576) * 10) / 10;

const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), log: () => {} });
const state = mock.control.exportState();
const copies = [];
let bytes = JSON.stringify(state).length;
for (let i = 0; bytes < targetMb * 1048576; i++) {
  const run = { ...state.runs[i % state.runs.length], id: randomUUID() };
  copies.push(run);
  bytes += JSON.stringify(run).length + 1;
}
await mock.control.importState({ ...state, runs: [...state.runs, ...copies] });
copies.length = 0;
mock.control.saveSnapshot('warm');
mock.control.deleteSnapshot('warm');

/** The highest RSS while `fn` runs, less RSS before it (after GC), and `fn`'s result. */
async function peakOf(fn) {
  collect();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const sampler = new Worker(
    `const { parentPort, workerData: flag } = require('node:worker_threads');
     const { readFileSync } = require('node:fs');
     const read = () => Number(readFileSync('/proc/self/statm', 'utf8').split(' ')[1]) * ${PAGE};
     let peak = read();
     Atomics.store(flag, 0, 1);
     while (Atomics.load(flag, 0) === 1) { peak = Math.max(peak, read()); Atomics.wait(flag, 0, 1, 1); }
     parentPort.postMessage(Math.max(peak, read()));`,
    { eval: true, workerData: flag },
  );
  while (Atomics.load(flag, 0) !== 1) await new Promise((r) => setTimeout(r, 5));
  const before = rssNow();
  const t0 = performance.now();
  const out = await fn();
  const ms = performance.now() - t0;
  Atomics.store(flag, 0, 0);
  Atomics.notify(flag, 0);
  const peak = await new Promise((resolve) => sampler.once('message', resolve));
  await sampler.terminate();
  return { out, growth: peak - before, ms: Math.round(ms) };
}

const direct = await peakOf(() => mock.control.saveSnapshot('direct'));
mock.control.deleteSnapshot('direct');
const http = await peakOf(async () => {
  const res = await mock.fetch('/_mock/snapshots', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"http"}' });
  return { status: res.status, body: await res.json() };
});
if (http.out.status !== 200 && http.out.status !== 201) throw new Error(`save over HTTP answered ${http.out.status}`);
// One snapshot of the state is held; a second does not fit under the byte bound: the count stops past the room left.
const refused = await peakOf(
  async () => (await mock.fetch('/_mock/snapshots', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"third"}' })).status,
);
const snapshot = direct.out.bytes;
process.stdout.write(
  JSON.stringify({
    snapshotMb: mb(snapshot),
    directMb: mb(direct.growth),
    directMs: direct.ms,
    httpMb: mb(http.growth),
    httpMs: http.ms,
    refusedStatus: refused.out,
    refusedMb: mb(refused.growth),
    ratio: Math.round((Math.max(direct.growth, http.growth, refused.growth) / snapshot) * 100) / 100,
  }) + '\n',
);
await mock.close();
