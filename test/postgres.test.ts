// PostgreSQL storage in process: the adapter contract, the versioned schema (a foreign or newer one refused by table name),
// seeding only an empty database, several apps on one schema (no lost update, read-your-writes, resets), the whole state
// after pruning, leadership, and a database that goes away (503) and comes back.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import request from 'supertest';
import { createApp, type MockApp } from '../src/app.js';
import { demoFixture } from '../src/fixtures.js';
import { StorageUnavailable } from '../src/storage/store.js';
import { DatabaseSchemaError, postgresStorage, type PostgresOptions } from '../src/storage/postgres/index.js';
import { isWholeState } from '../src/storage/change-sets.js';
import { StaleView } from '../src/storage/store.js';
import pg from 'pg';
import { appendIfAt } from '../src/storage/postgres/append.js';
import { tables } from '../src/storage/postgres/schema.js';
import { adapterContract } from './helpers/adapter-contract.js';
import { DATABASE_URL, admin, dropCreated, freshSchema, needsPostgres, proxy } from './helpers/postgres.js';
import { DEMO, bearer } from './helpers/demo.js';
import { chat, getRun, simFixture } from './helpers/simulation.js';
import type { TestMock } from './helpers/app.js';

needsPostgres();
const P = DEMO.projects.support;
const SALES = DEMO.projects.sales;
const operator = bearer(DEMO.tokens.operator);
const apps: MockApp[] = [];
const storage = (schema: string, extra: Partial<PostgresOptions> = {}) => postgresStorage({ connectionString: DATABASE_URL, schema, ...extra });
async function app(schema: string, options: Parameters<typeof createApp>[0] = {}): Promise<MockApp> {
  const mock = await createApp({ storage: storage(schema), fixtures: demoFixture(), ...options });
  apps.push(mock);
  return mock;
}
const epoch = (mock: MockApp) => mock.store.get('budgets', P)!.runtime_config_epoch;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

adapterContract('postgres', () => storage(freshSchema()));

test.after(async () => {
  await Promise.all(apps.splice(0).map((m) => m.close().catch(() => {})));
  await dropCreated();
});

test('schema: created on first use, with its format and version; a second start reads it', async () => {
  const schema = freshSchema();
  const mock = await app(schema);
  const [meta] = await admin(`SELECT format, schema_version FROM ${schema}.prm_meta`);
  assert.equal(meta, { format: 'project-runtime-mock', schema_version: 1 });
  const tables = (await admin<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = $1 ORDER BY 1`, [schema])).map((r) => r.t);
  assert.equal(tables, ['prm_changes', 'prm_head', 'prm_meta', 'prm_records', 'prm_reset']);
  const [head] = await admin<{ seq: string }>(`SELECT seq FROM ${schema}.prm_head`);
  assert.is(Number(head.seq), mock.store.seq);
  const again = await app(schema, { fixtures: {} });
  assert.equal(again.store.toData(), mock.store.toData());
});

test('schema: a newer version is refused, naming the table; nothing is written', async () => {
  const schema = freshSchema();
  await app(schema);
  await admin(`UPDATE ${schema}.prm_meta SET schema_version = 7`);
  const before = await admin(`SELECT seq FROM ${schema}.prm_head`);
  const err = await createApp({ storage: storage(schema), fixtures: demoFixture(), reset: true }).catch((e: unknown) => e);
  assert.instance(err, DatabaseSchemaError);
  assert.match((err as Error).message, `table "${schema}".prm_meta holds schema version 7, newer than this build's 1`);
  assert.not.match((err as Error).message, /password/);
  assert.equal(await admin(`SELECT seq FROM ${schema}.prm_head`), before);
});

test('schema: foreign tables are refused, naming the table', async () => {
  const foreign = freshSchema();
  await admin(`CREATE SCHEMA ${foreign}`);
  await admin(`CREATE TABLE ${foreign}.prm_records (id int)`);
  const err = await createApp({ storage: storage(foreign), fixtures: demoFixture() }).catch((e: unknown) => e);
  assert.instance(err, DatabaseSchemaError);
  assert.match((err as Error).message, `table "${foreign}".prm_records is not one of project-runtime-mock`);
  const odd = freshSchema();
  await admin(`CREATE SCHEMA ${odd}`);
  await admin(`CREATE TABLE ${odd}.prm_meta (name text)`);
  const err2 = await createApp({ storage: storage(odd), fixtures: demoFixture() }).catch((e: unknown) => e);
  assert.match((err2 as Error).message, `table "${odd}".prm_meta is not one of project-runtime-mock (its columns differ)`);
  const other = freshSchema();
  await app(other);
  await admin(`UPDATE ${other}.prm_meta SET format = 'something-else'`);
  const err3 = await createApp({ storage: storage(other), fixtures: demoFixture() }).catch((e: unknown) => e);
  assert.match((err3 as Error).message, `table "${other}".prm_meta is not one of project-runtime-mock (format "something-else")`);
});

test('seeding: apps starting together on an empty schema seed it once and share that state', async () => {
  const schema = freshSchema();
  const started = await Promise.all([0, 1, 2].map(() => app(schema)));
  const [changes] = await admin<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.prm_changes`);
  assert.is(Number(changes.n), 1, 'one whole state stored');
  for (const m of started) assert.equal(m.store.toData(), started[0].store.toData());
  // A write, then an app without reset: loaded as is; with reset: reseeded, and the others see it.
  await request(started[0].callback()).put(`/api/v3/projects/${P}/budget`).set(operator).send({ user_daily_usd: 3 }).expect(200);
  const late = await app(schema);
  assert.is(late.store.get('budgets', P)!.limits.user_daily_usd, 3);
  const reseeded = await app(schema, { reset: true });
  assert.is(reseeded.store.get('budgets', P)!.limits.user_daily_usd, 5);
  const read = await request(started[1].callback()).get('/_mock/state').expect(200);
  assert.is(read.body.budgets.find((b: { project_id: string }) => b.project_id === P).limits.user_daily_usd, 5);
});

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
  const fixture = demoFixture() as { projects: { id: string; name: string }[] };
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

test('append in one statement: a record written twice keeps its first place and its last value; deletes and new records land as in the store', async () => {
  const schema = freshSchema();
  const mock = await app(schema, { fixtures: {} });
  const ws = (i: number, name = `w${i}`) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, name });
  for (let i = 1; i <= 3; i++) await mock.store.transact((tx) => tx.put('workspaces', ws(i)));
  const at = mock.store.seq;
  await mock.close();
  apps.splice(apps.indexOf(mock), 1);
  // One group straight to the adapter: the head is where it was built, so the compare-and-set statement takes it.
  const adapter = storage(schema);
  assert.is((await adapter.read())!.seq, at);
  const group = [
    {
      seq: at + 1,
      changes: [
        { collection: 'workspaces', key: ws(1).id, record: ws(1, 'one: first') },
        { collection: 'workspaces', key: ws(7).id, record: ws(7, 'new: first') },
      ],
    },
    {
      seq: at + 2,
      changes: [
        { collection: 'workspaces', key: ws(2).id, record: null },
        { collection: 'workspaces', key: ws(1).id, record: ws(1, 'one: "last"\\') },
      ],
    },
    { seq: at + 3, changes: [{ collection: 'workspaces', key: ws(7).id, record: ws(7, 'new: last') }] },
  ] as const;
  await adapter.appendChangeSets(group as never, { seq: at } as never);
  const [head] = await admin<{ seq: string }>(`SELECT seq FROM ${schema}.prm_head`);
  assert.is(Number(head.seq), at + 3);
  const stored = await storage(schema).read();
  assert.equal(stored!.state.workspaces, [ws(1, 'one: "last"\\'), ws(3), ws(7, 'new: last')]);
  // The change table holds each set as the JSON log's line, byte for byte.
  const bodies = await admin<{ body: string }>(`SELECT body FROM ${schema}.prm_changes WHERE seq > $1 ORDER BY seq`, [at]);
  assert.equal(
    bodies.map((b) => b.body),
    group.map((s) => JSON.stringify({ seq: s.seq, changes: s.changes.map((c) => [c.collection, c.key, c.record]) })),
  );
  await adapter.close();
});

test('compare-and-set append: behind or ahead of the head it stores nothing and announces nothing; at the head it appends', async () => {
  const schema = freshSchema();
  const mock = await app(schema, { fixtures: {} });
  const ws = (i: number, name = `w${i}`) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, name });
  for (let i = 1; i <= 3; i++) await mock.store.transact((tx) => tx.put('workspaces', ws(i)));
  const at = mock.store.seq;
  await mock.close();
  apps.splice(apps.indexOf(mock), 1);
  const t = tables(schema);
  const channel = `prm_changes_${t.tag}`;
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const heard: string[] = [];
  client.on('notification', (n) => heard.push(`${n.channel}:${n.payload}`));
  await client.query(`LISTEN ${channel}`);
  const snapshot = async () => ({
    head: Number((await admin<{ seq: string }>(`SELECT seq FROM ${schema}.prm_head`))[0].seq),
    changes: (await admin<{ seq: string }>(`SELECT seq FROM ${schema}.prm_changes ORDER BY seq`)).map((r) => Number(r.seq)),
    workspaces: (await storage(schema).read())!.state.workspaces,
  });
  try {
    const before = await snapshot();
    assert.is(before.head, at);
    // A group built on a state one change set behind: seq `at`, expecting the head at `at - 1`.
    const behind = [
      {
        seq: at,
        changes: [
          { collection: 'workspaces', key: ws(1).id, record: ws(1, 'lost') },
          { collection: 'workspaces', key: ws(9).id, record: ws(9) },
        ],
      },
    ];
    assert.is(await appendIfAt(client, t, channel, behind as never, at - 1), false);
    const ahead = [{ seq: at + 2, changes: [{ collection: 'workspaces', key: ws(2).id, record: null }] }];
    assert.is(await appendIfAt(client, t, channel, ahead as never, at + 1), false);
    await client.query('SELECT 1'); // anything announced has arrived by now
    assert.equal(await snapshot(), before);
    assert.equal(heard, []);
    // At the head: appended, announced once with the new seq.
    const next = [{ seq: at + 1, changes: [{ collection: 'workspaces', key: ws(1).id, record: ws(1, 'kept') }] }];
    assert.is(await appendIfAt(client, t, channel, next as never, at), true);
    await client.query('SELECT 1');
    const after = await snapshot();
    assert.is(after.head, at + 1);
    assert.equal(after.changes.slice(-2), [at, at + 1]);
    assert.equal(after.workspaces, [ws(1, 'kept'), ws(2), ws(3)]);
    assert.equal(heard, [`${channel}:${at + 1}`]);
  } finally {
    await client.end();
  }
});

test('optimistic writes: a write skips its catch-up while others are quiet, and still sees every write acknowledged before it began', async () => {
  const schema = freshSchema();
  // A does not hear others' NOTIFY (no background catch-up), so only the request path can make it current.
  const quiet = storage(schema);
  quiet.watch = () => {};
  const looks = { n: 0 };
  const since = quiet.changesSince.bind(quiet);
  quiet.changesSince = (seq) => (looks.n++, since(seq));
  const a = await createApp({ storage: quiet, fixtures: demoFixture() });
  apps.push(a);
  const b = await app(schema);
  const owner = bearer(DEMO.tokens.owner);
  const setStatus = (mock: MockApp, id: string, status: 'active' | 'archived') =>
    mock.store.transact((tx) => tx.put('projects', { ...tx.get('projects', id)!, status }));
  const budget = (mock: MockApp, id: string) => mock.store.get('budgets', id)!.limits.user_daily_usd;
  const put = (id: string, usd: number, token = operator) =>
    request(a.callback()).put(`/api/v3/projects/${id}/budget`).set(token).send({ user_daily_usd: usd });
  await setStatus(b, SALES, 'archived');
  const warm = async () => {
    for (let i = 1; i <= 20; i++) assert.is((await put(P, i).expect(200)).body.limits.user_daily_usd, i);
  };
  await warm();
  looks.n = 0;
  for (let i = 21; i <= 25; i++) assert.is((await put(P, i).expect(200)).body.limits.user_daily_usd, i);
  assert.is(looks.n, 0, 'writes went without a catch-up query');
  await b.store.sync();
  assert.is(budget(b, P), 25);

  // b un-archives SALES. a still holds it archived: its first run answers 409 without writing, the catch-up after it
  // finds b's change, and the request runs again on the current state.
  await setStatus(b, SALES, 'active');
  const revived = await put(SALES, 7, owner).expect(200);
  assert.is(revived.body.limits.user_daily_usd, 7);
  assert.is(a.store.get('projects', SALES)!.status, 'active');

  // b revokes the operator's token. a still holds it valid: its first run writes the budget on what it holds, the
  // append finds b's change first, so that write is refused (not run again on the new state, whose transaction would
  // not look at the token), and the request runs again: 401 token_invalid, the budget untouched.
  await warm();
  await b.store.transact((tx) => tx.put('access_tokens', { ...tx.get('access_tokens', DEMO.tokens.operator)!, revoked: true }));
  const refused = await put(P, 33).expect(401);
  assert.is(refused.body.detail.reason_code, 'token_invalid');
  await b.store.sync();
  assert.is(budget(b, P), 20);
  assert.is(budget(a, P), 20);
});

test('optimistic writes: a transaction run after change sets of others arrived is refused (StaleView) and nothing is stored', async () => {
  const schema = freshSchema();
  const [a, b] = [await app(schema), await app(schema)];
  for (let i = 0; i < 20; i++) await a.store.transact((tx) => tx.put('budgets', { ...tx.get('budgets', P)!, runtime_config_epoch: i }));
  const optimism = a.store.optimism();
  assert.ok(optimism, 'a has stored 20 change sets of its own since others last wrote');
  await b.store.transact((tx) => tx.put('projects', { ...tx.get('projects', SALES)!, name: 'by b' }));
  await a.store.sync();
  const seq = a.store.seq;
  const err = await a.store
    .attributeTo({ optimism }, () => a.store.transact((tx) => tx.put('budgets', { ...tx.get('budgets', P)!, runtime_config_epoch: 99 })))
    .catch((e: unknown) => e);
  assert.instance(err, StaleView);
  assert.is(a.store.seq, seq);
  assert.is(epoch(a), 19);
  assert.is(await a.store.confirm(optimism), false);
  assert.is(a.store.optimism(), null, 'others wrote: writes catch up first again');
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
