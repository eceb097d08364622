// A rate limit's window, as a snapshot and a bundle keep it, holds the mock-clock times of the requests let through that are still within per_ms (older ones leave it together, however many), and a snapshot is a copy the traffic after it does not change.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clocked, RUN } from '../../helpers/clocked-mock.js';

async function windowed() {
  const m = await clocked();
  const windowOf = async () => (await m.http.get('/_mock/bundle')).body.faults.faults[0].window as number[];
  return { ...m, get: async () => (await m.get()).status, windowOf };
}

test('rate window: the times that left the window leave it all at once; the bundle keeps only those within per_ms', async () => {
  const m = await windowed();
  await m.http
    .post('/_mock/faults')
    .send({ method: 'GET', path: RUN, rate_limit: { requests: 3, per_ms: 1000 } })
    .expect(200);
  for (const t of [0, 1, 2]) {
    await m.at(t);
    assert.is(await m.get(), 200);
  }
  assert.equal(await m.windowOf(), [m.start, m.start + 1, m.start + 2]);
  // At 5,000 all three are past the window: the request is let through, and it alone is in the window.
  await m.at(5000);
  assert.is(await m.get(), 200);
  assert.equal(await m.windowOf(), [m.start + 5000]);
  await m.at(5001);
  assert.equal([await m.get(), await m.get(), await m.get()], [200, 200, 429]);
  assert.equal(await m.windowOf(), [m.start + 5000, m.start + 5001, m.start + 5001]);
});

test('rate window: a snapshot is a copy; requests after it change the registry, not the snapshot taken', async () => {
  const m = await windowed();
  m.mock.control.addFault({ method: 'GET', path: RUN, rate_limit: { requests: 2, per_ms: 1000 } });
  await m.at(0);
  assert.is(await m.get(), 200);
  const snap = m.mock.control.faultRegistry.snapshot();
  assert.equal(snap.faults[0].window, [m.start]);
  await m.at(10);
  assert.equal([await m.get(), await m.get()], [200, 429]);
  assert.equal(snap.faults[0].window, [m.start], 'the snapshot is as it was');
  assert.equal(m.mock.control.faultRegistry.snapshot().faults[0].window, [m.start, m.start + 10]);
  // Restored, the snapshot's window has one place left: one request is let through, the next is refused.
  m.mock.control.faultRegistry.restore(snap);
  assert.equal([await m.get(), await m.get()], [200, 429]);
});

test.run();
