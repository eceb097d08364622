// The simulation's writes read what they depend on in their own transaction, on every storage: a step and a run pick
// each event in the write that executes it (an event another write took away after the request began, as another
// instance executing it does, is neither executed again nor answered; the clock moves to the event the write did
// execute), and the settings and behaviours check the references they name in their write.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, type TestMock } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { STORAGES, removeDirs } from '../helpers/storages.js';
import { DATABASE_URL, dropCreated } from '../helpers/postgres.js';
import { clockMove } from '../../src/domain/clock.js';
import type { MockApp } from '../../src/app.js';
import type { Transaction } from '../../src/storage/index.js';

const T0 = Date.parse(DEMO.now);
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** The demo's first midnight after its clock: each project's budget day rolls over then. */
const MIDNIGHT = iso(T0 + 12 * HOUR);
test.after(async () => {
  removeDirs();
  if (DATABASE_URL) await dropCreated();
});

type Store = Record<'apply' | 'transact', (fn: (tx: Transaction) => unknown) => unknown>;

/**
 * The store's write after the next `skip` (applied or awaited) is preceded by `other`, applied at once: what another
 * instance storing its own write between this request's start and that write amounts to here.
 */
function writePrecededBy(mock: MockApp, skip: number, other: (tx: Transaction) => void): () => boolean {
  const store = mock.store as unknown as Store;
  const own = { apply: store.apply.bind(mock.store), transact: store.transact.bind(mock.store) };
  let ran = false;
  for (const name of ['apply', 'transact'] as const) {
    store[name] = (fn) => {
      if (skip-- > 0) return own[name](fn);
      store.apply = own.apply;
      store.transact = own.transact;
      ran = true;
      own.apply(other);
      return own[name](fn);
    };
  }
  return () => ran;
}

/** Takes away the pending events `pick` chooses (as another instance executing them would) and moves the clock to `at`. */
const takeAway = (pick: (e: { kind: string; at: string }) => boolean, at: string) => (tx: Transaction) => {
  for (const e of tx.filter('simulation_events', pick)) tx.delete('simulation_events', e.key);
  clockMove((c) => c.frozenAt(at))(tx);
};

const withoutElapsed = (body: Record<string, unknown>) => {
  const { elapsed_ms: _, ...rest } = body;
  return rest;
};

for (const storage of STORAGES) {
  /** A demo mock in step mode: budget roll-overs at midnight, then the jobs' firings. */
  async function stepMode(): Promise<TestMock> {
    const m = await freshMock({ storage: storage.make(), seed: 7 });
    await m.http.put('/_mock/simulation').send({ mode: 'step' }).expect(200);
    return m;
  }

  test(`${storage.name}: a step whose next event was taken away before its write executes and answers the one after, at that one's time`, async () => {
    const { mock, http } = await stepMode();
    const before = mock.control.simulation().pending;
    const rollovers = before.filter((e) => e.kind === 'budget.rollover' && e.at === MIDNIGHT);
    assert.is(rollovers.length, 3);
    const after = before.find((e) => e.at > MIDNIGHT)!;
    assert.is(after.kind, 'job.fire');
    const ran = writePrecededBy(
      mock,
      0,
      takeAway((e) => e.kind === 'budget.rollover' && e.at === MIDNIGHT, MIDNIGHT),
    );
    const res = await http.post('/_mock/simulation/step').send({});
    assert.ok(ran());
    assert.is(res.status, 200, JSON.stringify(res.body));
    // The write picked the job's firing (due after midnight) and moved the clock to its time.
    assert.equal(res.body, { executed: after, now: after.at, pending_count: mock.control.simulation().pending_count });
    await mock.store.flush();
    assert.equal(mock.store.clock, { frozen_at: after.at, offset_ms: 0 });
    assert.not.ok(
      mock.control.simulation().pending.some((e) => e.kind === 'budget.rollover' && e.at === MIDNIGHT),
      'a roll-over taken away is not executed again (it would schedule the next one)',
    );
    await mock.close();
  });

  test(`${storage.name}: a run whose first event was taken away before its write executes only what is left, and answers that`, async () => {
    const { mock, http } = await stepMode();
    const until = iso(T0 + 18 * HOUR + 30 * 60_000);
    const before = mock.control.simulation().pending;
    const due = before.filter((e) => e.at <= until);
    assert.equal(
      due.map((e) => e.kind),
      ['budget.rollover', 'budget.rollover', 'budget.rollover', 'job.fire'],
    );
    // The first event's write finds the first roll-over gone: it executes the second instead, and no write executes the first.
    const first = due[0];
    // The run's first write checks `until` against the clock; the next one executes the first event.
    const ran = writePrecededBy(
      mock,
      1,
      takeAway((e) => e.kind === first.kind && e.at === first.at && (e as { project_id?: string }).project_id === first.project_id, MIDNIGHT),
    );
    const res = await http.post('/_mock/simulation/run').send({ until });
    assert.ok(ran());
    assert.is(res.status, 200, JSON.stringify(res.body));
    // The same run on a mock where nothing was taken away: one roll-over more, and the rest alike.
    const baseline = await stepMode();
    const all = await baseline.http.post('/_mock/simulation/run').send({ until }).expect(200);
    const rollovers = all.body.by_kind['budget.rollover'] as number;
    assert.is(rollovers, 3);
    assert.equal(withoutElapsed(res.body), {
      executed: all.body.executed - 1,
      by_kind: { ...all.body.by_kind, 'budget.rollover': rollovers - 1 },
      from: MIDNIGHT,
      now: until,
      pending_count: mock.control.simulation().pending_count,
    });
    await baseline.mock.close();
    await mock.close();
  });
  test(`${storage.name}: settings and behaviours whose references went after the request began are a 422 that stores nothing`, async () => {
    const { mock, http } = await stepMode();
    const before = mock.control.simulation();
    writePrecededBy(mock, 0, (tx) => tx.delete('connections', DEMO.connections.chatBinding));
    const traffic = await http.put('/_mock/simulation').send({ traffic: [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 6 }] });
    assert.is(traffic.status, 422, JSON.stringify(traffic.body));
    assert.equal(
      traffic.body.detail.map((d: { loc: unknown; msg: string }) => [d.loc, d.msg]),
      [[['body', 'traffic', 0, 'binding_id'], 'Value error, unknown connection binding']],
    );
    const P = DEMO.projects.support;
    writePrecededBy(mock, 0, (tx) => tx.delete('projects', P));
    const behaviours = await http.put('/_mock/simulation/behaviours').send({ default: {}, projects: [{ project_id: P }] });
    assert.is(behaviours.status, 422, JSON.stringify(behaviours.body));
    assert.equal(behaviours.body.detail[0].loc, ['body', 'projects', 0, 'project_id']);
    await mock.store.flush();
    assert.equal(mock.control.simulation(), before);
    await mock.close();
  });
}

test.run();
