// A drawn fault delay is a whole number of ms rounded to the nearest, not cut down or up: a uniform delay draws both of its bounds (each about half as often as a value between them), and a lognormal one keeps its median (with median 2 ms and p99 3 ms most draws are 2 ms, few are 1 ms).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FaultDraws } from '../../../src/control/faults/timing.js';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';

const N = 2000;
const draw = (seed: string, spec: Parameters<FaultDraws['delay']>[2]) => {
  const draws = new FaultDraws(seed);
  return Array.from({ length: N }, (_, i) => draws.delay('flt_1', i + 1, spec)!);
};
const count = (xs: number[], x: number) => xs.filter((d) => d === x).length;

test('uniform delay: every draw lies within [min_ms, max_ms] and both bounds are drawn', () => {
  const delays = draw('uniform-bounds', { distribution: 'uniform', min_ms: 10, max_ms: 20 });
  assert.ok(
    delays.every((d) => Number.isInteger(d) && d >= 10 && d <= 20),
    `${Math.min(...delays)}..${Math.max(...delays)}`,
  );
  // Rounded to the nearest, each bound takes half a step of the ten: 1/20 of the draws, about 100 of 2,000.
  for (const bound of [10, 20]) assert.ok(count(delays, bound) >= 50 && count(delays, bound) <= 150, `${count(delays, bound)} draws of ${bound}`);
  // A value inside takes a whole step: about 200.
  assert.ok(count(delays, 15) >= 140 && count(delays, 15) <= 260, `${count(delays, 15)} draws of 15`);
});

test('uniform delay of 0 to 1 ms: about half the draws are 0 and half are 1', () => {
  const delays = draw('uniform-one', { distribution: 'uniform', min_ms: 0, max_ms: 1 });
  const ones = count(delays, 1);
  assert.is(count(delays, 0) + ones, N);
  assert.ok(ones >= 0.4 * N && ones <= 0.6 * N, `${ones} of ${N} are 1`);
});

test('lognormal delay: with median 2 ms and p99 3 ms about 85 % of draws are 2 ms and about 5 % are 1 ms', () => {
  // ln(delay) ~ N(ln 2, sigma) with sigma = ln(3/2) / z99 (z99 = 2.3263): a draw rounds to 2 when it lies in
  // [1.5, 2.5), z from ln(0.75)/sigma = -1.650 to ln(1.25)/sigma = 1.280, probability 0.8997 - 0.0495 = 0.850;
  // to 1 below 1.5 (0.0495).
  const delays = draw('lognormal-median', { distribution: 'lognormal', median_ms: 2, p99_ms: 3 });
  assert.ok(count(delays, 2) >= 0.8 * N && count(delays, 2) <= 0.9 * N, `${count(delays, 2)} of ${N} are 2 ms`);
  assert.ok(count(delays, 1) >= 0.025 * N && count(delays, 1) <= 0.075 * N, `${count(delays, 1)} of ${N} are 1 ms`);
  assert.ok(
    delays.every((d) => d >= 1 && d <= 4),
    `${Math.min(...delays)}..${Math.max(...delays)}`,
  );
});

test('the journal shows the rounded delay a fault waited: a uniform 0..1 ms fault over 40 requests waits 0 and 1 ms', async () => {
  const { mock } = await freshMock({ seed: 'journal-rounding' });
  const run = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
  mock.control.addFault({ method: 'GET', path: run, delay_ms: { distribution: 'uniform', min_ms: 0, max_ms: 1 } });
  for (let i = 0; i < 40; i++) await mock.fetch(run, { headers: bearer(DEMO.tokens.owner) });
  const waited = mock.control.requests().map((e) => e.fault?.delay_ms);
  assert.is(waited.length, 40);
  assert.equal([...new Set(waited)].sort(), [0, 1]);
});

test.run();
