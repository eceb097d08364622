// Shared sandboxes' bounds and leaders on PostgreSQL: expiry after the last request through any instance removes the
// rows, --max-sandboxes counts every instance's, exactly one instance fires a sandbox's simulated events (another takes
// over when it goes), and a long change log is folded into a new base that a joining instance opens.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { MockApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { COMPACT_AFTER } from '../../../src/storage/postgres/sandbox-adapter.js';
import { admin, dropCreated, needsPostgres } from '../../helpers/postgres.js';
import { DEMO } from '../../helpers/demo.js';
import { apps, call, create, instances, RUN, rows, until, type Json } from '../../helpers/postgres-sandboxes.js';

needsPostgres();
const T0 = Date.parse('2031-05-05T10:00:00.000Z');

test.after(async () => {
  await Promise.all(apps.splice(0).map((m) => m.close().catch(() => {})));
  await dropCreated();
});

test('expiry: ttl_ms after the last request through any instance; then every instance answers 404 and the rows go', async () => {
  let now = T0;
  const { live, schema } = await instances(3, { clock: () => now, sandboxes: { ttlMs: 1_000 } });
  const [a, b, c] = live;
  const sb = await create(a, { ttl_ms: 1_000 });
  assert.is(sb.expires_at, new Date(T0 + 1_000).toISOString());
  const S = `/sandboxes/${sb.id}`;
  now = T0 + 600;
  assert.is((await call(b, 'POST', `${S}${RUN}/cancel`, {})).status, 200);
  // b reports its request (a tenth of the time to live after the last report): the registry holds it.
  assert.ok(await until(async () => (await admin(`SELECT last_ms FROM ${schema}.prm_sandboxes WHERE id = $1`, [sb.id]))[0].last_ms === String(T0 + 600)));
  // Idle on a for longer than its time to live, but not idle: a asks the registry and serves it.
  now = T0 + 1_400;
  assert.is((await call(a, 'GET', `${S}${RUN}`)).body!.status, 'cancelled');
  assert.is((await call(c, 'GET', `/_mock/sandboxes/${sb.id}`)).body!.expires_at, new Date(T0 + 2_400).toISOString());
  // Just before its end it lives; at it, it is gone everywhere, and a sweep removes its rows.
  now = T0 + 2_399;
  assert.is((await call(c, 'GET', `${S}${RUN}`)).status, 200);
  now = T0 + 3_399;
  for (const app of live) {
    const r = await call(app, 'GET', `${S}${RUN}`);
    assert.equal([r.status, r.body!.detail.reason_code], [404, 'sandbox_not_found']);
  }
  assert.is((await call(b, 'GET', '/_mock/sandboxes')).body!.items.length, 0);
  assert.ok(await until(async () => (await rows(schema, 'prm_sandboxes')) === 0), 'the expired row is removed');
  assert.is(await rows(schema, 'prm_sandbox_changes'), 0);
  assert.is(await rows(schema, 'prm_sandbox_bases'), 0);
});

test('--max-sandboxes counts every instance: 6 concurrent creates over 3 instances with a maximum of 2 make exactly 2', async () => {
  const now = T0;
  const { live, schema } = await instances(3, { clock: () => now, sandboxes: { max: 2 } });
  const answers = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => call(live[i % 3], 'POST', '/_mock/sandboxes', { name: `n${i}` })));
  const made = answers.filter((r) => r.status === 201);
  const refused = answers.filter((r) => r.status === 429);
  assert.equal([made.length, refused.length], [2, 4], answers.map((r) => r.status).join(' '));
  for (const r of refused) {
    assert.is(r.body!.detail.reason_code, 'sandbox_limit');
    // Seconds until the first of them expires: a whole time to live, as the clock stands still.
    assert.is(r.headers.get('retry-after'), '3600');
  }
  assert.is(await rows(schema, 'prm_sandboxes'), 2);
  // Deleting one through any instance frees a place for a create through another.
  assert.is((await call(live[2], 'DELETE', `/_mock/sandboxes/${made[0].body!.id}`)).status, 200);
  await create(live[1]);
  assert.is((await call(live[0], 'POST', '/_mock/sandboxes', {})).status, 429);
  assert.is(await rows(schema, 'prm_sandboxes'), 2);
});

test("exactly one instance fires a sandbox's simulated events; when it goes, another that has it open takes over", async () => {
  const { live } = await instances(3);
  const fixtures = structuredClone(demoFixture()) as Json;
  // A running clock at a simulated hour per real second, and chat traffic: events fall due all the time.
  fixtures.simulation = {
    ...fixtures.simulation,
    mode: 'auto',
    seed: 'leader',
    clock: 'running',
    speed: 3_600,
    traffic: [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 6 }],
  };
  const sb = await create(live[0], { fixtures });
  for (const app of live) assert.is((await call(app, 'GET', `/sandboxes/${sb.id}/_mock/clock`)).status, 200);
  const fired = (app: MockApp) => app.control.sandboxControl(sb.id).coverage().simulated.events;
  assert.ok(await until(() => live.some((app) => fired(app) >= 5)), 'no instance fired events');
  await new Promise((r) => setTimeout(r, 1_500));
  const firing = live.filter((app) => fired(app) > 0);
  assert.is(firing.length, 1, `events fired by ${live.map(fired).join(', ')}`);
  // The default mocks fire nothing of it.
  for (const app of live) assert.is(app.control.coverage().simulated.events, 0);
  // Its leader stops (a closing instance stops a sped-up clock where it stands, as at the default mock): once the clock
  // runs again, one of the others fires the sandbox's events.
  const rest = live.filter((app) => app !== firing[0]);
  await firing[0].close();
  apps.splice(apps.indexOf(firing[0]), 1);
  assert.is((await call(rest[1], 'PUT', `/sandboxes/${sb.id}/_mock/simulation`, { clock: 'running' })).body!.clock, 'running');
  assert.ok(await until(() => rest.some((app) => fired(app) >= 3)), 'no other instance took over');
  await new Promise((r) => setTimeout(r, 1_500));
  assert.is(rest.filter((app) => fired(app) > 0).length, 1, `events fired by ${rest.map(fired).join(', ')}`);
});

test(`a sandbox's log is folded into a new base after ${COMPACT_AFTER} change sets; an instance joining later opens it whole`, async () => {
  const { live, schema } = await instances(2);
  const [a, b] = live;
  const sb = await create(a);
  const S = `/sandboxes/${sb.id}`;
  assert.is((await call(b, 'POST', `${S}${RUN}/cancel`, {})).status, 200);
  for (let i = 0; i < COMPACT_AFTER + 5; i++) assert.is((await call(i % 2 ? a : b, 'POST', `${S}/_mock/clock`, { advance_ms: 1_000 })).status, 200);
  const [row] = await admin<{ base_seq: string; seq: string }>(`SELECT base_seq, seq FROM ${schema}.prm_sandboxes WHERE id = $1`, [sb.id]);
  assert.ok(Number(row.base_seq) >= COMPACT_AFTER, `base at ${row.base_seq}`);
  assert.is(await rows(schema, 'prm_sandbox_changes', 'sandbox = $1', [sb.id]), Number(row.seq) - Number(row.base_seq));
  // Two bases: the folded one it starts from, and the demo it resets to.
  assert.is(await rows(schema, 'prm_sandbox_bases'), 2);
  const [c] = (await instances(1, {}, schema)).live;
  const expected = (await call(a, 'GET', `${S}/_mock/state`)).body;
  assert.equal((await call(c, 'GET', `${S}/_mock/state`)).body, expected);
  assert.is(expected!.clock.frozen_at, new Date(Date.parse('2026-11-20T12:00:00.000Z') + (COMPACT_AFTER + 5) * 1_000).toISOString());
  // A reset through the joined instance returns every instance to the demo.
  assert.is((await call(c, 'POST', `${S}/_mock/reset`, {})).status, 200);
  assert.is((await call(a, 'GET', `${S}${RUN}`)).body!.status, 'waiting_approval');
  assert.equal((await call(b, 'GET', `${S}/_mock/state`)).body, (await call(a, 'GET', '/_mock/state')).body);
});

test.run();
