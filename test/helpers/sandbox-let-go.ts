// A child run with --expose-gc: a sandbox a GET reached through the fast path (its address remembered with it) is
// deleted, or left to expire; prints whether its control surface was collected after forced GCs (JSON on stdout).
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from './demo.js';
import { closeAll, listen, send } from './fast-path.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const AUTH = { Authorization: `Bearer ${DEMO.tokens.owner}` };
const gc = (globalThis as { gc?: () => void }).gc!;
const how = process.argv[2] ?? 'delete';

let now = Date.parse('2030-01-01T00:00:00Z');
const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), log: () => {}, clock: () => now, sandboxes: { max: 5, ttlMs: 10_000 } });
const server = await listen(mock.callback());
const { id } = await mock.control.createSandbox();
const statuses: number[] = [];
for (let i = 0; i < 3; i++) statuses.push((await send(server, `/sandboxes/${id}${RUN}`, AUTH)).status);
const control = new WeakRef(mock.control.sandboxControl(id) as object);
if (how === 'delete') await mock.control.deleteSandbox(id);
else {
  now += 10_000;
  // The remembered address finds it past its time: refused, and dropped there.
  statuses.push((await send(server, `/sandboxes/${id}${RUN}`, AUTH)).status);
}
statuses.push((await send(server, `/sandboxes/${id}${RUN}`, AUTH)).status);
for (let i = 0; i < 6; i++) {
  await new Promise((r) => setImmediate(r));
  gc();
}
const collected = control.deref() === undefined;
closeAll([server]);
await mock.close();
process.stdout.write(JSON.stringify({ statuses, collected }));
