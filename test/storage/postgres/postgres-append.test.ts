// PostgreSQL storage's writes: the one-statement append, compare-and-set at the head, and optimistic writes that skip
// their catch-up while others are quiet but are refused (StaleView) once others wrote.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import request from 'supertest';
import { createApp, type MockApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { StaleView } from '../../../src/storage/store.js';
import pg from 'pg';
import { appendIfAt } from '../../../src/storage/postgres/append.js';
import { tables } from '../../../src/storage/postgres/schema.js';
import { DATABASE_URL, admin, freshSchema, needsPostgres } from '../../helpers/postgres.js';
import { DEMO, bearer } from '../../helpers/demo.js';
import { postgresApps } from '../../helpers/postgres-apps.js';

needsPostgres();
const P = DEMO.projects.support;
const SALES = DEMO.projects.sales;
const operator = bearer(DEMO.tokens.operator);
const { storage, app, apps } = postgresApps(test);
const epoch = (mock: MockApp) => mock.store.get('budgets', P)!.runtime_config_epoch;

/** Workspace `i` (a fixed id), named `name`. */
const ws = (i: number, name = `w${i}`) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, name });

/** A fresh schema holding workspaces 1 to 3, written by a mock that is closed again: `at` is the head it left. */
async function threeWorkspaces(): Promise<{ schema: string; at: number }> {
  const schema = freshSchema();
  const mock = await app(schema, { fixtures: {} });
  for (let i = 1; i <= 3; i++) await mock.store.transact((tx) => tx.put('workspaces', ws(i)));
  const at = mock.store.seq;
  await mock.close();
  apps.splice(apps.indexOf(mock), 1);
  return { schema, at };
}

test('append in one statement: a record written twice keeps its first place and its last value; deletes and new records land as in the store', async () => {
  const { schema, at } = await threeWorkspaces();
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
  const { schema, at } = await threeWorkspaces();
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

test.run();
