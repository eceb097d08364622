// The simulation's writes read the mock clock in their own transactions, on every storage: a clock move that lands
// after a run began and before its clock write is the clock that write moves from, and PUT /_mock/simulation answers
// the clock as its write left it. A named snapshot's time is the clock of the state it holds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, type TestMock } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { STORAGES, removeDirs } from '../helpers/storages.js';
import { DATABASE_URL, dropCreated } from '../helpers/postgres.js';
import { clockMove } from '../../src/domain/clock.js';
import { nextWriteMovedAfter } from '../helpers/clock-races.js';
import type { MockApp } from '../../src/app.js';

const T0 = Date.parse(DEMO.now);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
test.after(async () => {
  removeDirs();
  if (DATABASE_URL) await dropCreated();
});

/**
 * Once the run has begun (its rollback point is taken, before any of its writes), another write moves the clock by
 * `ms`: applied at once, stored with the run's own writes.
 */
function movedOnceBegun(mock: MockApp, ms: number) {
  const store = mock.store as unknown as { snapshot: () => unknown };
  const own = store.snapshot.bind(mock.store);
  store.snapshot = () => {
    store.snapshot = own;
    const point = own();
    mock.store.apply(clockMove((c) => c.advanced(ms)));
    return point;
  };
}

const withoutElapsed = (body: Record<string, unknown>) => {
  assert.type(body.elapsed_ms, 'number');
  const { elapsed_ms: _, ...rest } = body;
  return rest;
};

for (const storage of STORAGES) {
  const fresh = (): Promise<TestMock> => freshMock({ storage: storage.make() });

  test(`${storage.name}: run {idle} moves from the clock its write reads: a move back after it began is kept, not undone`, async () => {
    const { mock, http } = await fresh();
    const pending = mock.control.simulation().pending_count;
    movedOnceBegun(mock, -DAY);
    const res = await http.post('/_mock/simulation/run').send({ idle: true });
    assert.is(res.status, 200, JSON.stringify(res.body));
    // Nothing ran: the clock stays where the other write put it, and the run answers it as both ends.
    assert.equal(withoutElapsed(res.body), { executed: 0, by_kind: {}, from: iso(T0 - DAY), now: iso(T0 - DAY), pending_count: pending });
    await mock.store.flush();
    assert.equal(mock.store.clock, { frozen_at: iso(T0 - DAY), offset_ms: 0 });
    await mock.close();
  });

  test(`${storage.name}: run {until} after a move past until landed: it keeps the moved clock and answers it as from and now`, async () => {
    const { mock, http } = await fresh();
    movedOnceBegun(mock, DAY);
    const res = await http.post('/_mock/simulation/run').send({ until: iso(T0 + HOUR) });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal(withoutElapsed(res.body), {
      executed: 0,
      by_kind: {},
      from: iso(T0 + DAY),
      now: iso(T0 + DAY),
      pending_count: mock.control.simulation().pending_count,
    });
    await mock.store.flush();
    assert.equal(mock.store.clock, { frozen_at: iso(T0 + DAY), offset_ms: 0 });
    // Before the clock it is a 422 that changes nothing, checked in a transaction of its own.
    const before = JSON.stringify(mock.store.toData());
    const late = await http.post('/_mock/simulation/run').send({ until: iso(T0 + HOUR) });
    assert.is(late.status, 422);
    assert.equal(late.body.detail[0].loc, ['body', 'until']);
    assert.is(late.body.detail[0].msg, `Value error, until is before the mock clock (${iso(T0 + DAY)})`);
    assert.is(JSON.stringify(mock.store.toData()), before);
    await mock.close();
  });

  test(`${storage.name}: PUT /_mock/simulation answers the clock as its write left it, not the clock moved after it`, async () => {
    // Real time stands still, so a running clock reads the same instant until a write moves it.
    const { mock, http } = await freshMock({ storage: storage.make(), clock: () => Date.parse('2026-03-01T00:00:00.000Z') });
    nextWriteMovedAfter(mock, DAY);
    const res = await http.put('/_mock/simulation').send({ speed: 2 });
    assert.is(res.status, 200, JSON.stringify(res.body));
    await mock.store.flush();
    assert.equal(mock.store.clock, { frozen_at: iso(T0 + DAY), offset_ms: 0, rate: 2 });
    // Everything else as a read gives it; the clock as the write left it (frozen at the start, at rate 2).
    assert.equal(res.body, { ...mock.control.simulation(), now: iso(T0), speed: 2, clock: 'frozen' });
    nextWriteMovedAfter(mock, DAY);
    const running = await mock.control.setSimulation({ clock: 'running' });
    assert.equal([running.now, running.clock, running.speed], [iso(T0 + DAY), 'running', 2]);
    await mock.close();
  });

  test(`${storage.name}: a named snapshot is saved at the time its own clock reads, running or frozen`, async () => {
    let real = Date.parse('2026-03-01T00:00:00.000Z');
    const { mock, http } = await freshMock({ storage: storage.make(), clock: () => real });
    await mock.control.setSimulation({ clock: 'running' });
    real += 5_000;
    const saved = await http.post('/_mock/snapshots').send({ name: 'running' });
    assert.is(saved.status, 201, JSON.stringify(saved.body));
    const s = mock.control.namedState('running');
    assert.is(s.clock.frozen_at, null);
    assert.is(saved.body.created_at, iso(real + s.clock.offset_ms));
    assert.is(saved.body.created_at, iso(T0 + 5_000));
    await mock.control.setSimulation({ clock: 'frozen' });
    assert.is(mock.control.saveSnapshot('frozen').created_at, mock.store.clock.frozen_at);
    await mock.close();
  });
}

test.run();
