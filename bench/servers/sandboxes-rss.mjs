// RSS added by 1,000 sandboxes of the demo fixture, each after 10 writes, after GC (in process, the built package); with
// `root`, the same writes all at the default mock and no sandbox: what that traffic alone adds (journal, GC heuristics).
// Prints two figures. `now`: right after the load, after forced full GCs (the row's figure); V8 still holds the young
// generation it grew for the burst of requests (32 MB here, with or without sandboxes). `settled`: after V8's memory
// reducer, which runs on its own once the process is idle, has given the young generation back (as before the load).
// Usage: node --expose-gc bench/servers/sandboxes-rss.mjs [count] [root]
import v8 from 'node:v8';
import { createApp, demoFixture } from '../../dist/index.js';

const count = Number(process.argv[2] ?? 1000);
const rootOnly = process.argv[3] === 'root';
const P = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
/** The young generation's size now (both semi-spaces). */
const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
const collect = () => {
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage().rss;
};
/** Waits (at most 60 s) until the young generation is no bigger than `bytes`, then collects. */
async function settled(bytes) {
  collect();
  const t0 = Date.now();
  while (young() > bytes && Date.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 250));
  return { rss: collect(), waitedMs: Date.now() - t0, youngMb: young() / 1048576 };
}

const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), log: () => {} });
// Warm every path once so code and caches are not counted as sandbox memory.
const warm = await mock.control.createSandbox();
await mock.fetch(`/api/v3/projects/${P}/budget`, {
  method: 'PUT',
  headers: { authorization: 'Bearer demo-owner-token', 'content-type': 'application/json', 'x-mock-sandbox': warm.id },
  body: '{"project_daily_usd":1}',
});
await mock.control.deleteSandbox(warm.id);
const beforeNow = collect();
// The smallest young generation V8 keeps (it shrinks to its initial size when idle).
const before = await settled(1024 * 1024);
for (let i = 0; i < count; i++) {
  const sb = rootOnly ? null : await mock.control.createSandbox();
  for (let w = 0; w < 10; w++) {
    const res = await mock.fetch(`/api/v3/projects/${P}/budget`, {
      method: 'PUT',
      headers: { authorization: 'Bearer demo-owner-token', 'content-type': 'application/json', ...(sb ? { 'x-mock-sandbox': sb.id } : {}) },
      body: JSON.stringify({ project_daily_usd: 10 + w }),
    });
    if (res.status !== 200) throw new Error(`write ${res.status}`);
    await res.arrayBuffer();
  }
}
const now = collect();
const after = await settled(before.youngMb * 1048576);
const mb = (n) => Math.round((n / 1048576) * 10) / 10;
process.stdout.write(
  JSON.stringify({ count, nowMb: mb(now - beforeNow), settledMb: mb(after.rss - before.rss), waitedMs: after.waitedMs, youngMb: after.youngMb }) + '\n',
);
await mock.close();
