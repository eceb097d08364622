// The catch-up connection: an instance's looks at the database go on one connection of its own, and a read still sees
// every write acknowledged by another instance before it arrived, also while an earlier look is on its way on it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, type MockApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { postgresStorage } from '../../../src/storage/postgres/index.js';
import { freshSchema, needsPostgres, proxy, type Proxy } from '../../helpers/postgres.js';
import { postgresApps } from '../../helpers/postgres-apps.js';
import { DEMO, bearer } from '../../helpers/demo.js';

needsPostgres();
const RUN = DEMO.runs.waitingApproval;
const RUN_PATH = `/api/v3/projects/${DEMO.projects.support}/runs/${RUN}`;
const owner = bearer(DEMO.tokens.owner);
const { app, apps } = postgresApps(test);
const gates: Proxy[] = [];
test.after(async () => {
  await Promise.all(apps.splice(0).map((m) => m.close().catch(() => {})));
  await Promise.all(gates.splice(0).map((g) => g.close()));
});

/** An instance behind `gate` that hears nothing of the others (no LISTEN): only its own looks bring it their writes. */
async function deaf(schema: string, gate: Proxy): Promise<MockApp> {
  const adapter = postgresStorage({ connectionString: gate.url, schema });
  adapter.watch = () => {};
  const mock = await createApp({ storage: adapter, fixtures: demoFixture(), clock: () => Date.parse(DEMO.now) });
  apps.push(mock);
  return mock;
}

/** A writer A, and an instance B that reads through `gate` (held and cut by the test). */
async function pair(): Promise<{ a: MockApp; b: MockApp; gate: Proxy }> {
  const schema = freshSchema();
  const a = await app(schema, { clock: () => Date.parse(DEMO.now) });
  const gate = await proxy();
  gates.push(gate);
  return { a, b: await deaf(schema, gate), gate };
}

const read = async (mock: MockApp) =>
  (await (await mock.fetch(new Request(`http://mock${RUN_PATH}`, { headers: owner }))).json()) as { status: string; cost_usd: number };

test('reads wait for looks on one connection of their own; a read that arrived after a write was acknowledged sees it while an earlier look is held', async () => {
  const { a, b, gate } = await pair();
  const first = await read(b); // the catch-up connection is open now
  assert.is(first.status, 'waiting_approval');
  const opened = gate.opened();
  let last = first.cost_usd;
  for (let i = 1; i <= 3; i++) {
    // B's look for `early` reaches the server, but its answer is held: a look on its way.
    gate.hold();
    const early = read(b);
    await new Promise((r) => setTimeout(r, 30));
    // A stores a write and acknowledges it; then `late` arrives at B.
    await a.store.transact((tx) => void tx.put('runs', { ...tx.get('runs', RUN)!, cost_usd: i }));
    const late = read(b);
    await new Promise((r) => setTimeout(r, 30));
    gate.release();
    const [before, after] = await Promise.all([early, late]);
    assert.ok(before.cost_usd === last || before.cost_usd === i, `the held read: ${before.cost_usd}`);
    assert.is(after.cost_usd, i, 'the read that arrived after the acknowledgement sees the write');
    last = i;
  }
  // Writes acknowledged one after another, each read back through B at once.
  for (let i = 4; i <= 13; i++) {
    await a.store.transact((tx) => void tx.put('runs', { ...tx.get('runs', RUN)!, cost_usd: i }));
    assert.is((await read(b)).cost_usd, i);
  }
  assert.is(gate.opened(), opened, 'no connection opened for the looks (no pool checkout, no new session)');
});

test('a catch-up connection that breaks is dropped: the reads waiting on it answer 503, and the next read connects again', async () => {
  const { a, b, gate } = await pair();
  assert.is((await read(b)).status, 'waiting_approval');
  gate.hold();
  const waiting = b.fetch(new Request(`http://mock${RUN_PATH}`, { headers: owner }));
  await new Promise((r) => setTimeout(r, 30));
  await gate.cut();
  assert.is((await waiting).status, 503);
  await gate.restore();
  gate.release();
  await a.store.transact((tx) => void tx.put('runs', { ...tx.get('runs', RUN)!, cost_usd: 7 }));
  assert.equal(await read(b), { ...(await read(a)), cost_usd: 7 });
});

test.run();
