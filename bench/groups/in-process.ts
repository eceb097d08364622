// Group f: in-process createApp with the demo fixture, and snapshot restore.
import { performance } from 'node:perf_hooks';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { fmt, median, report } from '../lib/report.js';

export async function inProcess() {
  const fixture = demoFixture();
  const t0 = performance.now();
  await createApp({ storage: 'memory', fixtures: fixture });
  const cold = performance.now() - t0;
  const times: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const t = performance.now();
    await createApp({ storage: 'memory', fixtures: fixture });
    times.push(performance.now() - t);
  }
  const m = median(times);
  report({
    id: 'f1',
    what: 'createApp + demo fixture (in-process), median of 1,000',
    value: `${fmt(m, 3)} ms`,
    baseline: '',
    ratio: '',
    target: '<= 2 ms',
    met: m <= 2,
    note: `first call ${fmt(cold, 1)} ms: fixture validated and compiled once per fixture object`,
  });

  const mock = await createApp({ storage: 'memory', fixtures: fixture });
  const snap = mock.control.snapshot();
  const restores: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const t = performance.now();
    await mock.control.restore(snap);
    restores.push(performance.now() - t);
  }
  const r = median(restores);
  report({
    id: 'f2',
    what: 'snapshot restore of the demo state, median of 1,000',
    value: `${fmt(r, 3)} ms`,
    baseline: '',
    ratio: '',
    target: '<= 1 ms',
    met: r <= 1,
  });
}
