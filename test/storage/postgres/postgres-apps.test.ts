// PostgreSQL storage with several apps on one schema: no lost update, read-your-writes, resets, the whole state after
// pruning, leadership, and a database that goes away (503) and comes back.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import request from 'supertest';
import { createApp, type MockApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { StorageUnavailable } from '../../../src/storage/store.js';
import { postgresStorage } from '../../../src/storage/postgres/index.js';
import { isWholeState } from '../../../src/storage/change-sets.js';
import { admin, freshSchema, needsPostgres, proxy } from '../../helpers/postgres.js';
import { DEMO, bearer } from '../../helpers/demo.js';
import { postgresApps } from '../../helpers/postgres-apps.js';
import { chat, getRun, simFixture } from '../../helpers/simulation.js';
import type { TestMock } from '../../helpers/app.js';

needsPostgres();
const P = DEMO.projects.support;
const SALES = DEMO.projects.sales;
const operator = bearer(DEMO.tokens.operator);
const { storage, app, apps } = postgresApps(test);
const epoch = (mock: MockApp) => mock.store.get('budgets', P)!.runtime_config_epoch;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('several apps: concurrent read-modify-writes through two apps lose no update (rebased under the head lock)', async () => {
  const schema = freshSchema();
  const [a, b] = [await app(schema), await app(schema)];
  const start = epoch(a);
  const bump = (tx: Parameters<Parameters<MockApp['store']['transact']>[0]>[0]) => {
    const budget = tx.get('budgets', P)!;
    return tx.put('budgets', { ...budget, runtime_config_epoch: budget.runtime_config_epoch + 1 }).runtime_config_epoch;
  };
  const results = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).store.transact(bump)));
  assert.equal(
    [...results].sort((x, y) => x - y),
    Array.from({ length: 60 }, (_, i) => start + 1 + i),
  );
  await Promise.all([a.store.sync(), b.store.sync()]);
  assert.is(epoch(a), start + 60);
  assert.is(epoch(b), start + 60);
  assert.is(a.store.seq, b.store.seq);
});

test('several apps: a write acknowledged by one is read by the next request to another; reset and fixtures are shared', async () => {
  const schema = freshSchema();
  const [a, b] = [await app(schema), await app(schema)];
  for (let i = 1; i <= 5; i++) {
    await request(a.callback()).put(`/api/v3/projects/${P}/budget`).set(operator).send({ user_daily_usd: i }).expect(200);
    const read = await request(b.callback()).get('/_mock/state').expect(200);
    assert.is(read.body.budgets.find((x: { project_id: string }) => x.project_id === P).limits.user_daily_usd, i);
  }
  await request(a.callback()).post('/_mock/clock').send({ advance_ms: 60_000 }).expect(200);
  const clock = await request(b.callback()).get('/_mock/state').expect(200);
  assert.equal(clock.body.clock, { frozen_at: '2026-11-20T12:01:00.000Z', offset_ms: 0 });
  // Fixtures loaded through b become what a reset through a returns to.
  const fixture = structuredClone(demoFixture()) as { projects: { id: string; name: string }[] };
  fixture.projects.find((p) => p.id === SALES)!.name = 'Renamed by fixtures';
  await request(b.callback()).post('/_mock/fixtures').send(fixture).expect(200);
  await request(a.callback()).put(`/api/v3/projects/${SALES}/budget`).set(bearer(DEMO.tokens.owner)).send({ user_daily_usd: 9 }).expect(200);
  await request(a.callback()).post('/_mock/clock').send({ advance_ms: 60_000 }).expect(200);
  await request(a.callback()).post('/_mock/reset').send({}).expect(200);
  const after = await request(b.callback()).get('/_mock/state').expect(200);
  assert.is(after.body.projects.find((p: { id: string }) => p.id === SALES).name, 'Renamed by fixtures');
  assert.is(after.body.budgets.find((x: { project_id: string }) => x.project_id === SALES).limits.user_daily_usd, 2, "the fixture's limit");
  assert.equal(after.body.clock, { frozen_at: '2026-11-20T12:00:00.000Z', offset_ms: 0 });
});

test('several apps: a state replaced through one (a reset) reaches the other as a whole state', async () => {
  const schema = freshSchema();
  const [a, b] = [await app(schema), await app(schema)];
  await b.store.transact((tx) => tx.delete('projects', SALES));
  await a.store.sync();
  assert.is(a.store.get('projects', SALES), undefined);
  await b.control.reset();
  await a.store.sync();
  assert.ok(a.store.get('projects', SALES));
  assert.equal(a.store.toData(), b.store.toData());
});

test('catching up: an instance further behind than the kept change sets gets the whole state; order is kept', async () => {
  const schema = freshSchema();
  const adapter = storage(schema, { keepChangeSets: 10 });
  const mock = await createApp({ storage: adapter, fixtures: demoFixture() });
  apps.push(mock);
  const from = mock.store.seq;
  const ws = (i: number) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, name: `w${i}` });
  for (let i = 0; i < 300; i++) await mock.store.transact((tx) => tx.put('workspaces', ws(i % 20)));
  // A record deleted and written again goes last, as in the store's own maps: in separate groups, and within one group
  // (the delete and the write queue behind a group being stored).
  await mock.store.transact((tx) => tx.delete('workspaces', ws(3).id));
  await mock.store.transact((tx) => tx.put('workspaces', ws(3)));
  const inFlight = mock.store.transact((tx) => tx.put('workspaces', { ...ws(9), name: 'renamed' }));
  await Promise.all([inFlight, mock.store.transact((tx) => tx.delete('workspaces', ws(4).id)), mock.store.transact((tx) => tx.put('workspaces', ws(4)))]);
  assert.equal(
    [...mock.store.values('workspaces')].slice(-2).map((w) => w.name),
    ['w3', 'w4'],
  );
  const found = await adapter.changesSince(from);
  assert.is(found.length, 1);
  assert.ok(isWholeState(found[0]));
  assert.is(found[0].seq, mock.store.seq);
  assert.equal(found[0].state, JSON.parse(JSON.stringify(mock.store.toData())));
  const recent = await adapter.changesSince(mock.store.seq - 2);
  assert.equal(
    recent.map((s) => s.seq),
    [mock.store.seq - 1, mock.store.seq],
  );
});

test('leadership: exactly one app on a schema leads; when it closes another takes over', async () => {
  const schema = freshSchema();
  const [a, b] = [await app(schema), await app(schema)];
  const until = async (what: () => boolean) => {
    for (let i = 0; i < 100 && !what(); i++) await wait(100);
    return what();
  };
  assert.ok(await until(() => a.store.leads || b.store.leads), 'no leader');
  await wait(300);
  assert.is([a, b].filter((m) => m.store.leads).length, 1);
  const [leader, other] = a.store.leads ? [a, b] : [b, a];
  await leader.close();
  assert.ok(await until(() => other.store.leads), 'the other app did not take over');
});

test('simulation: with a running clock only the leader fires events; a run queued through the other one completes', async () => {
  const schema = freshSchema();
  const fixture = simFixture(
    { behaviours: { projects: [{ project_id: P, queue_wait_ms: 1000, steps: [{ name: 'answer', step_type: 'model', duration_ms: 3000 }] }] } },
    (f) => delete f.now,
  );
  const [a, b] = [
    await app(schema, { fixtures: fixture, simulation: { mode: 'auto' } }),
    await app(schema, { fixtures: fixture, simulation: { mode: 'auto' } }),
  ];
  for (let i = 0; i < 100 && !a.store.leads && !b.store.leads; i++) await wait(100);
  const [leader, other] = a.store.leads ? [a, b] : [b, a];
  assert.ok(leader.store.leads && !other.store.leads);
  const through = { http: request(other.callback()) } as unknown as TestMock;
  assert.is((await through.http.put('/_mock/simulation').send({ speed: 1000 })).status, 200);
  const id = await chat(through);
  let run = await getRun(through, id);
  for (let i = 0; i < 200 && run.status !== 'succeeded'; i++) {
    await wait(25);
    run = await getRun(through, id);
  }
  assert.is(run.status, 'succeeded');
  assert.equal([run.timing.queue_wait_ms, run.timing.model_ms, run.timing.end_to_end_ms], [1000, 3000, 4000]);
  assert.ok(leader.control.coverage().simulated.events >= 3, "the leader fired the run's events");
  assert.is(other.control.coverage().simulated.events, 0, 'the other instance fired none');
});

test('database down: writes and reads answer 503 storage_unavailable without a crash; both work again once it is back', async () => {
  const gate = await proxy();
  try {
    const schema = freshSchema();
    const mock = await createApp({ storage: postgresStorage({ connectionString: gate.url, schema }), fixtures: demoFixture() });
    apps.push(mock);
    const before = epoch(mock);
    await gate.cut();
    const write = await request(mock.callback()).put(`/api/v3/projects/${P}/budget`).set(operator).send({ user_daily_usd: 4 });
    assert.is(write.status, 503);
    assert.equal(write.body, {
      detail: {
        reason_code: 'storage_unavailable',
        message: 'The change could not be stored, so it was not made. Try again later.',
        next_action: 'retry_later',
      },
    });
    assert.is(write.headers['retry-after'], '1');
    const read = await request(mock.callback()).get(`/api/v3/projects/${P}/runs`).set(operator);
    assert.is(read.status, 503);
    assert.is(read.body.detail.reason_code, 'storage_unavailable');
    const err = await mock.store.transact((tx) => tx.put('budgets', { ...tx.get('budgets', P)!, runtime_config_epoch: 999 })).catch((e: unknown) => e);
    assert.instance(err, StorageUnavailable);
    assert.is(epoch(mock), before);
    await gate.restore();
    let ok = 0;
    for (let i = 0; i < 50 && ok !== 200; i++) {
      ok = (await request(mock.callback()).put(`/api/v3/projects/${P}/budget`).set(operator).send({ user_daily_usd: 4 })).status;
      if (ok !== 200) await wait(200);
    }
    assert.is(ok, 200);
    const [row] = await admin<{ record: { limits: { user_daily_usd: number }; runtime_config_epoch: number } }>(
      `SELECT record FROM ${schema}.prm_records WHERE collection = 'budgets' AND key = $1`,
      [P],
    );
    assert.is(row.record.limits.user_daily_usd, 4);
    assert.is(row.record.runtime_config_epoch, before + 1, 'the refused writes left nothing behind');
  } finally {
    await gate.close();
  }
});

test.run();
