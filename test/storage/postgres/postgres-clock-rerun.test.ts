// Two instances on one PostgreSQL schema: control writes and simulation writes (a run, a step, the settings) that conflict with
// another instance's write (made between their read and their commit) run again, and store what the moved clock and state say.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import request from 'supertest';
import type { MockApp } from '../../../src/app.js';
import type { ChangeSet, StorageAdapter } from '../../../src/storage/index.js';
import { freshSchema, needsPostgres } from '../../helpers/postgres.js';
import { DEMO } from '../../helpers/demo.js';
import { postgresApps } from '../../helpers/postgres-apps.js';

needsPostgres();
const P = DEMO.projects.support;
const T0 = Date.parse(DEMO.now);
const HOUR = 3_600_000;
const { storage, app } = postgresApps(test);

/** A's storage, which runs `before` once, ahead of the next group holding a change set that `when` picks. */
function interposed(schema: string) {
  const inner = storage(schema);
  let armed: { when: (set: ChangeSet) => boolean; before: () => Promise<void>; ran: boolean } | null = null;
  const adapter = new Proxy(inner, {
    get(target, key) {
      if (key === 'appendChangeSets') {
        return async (group: readonly ChangeSet[], ...rest: unknown[]) => {
          const a = armed;
          if (a && !a.ran && group.some(a.when)) {
            a.ran = true;
            await a.before();
          }
          return (target.appendChangeSets as (...args: unknown[]) => Promise<void>)(group, ...rest);
        };
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  }) as StorageAdapter;
  return {
    adapter,
    /** Arms the hook; answers whether it ran. */
    arm(when: (set: ChangeSet) => boolean, before: () => Promise<void>) {
      armed = { when, before, ran: false };
      return () => armed!.ran;
    },
  };
}

async function twoInstances() {
  const schema = freshSchema();
  const b = await app(schema);
  const aStorage = interposed(schema);
  const a = await app(schema, { storage: aStorage.adapter });
  return { a, b, arm: aStorage.arm };
}

/** Another instance moves the clock an hour on (its own write, acknowledged before A's group is stored). */
const advanceOn = (mock: MockApp, ms: number) => async () => {
  const moved = await request(mock.callback()).post('/_mock/clock').send({ advance_ms: ms });
  assert.is(moved.status, 200, JSON.stringify(moved.body));
};
const clockOf = async (mock: MockApp) => (await request(mock.callback()).get('/_mock/state').expect(200)).body.clock;
const iso = (ms: number) => new Date(ms).toISOString();

test('a clock move on A that conflicts with B moving the clock runs again and moves on from B: no move is lost', async () => {
  const { a, b, arm } = await twoInstances();
  assert.equal(await clockOf(a), { frozen_at: DEMO.now, offset_ms: 0 });
  const ran = arm((set) => set.clock !== undefined, advanceOn(b, HOUR));
  const moved = await request(a.callback()).post('/_mock/clock').send({ advance_ms: 60_000 });
  assert.is(moved.status, 200, JSON.stringify(moved.body));
  assert.ok(ran(), 'B moved the clock between A reading it and storing its move');
  const both = { frozen_at: iso(T0 + HOUR + 60_000), offset_ms: 0 };
  // The answer is the clock as the rerun write left it.
  assert.equal(moved.body, { now: iso(T0 + HOUR + 60_000), ...both });
  assert.equal(await clockOf(a), both);
  assert.equal(await clockOf(b), both);
});

test('a control write that stamps time, run again after B moved the clock, stores the moved time', async () => {
  const { a, b, arm } = await twoInstances();
  const ran = arm((set) => set.changes.some((c) => c.collection === 'runs'), advanceOn(b, HOUR));
  const made = await request(a.callback()).post(`/_mock/projects/${P}/runs`).send({});
  assert.is(made.status, 200, JSON.stringify(made.body));
  assert.ok(ran(), 'B moved the clock between A reading it and storing the run');
  const stamped = iso(T0 + HOUR);
  assert.is(made.body.created_at, stamped);
  for (const mock of [a, b]) {
    await mock.store.sync();
    assert.is(mock.store.get('runs', made.body.id)!.created_at, stamped);
  }
});

test('a simulation write, run again after B moved the clock past its target, keeps the moved clock (never moves it back)', async () => {
  const { a, b, arm } = await twoInstances();
  const until = iso(T0 + 10 * 60_000);
  const ran = arm((set) => set.clock !== undefined, advanceOn(b, HOUR));
  const run = await request(a.callback()).post('/_mock/simulation/run').send({ until });
  assert.is(run.status, 200, JSON.stringify(run.body));
  assert.ok(ran(), 'B moved the clock between A reading it and storing the move to `until`');
  // Both ends are the clock as the rerun write found and left it: B's moved clock.
  assert.equal([run.body.from, run.body.now], [iso(T0 + HOUR), iso(T0 + HOUR)]);
  const moved = { frozen_at: iso(T0 + HOUR), offset_ms: 0 };
  assert.equal(await clockOf(a), moved);
  assert.equal(await clockOf(b), moved);
});

test("the simulation's settings write, run again after B moved the clock, sets the rate on the moved clock and answers it", async () => {
  const { a, b, arm } = await twoInstances();
  const ran = arm((set) => set.clock !== undefined, advanceOn(b, HOUR));
  const put = await request(a.callback()).put('/_mock/simulation').send({ speed: 2, mode: 'step' });
  assert.is(put.status, 200, JSON.stringify(put.body));
  assert.ok(ran(), 'B moved the clock between A reading it and storing the new rate');
  const moved = { frozen_at: iso(T0 + HOUR), offset_ms: 0, rate: 2 };
  assert.equal(await clockOf(a), moved);
  assert.equal(await clockOf(b), moved);
  // The answer is the clock as the rerun write left it, and the rest as B reads it now.
  await b.store.sync();
  const read = await request(b.callback()).get('/_mock/simulation').expect(200);
  assert.equal(put.body, read.body);
  assert.equal([put.body.now, put.body.speed, put.body.mode, put.body.clock], [iso(T0 + HOUR), 2, 'step', 'frozen']);
});

test('without a conflict the same writes read the clock as it stands (the baseline the reruns differ from)', async () => {
  const { a, b } = await twoInstances();
  const moved = await request(a.callback()).post('/_mock/clock').send({ advance_ms: 60_000 }).expect(200);
  assert.equal(moved.body, { now: iso(T0 + 60_000), frozen_at: iso(T0 + 60_000), offset_ms: 0 });
  const made = await request(a.callback()).post(`/_mock/projects/${P}/runs`).send({}).expect(200);
  assert.is(made.body.created_at, iso(T0 + 60_000));
  const run = await request(a.callback())
    .post('/_mock/simulation/run')
    .send({ until: iso(T0 + 10 * 60_000) });
  assert.is(run.status, 200, JSON.stringify(run.body));
  assert.is(run.body.now, iso(T0 + 10 * 60_000));
  assert.equal(await clockOf(b), { frozen_at: iso(T0 + 10 * 60_000), offset_ms: 0 });
});

/** Another instance runs the simulation up to `until` (executing what is due), acknowledged before A's group is stored. */
const runOn = (mock: MockApp, until: string) => async () => {
  const ran = await request(mock.callback()).post('/_mock/simulation/run').send({ until });
  assert.is(ran.status, 200, JSON.stringify(ran.body));
};
/** The demo's first midnight after its clock: each project's budget day rolls over then (three events). */
const MIDNIGHT = iso(T0 + 12 * HOUR);
const pendingOf = async (mock: MockApp) => (await request(mock.callback()).get('/_mock/simulation').expect(200)).body.pending as { at: string; kind: string }[];

async function inStepMode() {
  const two = await twoInstances();
  await request(two.a.callback()).put('/_mock/simulation').send({ mode: 'step' }).expect(200);
  await two.b.store.sync();
  return two;
}

test("a step, run again after B executed the events it was to execute, executes and answers the next one as it then reads, at that one's time", async () => {
  const { a, b, arm } = await inStepMode();
  const pending = await pendingOf(a);
  assert.equal(
    pending.filter((e) => e.at <= MIDNIGHT).map((e) => e.kind),
    ['budget.rollover', 'budget.rollover', 'budget.rollover'],
  );
  const after = pending.find((e) => e.at > MIDNIGHT)!;
  const ran = arm((set) => set.clock !== undefined, runOn(b, MIDNIGHT));
  const step = await request(a.callback()).post('/_mock/simulation/step').send({});
  assert.is(step.status, 200, JSON.stringify(step.body));
  assert.ok(ran(), 'B executed the roll-overs between A picking one and storing its step');
  assert.equal([step.body.executed, step.body.now], [after, after.at]);
  const moved = { frozen_at: after.at, offset_ms: 0 };
  assert.equal(await clockOf(a), moved);
  assert.equal(await clockOf(b), moved);
  await b.store.sync();
  assert.equal(await pendingOf(b), await pendingOf(a));
  assert.not.ok(
    (await pendingOf(b)).some((e) => e.at === after.at && e.kind === after.kind),
    'the job fired once',
  );
});

test('a run, run again after B executed some of its events, executes only what B left and answers that, from the clock B left', async () => {
  const { a, b, arm } = await inStepMode();
  const until = iso(T0 + 18 * HOUR + 30 * 60_000);
  const ran = arm((set) => set.changes.some((c) => c.collection === 'simulation_events'), runOn(b, MIDNIGHT));
  const run = await request(a.callback()).post('/_mock/simulation/run').send({ until });
  assert.is(run.status, 200, JSON.stringify(run.body));
  assert.ok(ran(), 'B executed the roll-overs between A picking the first one and storing it');
  // The roll-overs were B's: A's writes, run again, executed the job's firing and what followed from it, once each.
  const byKind = run.body.by_kind as Record<string, number>;
  assert.is(byKind['budget.rollover'], undefined);
  assert.is(byKind['job.fire'], 1);
  assert.is(
    run.body.executed,
    Object.values(byKind).reduce((n, k) => n + k, 0),
  );
  assert.equal([run.body.from, run.body.now], [MIDNIGHT, until]);
  assert.equal(await clockOf(b), { frozen_at: until, offset_ms: 0 });
  await b.store.sync();
  assert.equal(await pendingOf(b), await pendingOf(a));
  assert.ok((await pendingOf(a)).every((e) => e.at > until));
});

test('a run, run again after B wrote something else, executes every event it picked the first time (none is lost to the rerun)', async () => {
  const { a, b, arm } = await inStepMode();
  const until = iso(T0 + 18 * HOUR + 30 * 60_000);
  const other = async () => void (await request(b.callback()).post(`/_mock/projects/${P}/runs`).send({}).expect(200));
  const ran = arm((set) => set.changes.some((c) => c.collection === 'simulation_events'), other);
  const run = await request(a.callback()).post('/_mock/simulation/run').send({ until });
  assert.is(run.status, 200, JSON.stringify(run.body));
  assert.ok(ran(), "B's write landed between A picking the first event and storing it");
  const byKind = run.body.by_kind as Record<string, number>;
  assert.equal([byKind['budget.rollover'], byKind['job.fire']], [3, 1]);
  assert.is(
    run.body.executed,
    Object.values(byKind).reduce((n, k) => n + k, 0),
  );
  assert.equal([run.body.from, run.body.now], [DEMO.now, until]);
  await b.store.sync();
  assert.equal(await pendingOf(b), await pendingOf(a));
  assert.ok((await pendingOf(a)).every((e) => e.at > until));
});

test('a run, run again after B added a traffic source, goes on in rounds until nothing is due by until (nothing B added is left)', async () => {
  const { a, b, arm } = await inStepMode();
  const until = iso(T0 + 18 * HOUR + 30 * 60_000);
  // Each message schedules the next, so B's source adds far more events due by `until` than A's writes picked.
  const traffic = [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 2 }];
  const addTraffic = async () => void (await request(b.callback()).put('/_mock/simulation').send({ traffic }).expect(200));
  const ran = arm((set) => set.changes.some((c) => c.collection === 'simulation_events'), addTraffic);
  const run = await request(a.callback()).post('/_mock/simulation/run').send({ until });
  assert.is(run.status, 200, JSON.stringify(run.body));
  assert.ok(ran(), "B's source landed between A picking the first event and storing it");
  const byKind = run.body.by_kind as Record<string, number>;
  assert.equal([byKind['budget.rollover'], byKind['job.fire']], [3, 1]);
  assert.ok(byKind['traffic.message']! > 1, JSON.stringify(byKind));
  assert.is(
    run.body.executed,
    Object.values(byKind).reduce((n, k) => n + k, 0),
  );
  assert.equal([run.body.from, run.body.now], [DEMO.now, until]);
  await b.store.sync();
  const left = await pendingOf(a);
  assert.equal(await pendingOf(b), left);
  assert.equal(
    left.filter((e) => e.at <= until),
    [],
  );
  assert.ok(
    left.some((e) => e.kind === 'traffic.message'),
    "the source's next message waits past until",
  );
});

test('a clock move in step mode, run again after B switched the mode to auto, moves the clock and executes what falls due by it', async () => {
  const { a, b, arm } = await inStepMode();
  const due = (await pendingOf(a)).filter((e) => e.at <= MIDNIGHT);
  assert.equal(
    due.map((e) => e.kind),
    ['budget.rollover', 'budget.rollover', 'budget.rollover'],
  );
  const auto = async () => void (await request(b.callback()).put('/_mock/simulation').send({ mode: 'auto' }).expect(200));
  const ran = arm((set) => set.clock !== undefined, auto);
  const moved = await request(a.callback())
    .post('/_mock/clock')
    .send({ advance_ms: 12 * HOUR });
  assert.is(moved.status, 200, JSON.stringify(moved.body));
  assert.ok(ran(), "B's switch landed between A reading step mode and storing the move");
  assert.is(moved.body.now, MIDNIGHT);
  await b.store.sync();
  assert.equal(await clockOf(b), await clockOf(a));
  assert.equal(await pendingOf(b), await pendingOf(a));
  assert.ok(
    (await pendingOf(a)).every((e) => e.at > MIDNIGHT),
    'the roll-overs due by the moved clock ran',
  );
});

test.run();
