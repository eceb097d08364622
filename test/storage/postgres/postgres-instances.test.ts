// Three CLI processes on one PostgreSQL database (through a proxy the test can cut): one seeded state, exactly one winner
// of 50 concurrent denies, writes visible to the next request to any instance, a shared control surface with per-instance
// faults and journal, kill -9 without lost writes, a joining instance that catches up, and a database that goes away.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startCli, type RunningCli } from '../../helpers/cli.js';
import { dropCreated, freshDatabase, needsPostgres, proxy, type Proxy } from '../../helpers/postgres.js';
import { DEMO } from '../../helpers/demo.js';
import { demoFixture } from '../../../src/fixtures.js';

needsPostgres();
const P = DEMO.projects.support;
const APPROVAL = DEMO.approvals.pendingWaiting;
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;
const operator = { authorization: `Bearer ${DEMO.tokens.operator}` };
const JSON_BODY = { 'content-type': 'application/json' };
let db = '';
let gate: Proxy;
const all: RunningCli[] = [];
let live: RunningCli[] = [];

async function call(cli: RunningCli, method: string, path: string, body?: unknown, headers: Record<string, string> = operator) {
  const res = await fetch(cli.url + path, {
    method,
    headers: body === undefined ? headers : { ...headers, ...JSON_BODY },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}
const createRun = (cli: RunningCli) => call(cli, 'POST', `/_mock/projects/${P}/runs`, {});
const run = (cli: RunningCli, id: string) => call(cli, 'GET', `/api/v3/projects/${P}/runs/${id}`);
const state = async (cli: RunningCli) => (await call(cli, 'GET', '/_mock/state')).body;
const start = (url: string) => startCli(['--port', '0', '--database', url], 30_000).then((c) => (all.push(c), c));

test.before(async () => {
  db = await freshDatabase();
  gate = await proxy(db);
  // Started together on an empty database: they race to seed it, and exactly one does.
  live = await Promise.all([0, 1, 2].map(() => start(gate.url)));
});

test.after(async () => {
  await Promise.all(all.map((c) => c.stop('SIGKILL')));
  await gate?.close();
  await dropCreated();
});

test('three instances started together on an empty database serve one seeded state', async () => {
  const states = await Promise.all(live.map(state));
  assert.is(states[0].projects.length, (demoFixture() as { projects: unknown[] }).projects.length);
  assert.ok(states[0].projects.some((p: { id: string }) => p.id === P));
  assert.equal(states[1], states[0]);
  assert.equal(states[2], states[0]);
});

test('50 concurrent denies of one approval over 3 instances: exactly one 200, 49 approval_not_pending', async () => {
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => call(live[i % 3], 'POST', `/api/v3/projects/${P}/approvals/${APPROVAL}/deny`, {})));
  const ok = answers.filter((a) => a.status === 200);
  assert.is(ok.length, 1, answers.map((a) => a.status).join(' '));
  assert.is(ok[0].body.approval.status, 'denied');
  const refused = answers.filter((a) => a.status === 409);
  assert.is(refused.length, 49);
  for (const r of refused) assert.is(r.body.detail.reason_code, 'approval_not_pending');
  for (const cli of live) {
    const approvals = (await state(cli)).approvals as { approval_id: string; status: string }[];
    assert.is(approvals.find((a) => a.approval_id === APPROVAL)!.status, 'denied');
  }
});

test('a write acknowledged by one instance is seen by the next request to any other', async () => {
  for (let i = 0; i < 12; i++) {
    const made = await createRun(live[i % 3]);
    assert.is(made.status, 200);
    const id = made.body.id as string;
    const read = await run(live[(i + 1) % 3], id);
    assert.is(read.status, 200, `run ${id} made through instance ${i % 3} not found through ${(i + 1) % 3}`);
    assert.is(read.body.status, 'queued');
    const cancel = await call(live[(i + 1) % 3], 'POST', `/api/v3/projects/${P}/runs/${id}/cancel`, { reason: 'test' });
    assert.is(cancel.status, 200);
    assert.is((await run(live[(i + 2) % 3], id)).body.status, 'cancelled');
  }
});

test('the control surface acts on the shared state; faults and the journal stay per instance', async () => {
  const moved = await call(live[0], 'POST', '/_mock/clock', { advance_ms: 3_600_000 });
  assert.is(moved.status, 200);
  for (const cli of live) assert.equal((await state(cli)).clock, { frozen_at: '2026-11-20T13:00:00.000Z', offset_ms: 0 });
  const fault = await call(live[1], 'POST', '/_mock/faults', { method: 'GET', path: RUN, status: 418 });
  assert.is(fault.status, 200);
  assert.is((await call(live[1], 'GET', RUN)).status, 418);
  assert.is((await call(live[2], 'GET', RUN)).status, 200);
  const journal = async (cli: RunningCli) => (await call(cli, 'GET', '/_mock/requests')).body.items as { path: string; status: number }[];
  assert.ok((await journal(live[1])).some((r) => r.path === RUN && r.status === 418));
  assert.not.ok(
    (await journal(live[2])).some((r) => r.status === 418),
    'the journal is per instance',
  );
  await call(live[1], 'DELETE', '/_mock/faults');
  // A reset through one instance: every instance serves the fixtures' state again.
  assert.is((await call(live[2], 'POST', '/_mock/reset', {})).status, 200);
  const after = await Promise.all(live.map(state));
  assert.equal(after[0].clock, { frozen_at: '2026-11-20T12:00:00.000Z', offset_ms: 0 });
  assert.is(after[0].approvals.find((a: { approval_id: string }) => a.approval_id === APPROVAL).status, 'pending');
  assert.equal(after[1], after[0]);
  assert.equal(after[2], after[0]);
});

test('kill -9 of one instance loses no acknowledged write; a new instance joining catches up', async () => {
  const victim = live[0];
  const acked: string[] = [];
  const burst = Array.from({ length: 60 }, () =>
    createRun(victim).then(
      (r) => void (r.status === 200 && acked.push(r.body.id)),
      () => {},
    ),
  );
  while (acked.length < 10) await new Promise((r) => setTimeout(r, 5));
  victim.proc.kill('SIGKILL');
  await Promise.all(burst);
  live = live.slice(1);
  assert.ok(acked.length >= 10);
  for (const id of acked) assert.is((await run(live[0], id)).status, 200, `acknowledged run ${id} is lost`);
  const joined = await start(db);
  live.push(joined);
  for (const id of acked) assert.is((await run(joined, id)).status, 200);
  assert.equal(await state(joined), await state(live[0]));
});

test('database down: 503 storage_unavailable and no crash; the instances recover when it is back', async () => {
  const [a, b] = live;
  await gate.cut();
  const write = await createRun(a);
  assert.is(write.status, 503);
  assert.equal(write.body, {
    detail: { reason_code: 'storage_unavailable', message: 'The change could not be stored, so it was not made. Try again later.', next_action: 'retry_later' },
  });
  assert.is(write.headers.get('retry-after'), '1');
  const read = await call(b, 'GET', RUN);
  assert.is(read.status, 503);
  assert.is(read.body.detail.reason_code, 'storage_unavailable');
  assert.is(a.proc.exitCode, null);
  assert.is(b.proc.exitCode, null);
  await gate.restore();
  let made = { status: 0, body: null as { id: string } | null };
  for (let i = 0; i < 60 && made.status !== 200; i++) {
    made = await createRun(a);
    if (made.status !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  assert.is(made.status, 200);
  assert.is((await run(b, made.body!.id)).status, 200);
});

test.run();
