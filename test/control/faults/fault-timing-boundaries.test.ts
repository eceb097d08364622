// Fault timing at its edges: a rate limit's Retry-After when the admitted requests were spread over the window (the
// oldest one decides, rounded up), the window reopening at exactly per_ms; `after` skipping exactly N; `times`
// firing exactly N; `probability` 0 and 1; a drawn delay's cap; a restored window's bound.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FaultDraws } from '../../../src/control/faults/timing.js';
import { RateWindow } from '../../../src/control/faults/rate-limit.js';
import { MAX_DELAY_MS } from '../../../src/schemas/index.js';
import { freshMock } from '../../helpers/app.js';
import { clocked, owner, RUN } from '../../helpers/clocked-mock.js';

test('rate limit: with admitted requests spread over the window, Retry-After counts from the oldest, rounded up', async () => {
  const m = await clocked();
  await m.http
    .post('/_mock/faults')
    .send({ method: 'GET', path: RUN, rate_limit: { requests: 3, per_ms: 10_000 } })
    .expect(200);
  for (const t of [0, 3_000, 6_000]) {
    await m.at(t);
    assert.is((await m.get()).status, 200, `admitted at ${t}`);
  }
  await m.at(6_500);
  const refused = await m.get();
  assert.is(refused.status, 429);
  // The oldest (0) leaves the window at 10,000: 3,500 ms from 6,500, so 4 s.
  assert.is(refused.headers['retry-after'], '4');
  assert.equal(refused.body.detail.reason_code, 'rate_limited');
  await m.at(9_999);
  assert.is((await m.get()).headers['retry-after'], '1');
  // At exactly per_ms after the oldest its place is free again.
  await m.at(10_000);
  assert.is((await m.get()).status, 200);
  await m.at(10_001);
  const next = await m.get();
  // Now the oldest admitted is the one of 3,000: it leaves at 13,000, 2,999 ms away, so 3 s.
  assert.equal([next.status, next.headers['retry-after']], [429, '3']);
  // Only the refusals are the fault's firings.
  const [fault] = (await m.http.get('/_mock/faults')).body.items;
  assert.equal([fault.hits, fault.matched], [3, 7]);
});

test('rate limit: a Retry-After of a whole number of seconds is not rounded up past it', async () => {
  const m = await clocked();
  await m.http
    .post('/_mock/faults')
    .send({ method: 'GET', path: RUN, rate_limit: { requests: 1, per_ms: 5_000 } })
    .expect(200);
  await m.at(0);
  assert.is((await m.get()).status, 200);
  await m.at(2_000);
  assert.is((await m.get()).headers['retry-after'], '3');
  // 2,200 ms left is 3 s (rounded up, not to the nearest).
  await m.at(2_800);
  assert.is((await m.get()).headers['retry-after'], '3');
});

test('after: N skips exactly the first N matches, then fires; times: N fires exactly N times', async () => {
  const m = await clocked();
  await m.http.post('/_mock/faults').send({ method: 'GET', path: RUN, after: 2, times: 2, status: 503 }).expect(200);
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await m.get()).status);
  assert.equal(statuses, [200, 200, 503, 503, 200, 200]);
  assert.equal((await m.http.get('/_mock/faults')).body.items, []);
});

test('after: 0 fires on the first match; times: 1 only once', async () => {
  const m = await clocked();
  await m.http.post('/_mock/faults').send({ method: 'GET', path: RUN, after: 0, times: 1, status: 418 }).expect(200);
  assert.equal([(await m.get()).status, (await m.get()).status], [418, 200]);
});

test('probability 1 always fires, probability 0 never (matches still counted)', async () => {
  const m = await clocked();
  const never = (await m.http.post('/_mock/faults').send({ method: 'GET', path: RUN, probability: 0, status: 500 }).expect(200)).body;
  await m.http.post('/_mock/faults').send({ method: 'GET', path: RUN, probability: 1, status: 502 }).expect(200);
  const statuses: number[] = [];
  for (let i = 0; i < 20; i++) statuses.push((await m.get()).status);
  assert.equal(statuses, Array(20).fill(502));
  const listed = (await m.http.get('/_mock/faults')).body.items;
  assert.equal(
    listed.map((f: { id: string; hits: number; matched: number }) => [f.id === never.id, f.hits, f.matched]),
    [
      [true, 0, 20],
      [false, 20, 20],
    ],
  );
});

test('probability 0.5: some matches fire and some do not, the same ones for the same seed', async () => {
  const run = async () => {
    const m = await freshMock({ seed: 'half' });
    await m.http.post('/_mock/faults').send({ method: 'GET', path: RUN, probability: 0.5, status: 500 }).expect(200);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await m.http.get(RUN).set(owner)).status);
    return statuses;
  };
  const first = await run();
  const fired = first.filter((s) => s === 500).length;
  assert.ok(fired > 5 && fired < 35, `${fired} of 40 fired`);
  assert.equal(await run(), first);
});

test('lognormal delay: draws past the cap are cut to it (300 s), never over, however long the tail', () => {
  const draws = new FaultDraws('seed-cap');
  const spec = { distribution: 'lognormal' as const, median_ms: MAX_DELAY_MS / 2, p99_ms: MAX_DELAY_MS };
  const delays = Array.from({ length: 2000 }, (_, i) => draws.delay('flt_1', i + 1, spec)!);
  // Independently: ln(delay) ~ N(ln median, sigma) with the 99th percentile at p99, so about 1 % of draws lie above it.
  const capped = delays.filter((d) => d === MAX_DELAY_MS).length;
  assert.ok(
    delays.every((d) => d <= MAX_DELAY_MS),
    `the longest: ${Math.max(...delays)}`,
  );
  assert.ok(capped >= 5 && capped <= 50, `${capped} of 2,000 at the cap, about 20 expected`);
  assert.ok(delays.filter((d) => d < MAX_DELAY_MS / 2).length > 900, 'about half lie under the median');
});

test('rate window: a restored state keeps at most `requests` times, the newest', () => {
  const w = new RateWindow(2, 1000, [100, 200, 300, 400]);
  assert.equal(w.state(), [300, 400]);
  // Both places are taken until 300 leaves the window at 1,300: a request at 1,299 waits 1 ms, one at 1,300 is admitted.
  assert.is(w.admit(1299), 1);
  assert.is(w.admit(1300), null);
  assert.equal(w.state(), [400, 1300]);
  assert.equal(new RateWindow(3, 1000, []).state(), []);
});

test.run();
