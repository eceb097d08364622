// Sandboxes on PostgreSQL, three instances on one schema: a sandbox created through one is served by every one, with
// the default mock's guarantees (one winner of 50 concurrent denies, writes visible anywhere afterwards, one instance
// fires its simulated events), isolated from the others; delete, expiry and --max-sandboxes act over all instances.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { MockApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { dropCreated, needsPostgres } from '../../helpers/postgres.js';
import { DEMO } from '../../helpers/demo.js';
import { apps, call, create, instances, owner, P, RUN, rows, type Json } from '../../helpers/postgres-sandboxes.js';

needsPostgres();
test.after(async () => {
  await Promise.all(apps.splice(0).map((m) => m.close().catch(() => {})));
  await dropCreated();
});

let trio: MockApp[] = [];
let trioSchema = '';
test.before(async () => {
  ({ live: trio, schema: trioSchema } = await instances(3));
});

test('a sandbox created through one instance is served by every instance, by path, header and host; listed and shown by all', async () => {
  const [a, b, c] = trio;
  const sb = await create(a, { name: 'shared' });
  const viaPath = await call(b, 'GET', `/sandboxes/${sb.id}${RUN}`);
  const viaHeader = await call(c, 'GET', RUN, undefined, { ...owner, 'x-mock-sandbox': sb.id });
  const viaHost = await call(c, 'GET', RUN, undefined, { ...owner, host: `${sb.id}.localhost` });
  for (const r of [viaPath, viaHeader, viaHost]) {
    assert.is(r.status, 200);
    assert.is(r.body!.id, DEMO.runs.waitingApproval);
    assert.is(r.body!.status, 'waiting_approval');
  }
  const shown = await call(c, 'GET', `/_mock/sandboxes/${sb.id}`);
  assert.is(shown.status, 200);
  assert.equal(
    { id: shown.body!.id, name: shown.body!.name, created_at: shown.body!.created_at, ttl_ms: shown.body!.ttl_ms },
    { id: sb.id, name: 'shared', created_at: sb.created_at, ttl_ms: 3_600_000 },
  );
  const listed = await call(b, 'GET', '/_mock/sandboxes?limit=1');
  assert.is(listed.body!.items[0].id, sb.id, 'the newest is first on every instance');
  assert.is(listed.body!.items[0].base_url, `http://localhost/sandboxes/${sb.id}`);
  // An id no instance created is 404 on every one.
  for (const app of trio) {
    const none = await call(app, 'GET', `/sandboxes/zzzzzzzzzzzzzzzzzzzz${RUN}`);
    assert.is(none.status, 404);
    assert.is(none.body!.detail.reason_code, 'sandbox_not_found');
  }
});

test('50 concurrent denies of one approval inside a sandbox, over 3 instances: exactly one 200, 49 approval_not_pending', async () => {
  const sb = await create(trio[1]);
  const path = `/sandboxes/${sb.id}/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}/deny`;
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => call(trio[i % 3], 'POST', path, {})));
  const ok = answers.filter((r) => r.status === 200);
  assert.is(ok.length, 1, answers.map((r) => r.status).join(' '));
  assert.is(ok[0].body!.approval.status, 'denied');
  const refused = answers.filter((r) => r.status === 409);
  assert.is(refused.length, 49);
  for (const r of refused) assert.is(r.body!.detail.reason_code, 'approval_not_pending');
  for (const app of trio) {
    const s = (await call(app, 'GET', `/sandboxes/${sb.id}/_mock/state`)).body!;
    assert.is(s.approvals.find((x: Json) => x.approval_id === DEMO.approvals.pendingWaiting).status, 'denied');
  }
  // The default mock's approval is untouched.
  const root = (await call(trio[2], 'GET', '/_mock/state')).body!;
  assert.is(root.approvals.find((x: Json) => x.approval_id === DEMO.approvals.pendingWaiting).status, 'pending');
});

test('a write acknowledged through one instance is seen by the next request to any other, and by no other mock', async () => {
  const sb = await create(trio[0]);
  const S = `/sandboxes/${sb.id}`;
  for (let i = 0; i < 9; i++) {
    const made = await call(trio[i % 3], 'POST', `${S}/_mock/projects/${P}/runs`, {});
    assert.is(made.status, 200);
    const id = made.body!.id as string;
    const read = await call(trio[(i + 1) % 3], 'GET', `${S}/api/v3/projects/${P}/runs/${id}`);
    assert.is(read.status, 200, `run ${id} made through ${i % 3} not found through ${(i + 1) % 3}`);
    assert.is(read.body!.status, 'queued');
    assert.is((await call(trio[(i + 1) % 3], 'POST', `${S}/api/v3/projects/${P}/runs/${id}/cancel`, { reason: 'test' })).status, 200);
    assert.is((await call(trio[(i + 2) % 3], 'GET', `${S}/api/v3/projects/${P}/runs/${id}`)).body!.status, 'cancelled');
    assert.is((await call(trio[(i + 2) % 3], 'GET', `/api/v3/projects/${P}/runs/${id}`)).status, 404, 'the default mock has no such run');
  }
  const states = await Promise.all(trio.map(async (app) => (await call(app, 'GET', `${S}/_mock/state`)).body));
  assert.equal(states[1], states[0]);
  assert.equal(states[2], states[0]);
});

test('two sandboxes on shared instances are isolated: writes, clock moves and resets stay in their own', async () => {
  const [a, b, c] = trio;
  const x = `/sandboxes/${(await create(a, { name: 'x' })).id}`;
  const y = `/sandboxes/${(await create(b, { name: 'y' })).id}`;
  assert.is((await call(c, 'POST', `${x}${RUN}/cancel`, {})).status, 200);
  assert.is((await call(a, 'POST', `${x}/_mock/clock`, { advance_ms: 86_400_000 })).status, 200);
  assert.is((await call(b, 'GET', `${x}${RUN}`)).body!.status, 'cancelled');
  assert.is((await call(a, 'GET', `${y}${RUN}`)).body!.status, 'waiting_approval');
  assert.is((await call(c, 'GET', `${x}/_mock/clock`)).body!.now, '2026-11-21T12:00:00.000Z');
  assert.is((await call(c, 'GET', `${y}/_mock/clock`)).body!.now, '2026-11-20T12:00:00.000Z');
  assert.is((await call(c, 'GET', '/_mock/clock')).body!.now, '2026-11-20T12:00:00.000Z');
  // The journal is per sandbox (and per instance, as the default mock's is).
  const journal = async (app: MockApp, s: string) => (await call(app, 'GET', `${s}/_mock/requests?summary=true`)).body!.items.map((r: Json) => r.operation);
  assert.equal(await journal(c, x), ['cancelRun']);
  assert.equal(await journal(b, x), ['getRun']);
  assert.equal(await journal(c, y), []);
  // A reset through another instance returns x to where it started, for every instance; y keeps its own change.
  assert.is((await call(b, 'POST', `${y}${RUN}/cancel`, {})).status, 200);
  assert.is((await call(c, 'POST', `${x}/_mock/reset`, {})).status, 200);
  for (const app of trio) {
    assert.is((await call(app, 'GET', `${x}${RUN}`)).body!.status, 'waiting_approval');
    assert.is((await call(app, 'GET', `${x}/_mock/clock`)).body!.now, '2026-11-20T12:00:00.000Z');
    assert.is((await call(app, 'GET', `${y}${RUN}`)).body!.status, 'cancelled');
  }
  assert.equal(await journal(c, y), ['getRun']);
});

test('a sandbox from fixtures, or from a snapshot saved at the default mock, is served alike by every instance', async () => {
  const [a, b, c] = trio;
  const fixture = structuredClone(demoFixture()) as Json;
  fixture.projects[0].name = 'Renamed in the sandbox';
  const fromFixture = await create(a, { fixtures: fixture });
  const nameIn = async (app: MockApp, prefix: string) =>
    (await call(app, 'GET', `${prefix}/_mock/state`)).body!.projects.find((p: Json) => p.id === fixture.projects[0].id).name;
  for (const app of [b, c]) assert.is(await nameIn(app, `/sandboxes/${fromFixture.id}`), 'Renamed in the sandbox');
  assert.is(await nameIn(b, ''), (demoFixture() as Json).projects[0].name);

  assert.is((await call(a, 'POST', `${RUN}/cancel`, {})).status, 200);
  assert.is((await call(a, 'POST', '/_mock/snapshots', { name: 'cancelled' })).status, 201);
  const fromSnapshot = await create(a, { snapshot: 'cancelled' });
  assert.is((await call(a, 'POST', '/_mock/reset', {})).status, 200);
  assert.is((await call(c, 'GET', `/sandboxes/${fromSnapshot.id}${RUN}`)).body!.status, 'cancelled');
  assert.is((await call(c, 'GET', RUN)).body!.status, 'waiting_approval');
  // A reset inside it returns to the snapshot, through any instance.
  assert.is((await call(b, 'POST', `/sandboxes/${fromSnapshot.id}/_mock/clock`, { advance_ms: 60_000 })).body!.now, '2026-11-20T12:01:00.000Z');
  assert.is((await call(b, 'POST', `/sandboxes/${fromSnapshot.id}/_mock/reset`, {})).status, 200);
  assert.is((await call(c, 'GET', `/sandboxes/${fromSnapshot.id}${RUN}`)).body!.status, 'cancelled');
  assert.is((await call(c, 'GET', `/sandboxes/${fromSnapshot.id}/_mock/clock`)).body!.now, '2026-11-20T12:00:00.000Z');
});

test("the list pages every instance's sandboxes newest first, whichever instance is asked", async () => {
  const made: string[] = [];
  for (const app of trio) made.push((await create(app, { name: `page-${made.length}` })).id);
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; ; i = (i + 1) % 3) {
    const page = await call(trio[i], 'GET', `/_mock/sandboxes?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.is(page.status, 200);
    assert.ok(page.body!.items.length <= 2);
    seen.push(...page.body!.items.map((x: Json) => x.id));
    cursor = page.body!.next_cursor;
    if (!cursor) break;
  }
  // The three just made come first, newest first; no sandbox is listed twice.
  assert.equal(seen.slice(0, 3), [...made].reverse());
  assert.is(new Set(seen).size, seen.length);
  assert.is(seen.length, (await call(trio[1], 'GET', '/_mock/sandboxes?limit=200')).body!.items.length);
});

test('DELETE through one instance removes its rows and every instance answers 404 sandbox_not_found', async () => {
  const [a, b, c] = trio;
  const sb = await create(a);
  for (const app of trio) assert.is((await call(app, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 200);
  assert.is((await call(b, 'POST', `/sandboxes/${sb.id}${RUN}/cancel`, {})).status, 200);
  assert.ok((await rows(trioSchema, 'prm_sandbox_changes', 'sandbox = $1', [sb.id])) > 0);
  const gone = await call(c, 'DELETE', `/_mock/sandboxes/${sb.id}`);
  assert.equal([gone.status, gone.body], [200, { deleted: true, id: sb.id }]);
  assert.is(await rows(trioSchema, 'prm_sandboxes', 'id = $1', [sb.id]), 0);
  assert.is(await rows(trioSchema, 'prm_sandbox_changes', 'sandbox = $1', [sb.id]), 0);
  for (const app of trio) {
    const r = await call(app, 'GET', `/sandboxes/${sb.id}${RUN}`);
    assert.is(r.status, 404);
    assert.is(r.body!.detail.reason_code, 'sandbox_not_found');
    assert.is((await call(app, 'GET', `/_mock/sandboxes/${sb.id}`)).status, 404);
  }
  assert.is((await call(a, 'DELETE', `/_mock/sandboxes/${sb.id}`)).status, 404);
  // Every stored base is one some sandbox starts from or resets to.
  assert.is(
    await rows(
      trioSchema,
      'prm_sandbox_bases',
      `NOT EXISTS (SELECT 1 FROM ${trioSchema}.prm_sandboxes s WHERE s.base = prm_sandbox_bases.hash OR s.reset = prm_sandbox_bases.hash)`,
    ),
    0,
  );
});

test.run();
