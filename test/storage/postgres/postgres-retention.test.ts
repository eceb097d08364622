// Retention of simulated history on PostgreSQL with two instances: the one that leads removes (one change set per
// slice), the other removes nothing and sees the removal; when the leader goes, the other takes the removals over.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, type MockApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { postgresStorage } from '../../../src/storage/postgres/index.js';
import type { StateData } from '../../../src/schemas/state.js';
import { DATABASE_URL, dropCreated, freshSchema, needsPostgres } from '../../helpers/postgres.js';
import { DEMO } from '../../helpers/demo.js';

type Json = Record<string, any>;
needsPostgres();
const apps: MockApp[] = [];
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function app(schema: string): Promise<MockApp> {
  const fixtures = structuredClone(demoFixture()) as Json;
  // A running clock at a simulated day per real second, 3 messages a simulated hour, 1 day of retention.
  fixtures.simulation = {
    ...fixtures.simulation,
    seed: 'pg',
    clock: 'running',
    speed: 86_400,
    retention_days: 1,
    traffic: [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 3 }],
  };
  const mock = await createApp({ storage: postgresStorage({ connectionString: DATABASE_URL, schema }), fixtures, simulation: { mode: 'auto' } });
  apps.push(mock);
  return mock;
}

/** Every approval, trace, chat update and mark points at a run that exists. */
function assertWhole(s: StateData) {
  const runs = new Set(s.runs.map((r) => r.id));
  for (const a of s.approvals) assert.ok(runs.has(a.run_id!), `approval ${a.id} of a missing run`);
  for (const t of s.traces) if (t.run_id) assert.ok(runs.has(t.run_id), `trace ${t.id} of a missing run`);
  for (const c of s.chat_updates) assert.ok(runs.has(c.run_id), `chat update ${c.key} of a missing run`);
  for (const m of s.simulated_runs) assert.ok(runs.has(m.run_id), `mark of a missing run ${m.run_id}`);
}

async function until(check: () => boolean, ms = 30_000): Promise<boolean> {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await wait(50)) if (check()) return true;
  return check();
}

test.after(async () => {
  await Promise.all(apps.splice(0).map((m) => m.close().catch(() => {})));
  await dropCreated();
});

test('two instances: the leader removes, the other removes nothing and sees the removal; the other takes over when the leader goes', async () => {
  const schema = freshSchema();
  const [a, b] = [await app(schema), await app(schema)];
  assert.ok(await until(() => a.store.leads || b.store.leads), 'no leader');
  const [leader, other] = a.store.leads ? [a, b] : [b, a];
  assert.not.ok(other.store.leads);

  // The other instance saw runs being marked (the leader's change sets), then sees some of those very runs go.
  let seen = new Map<string, string>(); // run id -> project id
  const look = () => {
    const s = other.control.exportState();
    const marked = new Set(s.simulated_runs.map((m) => m.run_id));
    seen = new Map(s.runs.filter((r) => marked.has(r.id)).map((r) => [r.id, r.project_id]));
    return seen.size >= 10;
  };
  assert.ok(await until(look), 'no simulated runs reached the other instance');
  let gone: string[] = [];
  const someGone = () => {
    const left = new Set(other.control.exportState().runs.map((r) => r.id));
    gone = [...seen.keys()].filter((id) => !left.has(id));
    return gone.length > 0;
  };
  assert.ok(await until(someGone), 'none of the runs the other instance saw went');
  await other.store.sync();
  const removed = leader.control.coverage().simulated.removed;
  assert.ok(removed.slices >= 1 && removed.runs >= gone.length, `${gone.length} of the runs the other saw are gone; the leader removed ${removed.runs}`);
  assert.is(other.control.coverage().simulated.removed.slices, 0, 'the other instance removed nothing');
  const otherState = other.control.exportState();
  assertWhole(otherState);
  // Over HTTP through the other instance, a removed run is 404 like any run that does not exist.
  const res = await other.fetch(`/api/v3/projects/${seen.get(gone[0])}/runs/${gone[0]}`, { headers: { authorization: `Bearer ${DEMO.tokens.owner}` } });
  assert.equal([res.status, ((await res.json()) as Json).detail.reason_code], [404, 'run_not_found']);

  // The leader goes (a closing instance stops a sped-up clock where it stands): the other leads, its clock runs again,
  // and it removes from the marks it adopted.
  await leader.close();
  assert.ok(await until(() => other.store.leads), 'the other did not take over');
  assert.is((await other.control.setSimulation({ clock: 'running' })).clock, 'running');
  assert.ok(await until(() => other.control.coverage().simulated.removed.slices >= 1), 'the new leader removed nothing');
  await other.store.sync();
  assertWhole(other.control.exportState());
});

test.run();
