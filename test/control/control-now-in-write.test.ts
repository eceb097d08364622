// Reset, snapshot restore and clock moves answer the mock clock as their own write left it: a write that lands between theirs
// and the answer (another request, another instance) does not leak into it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { clockMove } from '../../src/domain/clock.js';
import { nextWriteMovedAfter } from '../helpers/clock-races.js';
import type { MockApp } from '../../src/app.js';

const T0 = Date.parse(DEMO.now);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/** Makes `method` of the mock's store move the clock a day on right after its own write is stored, before anyone answers. */
function movedRightAfter(mock: MockApp, method: 'replace' | 'restore') {
  const store = mock.store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const own = store[method].bind(mock.store);
  store[method] = async (...args) => {
    const read = await own(...args);
    await mock.store.transact(clockMove((c) => c.advanced(DAY)));
    return read;
  };
}

test("reset answers the fixtures' clock as its write put it back, not the clock moved after it", async () => {
  const { mock, http } = await freshMock();
  await http.post('/_mock/clock').send({ advance_ms: HOUR }).expect(200);
  movedRightAfter(mock, 'replace');
  const res = await http.post('/_mock/reset');
  assert.is(res.status, 200);
  assert.equal(res.body, { reset: true, now: DEMO.now });
  // The later move did happen: read after the reset, the clock is a day on.
  assert.equal(mock.store.clock, { frozen_at: iso(T0 + DAY), offset_ms: 0 });
  // In process, the same reading.
  assert.is(await mock.control.reset(), DEMO.now);
  assert.equal(mock.store.clock, { frozen_at: iso(T0 + DAY), offset_ms: 0 });
});

test("a snapshot restore answers the snapshot's clock as its write put it back, not the clock moved after it", async () => {
  const { mock, http } = await freshMock();
  await http.post('/_mock/clock').send({ advance_ms: HOUR }).expect(200);
  const saved = await http.post('/_mock/snapshots').send({ name: 's' });
  assert.is(saved.status, 201, JSON.stringify(saved.body));
  await http.post('/_mock/clock').send({ advance_ms: HOUR }).expect(200);
  movedRightAfter(mock, 'restore');
  const res = await http.post('/_mock/snapshots/s/restore');
  assert.is(res.status, 200);
  assert.equal(res.body, { restored: true, snapshot: saved.body, now: iso(T0 + HOUR) });
  assert.equal(mock.store.clock, { frozen_at: iso(T0 + HOUR + DAY), offset_ms: 0 });
  // The in-process restore of a held snapshot resolves the same reading.
  assert.is(await mock.control.restore(mock.control.namedState('s')), iso(T0 + HOUR));
});

test('a missing snapshot is a 404 and changes nothing, the clock included', async () => {
  const { mock, http } = await freshMock();
  const before = JSON.stringify(mock.store.toData());
  const res = await http.post('/_mock/snapshots/nope/restore');
  assert.is(res.status, 404);
  assert.equal(res.body, { detail: { reason_code: 'snapshot_not_found', message: 'No snapshot of that name.', affected_resource: 'snapshot:nope' } });
  assert.is(JSON.stringify(mock.store.toData()), before);
});

test('POST /_mock/clock and mock.control.advanceClock answer the clock as their move left it, not the clock moved after it', async () => {
  const { mock, http } = await freshMock();
  nextWriteMovedAfter(mock, DAY);
  const res = await http.post('/_mock/clock').send({ advance_ms: HOUR });
  assert.is(res.status, 200);
  assert.equal(res.body, { now: iso(T0 + HOUR), frozen_at: iso(T0 + HOUR), offset_ms: 0 });
  assert.equal(mock.store.clock, { frozen_at: iso(T0 + HOUR + DAY), offset_ms: 0 });
  nextWriteMovedAfter(mock, DAY);
  assert.is(await mock.control.advanceClock(HOUR), iso(T0 + 2 * HOUR + DAY));
  assert.equal(mock.store.clock, { frozen_at: iso(T0 + 2 * HOUR + 2 * DAY), offset_ms: 0 });
  nextWriteMovedAfter(mock, DAY);
  assert.is(await mock.control.setClock(iso(T0)), iso(T0));
  assert.equal(mock.store.clock, { frozen_at: iso(T0 + DAY), offset_ms: 0 });
});

test.run();
