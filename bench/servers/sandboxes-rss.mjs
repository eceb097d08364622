// RSS added by 1,000 sandboxes of the demo fixture, each after 10 writes, after GC (in process, the built package); with
// `root`, the same writes all at the default mock and no sandbox: what that traffic alone adds (journal, GC heuristics).
// Usage: node --expose-gc bench/servers/sandboxes-rss.mjs [count] [root]
import { createApp, demoFixture } from '../../dist/index.js';

const count = Number(process.argv[2] ?? 1000);
const rootOnly = process.argv[3] === 'root';
const P = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const settle = () => {
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage().rss;
};
const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), log: () => {} });
// Warm every path once so code and caches are not counted as sandbox memory.
const warm = await mock.control.createSandbox();
await mock.fetch(`/api/v3/projects/${P}/budget`, {
  method: 'PUT',
  headers: { authorization: 'Bearer demo-owner-token', 'content-type': 'application/json', 'x-mock-sandbox': warm.id },
  body: '{"project_daily_usd":1}',
});
await mock.control.deleteSandbox(warm.id);
const before = settle();
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
const after = settle();
process.stdout.write(JSON.stringify({ count, before, after, addedMb: (after - before) / 1024 / 1024 }) + '\n');
await mock.close();
