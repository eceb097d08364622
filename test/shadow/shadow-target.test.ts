// Shadow mode's traffic bounds and the target's health: a fixed queue, a rate, and a target that goes down and comes
// back, with notices at most once a minute on an injected clock (never per request).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO, bearer } from '../helpers/demo.js';
import { TARGET_URL, shadowingMock, targetMock } from '../helpers/shadow.js';
import { NOTICE_INTERVAL_MS } from '../../src/shadow/index.js';
import type { MockApp } from '../../src/app.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const get = (mock: MockApp) => mock.fetch(RUN, { headers: bearer(DEMO.tokens.owner) }).then((r) => r.text());
const iso = (ms: number) => new Date(ms).toISOString();
const T0 = Date.parse('2030-01-01T00:00:00.000Z');

test('the target goes down and comes back: a notice when it goes, one a minute while down, one when back', async () => {
  let now = T0;
  const target = await targetMock();
  const { mock, lines } = await shadowingMock(target, { now: () => now, retryMs: 5_000 });
  target.down = true;
  // One request a second for 121 s while down, each settled before the next.
  for (let s = 0; s <= 120; s++) {
    now = T0 + s * 1000;
    await get(mock);
    await mock.control.drift({ settled: true });
    const expectedNotices = s < 60 ? 1 : s < 120 ? 2 : 3;
    assert.is(lines.length, expectedNotices, `notices after ${s} s`);
  }
  assert.equal(lines, [
    `shadow: target ${TARGET_URL}/ is unreachable (ECONNREFUSED); requests are not compared until it answers (notices at most once a minute)`,
    `shadow: target ${TARGET_URL}/ still unreachable since ${iso(T0)} (ECONNREFUSED); 60 requests not compared in the last minute`,
    `shadow: target ${TARGET_URL}/ still unreachable since ${iso(T0)} (ECONNREFUSED); 60 requests not compared in the last minute`,
  ]);
  const down = mock.control.drift();
  assert.equal(down.target, { url: `${TARGET_URL}/`, state: 'down', since: iso(T0), last_error: 'ECONNREFUSED', notices: 3, writes: false });
  // Tried once every 5 s (0, 5, ..., 120: 25 tries); the other 96 were not sent.
  assert.is(down.unreachable, 25);
  assert.is(down.dropped.target_down, 96);
  assert.is(target.sent.length, 25);
  assert.is(down.compared, 0);
  // Back: the next try (5 s after the last) answers.
  target.down = false;
  now = T0 + 122_000;
  await get(mock); // within the retry interval: not tried
  await mock.control.drift({ settled: true });
  assert.is(lines.length, 3);
  now = T0 + 125_000;
  await get(mock);
  const up = await mock.control.drift({ settled: true });
  assert.is(lines[3], `shadow: target ${TARGET_URL}/ answers again after 125 s down (122 requests were not compared)`);
  assert.equal(up.target, { url: `${TARGET_URL}/`, state: 'up', since: iso(T0 + 125_000), last_error: 'ECONNREFUSED', notices: 4, writes: false });
  assert.is(up.compared, 1);
  // Up again: every request is sent, and no further notice.
  for (let i = 0; i < 5; i++) await get(mock);
  const after = await mock.control.drift({ settled: true });
  assert.is(after.compared, 6);
  assert.is(lines.length, 4);
  assert.is(NOTICE_INTERVAL_MS, 60_000);
});

test('a notice at exactly one minute, none a millisecond before', async () => {
  let now = T0;
  const target = await targetMock();
  const { mock, lines } = await shadowingMock(target, { now: () => now, retryMs: 1 });
  target.down = true;
  await get(mock);
  await mock.control.drift({ settled: true });
  now = T0 + NOTICE_INTERVAL_MS - 1;
  await get(mock);
  await mock.control.drift({ settled: true });
  assert.is(lines.length, 1);
  now = T0 + NOTICE_INTERVAL_MS;
  await get(mock);
  await mock.control.drift({ settled: true });
  assert.is(lines.length, 2);
  assert.match(lines[1], /; 2 requests not compared in the last minute$/);
});

test('the queue has a fixed cap: past it requests are dropped and counted, never waited for', async () => {
  const target = await targetMock();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const inner = target.fetch;
  let entered = 0;
  target.fetch = async (input, init) => {
    entered++;
    await gate;
    return inner(input, init);
  };
  const { mock } = await shadowingMock({ ...target, fetch: (input, init) => target.fetch(input, init) }, { concurrency: 1, queue: 2 });
  await get(mock);
  // The first is in flight (held at the gate) before the others arrive.
  while (entered === 0) await new Promise((r) => setImmediate(r));
  for (let i = 0; i < 9; i++) assert.ok((await get(mock)).includes('"id"'), 'the mock answers without waiting for the target');
  const held = mock.control.drift();
  assert.is(held.pending, 3);
  assert.is(held.dropped.queue_full, 7);
  assert.is(entered, 1);
  release();
  const done = await mock.control.drift({ settled: true });
  assert.equal([done.pending, done.compared, done.dropped.queue_full], [0, 3, 7]);
});

test('the rate: a bucket of ratePerSecond requests, refilled on the injected clock', async () => {
  let now = T0;
  const target = await targetMock();
  const { mock } = await shadowingMock(target, { now: () => now, ratePerSecond: 3 });
  for (let i = 0; i < 5; i++) await get(mock);
  assert.is(mock.control.drift().dropped.rate_limited, 2);
  now += 1000;
  for (let i = 0; i < 4; i++) await get(mock);
  assert.is(mock.control.drift().dropped.rate_limited, 3);
  now += 333; // 0.999 of a request
  await get(mock);
  assert.is(mock.control.drift().dropped.rate_limited, 4);
  now += 1; // 1.002
  await get(mock);
  const report = await mock.control.drift({ settled: true });
  assert.equal([report.dropped.rate_limited, report.compared], [4, 7]);
});

test.run();
