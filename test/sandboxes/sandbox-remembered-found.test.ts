// A sandbox remembered with the address of a GET (so the next GET to it does not look it up): refused at once after its
// delete or its time to live, the other sandboxes unaffected, and its memory not held by what remembered it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from '../helpers/demo.js';
import { closeAll, listen, send } from '../helpers/fast-path.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const AUTH = { Authorization: `Bearer ${DEMO.tokens.owner}` };
const TTL = 10_000;
const servers: Server[] = [];

async function served() {
  const clock = { now: Date.parse('2030-01-01T00:00:00Z') };
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), log: () => {}, clock: () => clock.now, sandboxes: { max: 5, ttlMs: TTL } });
  const server = await listen(mock.callback());
  servers.push(server);
  const get = async (id: string) => {
    const res = await send(server, `/sandboxes/${id}${RUN}`, AUTH);
    return { status: res.status, body: JSON.parse(res.body) as { id?: string; detail?: { reason_code: string } } };
  };
  return { mock, clock, get };
}

test.after.each(() => closeAll(servers));

test('remembered sandbox: deleted, its next GET is 404 sandbox_not_found, and another sandbox still answers', async () => {
  const { mock, get } = await served();
  const a = (await mock.control.createSandbox()).id;
  const b = (await mock.control.createSandbox()).id;
  for (const id of [a, b, a, b]) assert.equal([(await get(id)).status, (await get(id)).body.id], [200, DEMO.runs.failedApi]);
  await mock.control.deleteSandbox(a);
  const gone = await get(a);
  assert.equal([gone.status, gone.body.detail?.reason_code], [404, 'sandbox_not_found']);
  assert.is((await get(b)).status, 200);
  assert.is((await get(a)).status, 404);
  await mock.close();
});

test('remembered sandbox: past its time to live its next GET is 404, it is gone from the list, and found 1 ms before', async () => {
  const { mock, clock, get } = await served();
  const a = (await mock.control.createSandbox()).id;
  const b = (await mock.control.createSandbox()).id;
  assert.is((await get(a)).status, 200);
  const t = clock.now;
  clock.now = t + TTL - 1;
  assert.is((await get(a)).status, 200, 'found 1 ms before its time');
  clock.now += TTL;
  const gone = await get(a);
  assert.equal([gone.status, gone.body.detail?.reason_code], [404, 'sandbox_not_found']);
  assert.equal(
    (await mock.control.sandboxes()).items.map((s) => s.id),
    [],
    'both past their time (b had no request since it was made)',
  );
  assert.is((await get(b)).status, 404);
  await mock.close();
});

test('remembered sandbox: the next sandbox made after one ended is found and answers', async () => {
  const { mock, get } = await served();
  const a = (await mock.control.createSandbox()).id;
  assert.is((await get(a)).status, 200);
  await mock.control.deleteSandbox(a);
  const c = (await mock.control.createSandbox()).id;
  assert.equal([(await get(c)).status, (await get(a)).status, (await get(c)).status], [200, 404, 200]);
  await mock.close();
});

for (const how of ['delete', 'expire']) {
  test(`remembered sandbox: after its ${how} the sandbox's memory can be collected (child with --expose-gc)`, () => {
    const out = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(new URL('../helpers/sandbox-let-go.ts', import.meta.url)), how], {
      encoding: 'utf8',
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    });
    assert.is(out.status, 0, out.stderr.slice(-2000));
    const expected = how === 'delete' ? [200, 200, 200, 404] : [200, 200, 200, 404, 404];
    assert.equal(JSON.parse(out.stdout), { statuses: expected, collected: true });
  });
}

test.run();
