// Group r: the client report over a full journal, and repro bundles of 100k runs against the same state through GET/PUT /_mock/state.
import { performance } from 'node:perf_hooks';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { PROJECT, RUN, TOKEN, queuedRun } from '../lib/data.js';
import { fmt, median, report } from '../lib/report.js';

const RUNS = 100_000;

async function text(stream: AsyncIterable<unknown>): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += chunk;
  return out;
}

/** 1,000 requests of a client: reads, writes refused and accepted, token refreshes, unknown runs. */
async function fullJournal(): Promise<MockApp> {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'bench-r' });
  const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  for (let i = 0; i < 1000; i++) {
    const kind = i % 5;
    if (kind === 0) await mock.fetch(`/api/v3/projects/${PROJECT}/runs/${RUN}`, { headers: auth });
    else if (kind === 1) await mock.fetch(`/api/v3/projects/${PROJECT}/runs/${RUN}/cancel`, { method: 'POST', headers: auth, body: '{}' });
    else if (kind === 2)
      await mock.fetch(`/api/v3/projects/${PROJECT}/budget`, { method: 'PUT', headers: auth, body: JSON.stringify({ user_daily_usd: 1 + (i % 7) }) });
    else if (kind === 3)
      await mock.fetch('/api/v3/auth/token', { method: 'POST', headers: auth, body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: `r-${i}` }) });
    else await mock.fetch(`/api/v3/projects/${PROJECT}/jobs?limit=${1 + (i % 9)}`, { headers: auth });
    if (i % 50 === 0) await mock.control.advanceClock(1000);
  }
  return mock;
}

export async function reproduceGroup() {
  const mock = await fullJournal();
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    mock.control.clientReport();
    times.push(performance.now() - t);
  }
  const m = median(times);
  report({
    id: 'r1',
    what: `client report over a full journal (${mock.control.requests({ summary: true }).length} entries), median of 30`,
    value: `${fmt(m, 2)} ms`,
    baseline: '',
    ratio: '',
    target: '<= 50 ms',
    met: m <= 50,
  });

  const demo = demoFixture() as { runs: unknown[] };
  // The demo is what reset returns to; the 100k runs arrive afterwards (a session's state, not its fixture).
  const big = await createApp({ storage: 'memory', fixtures: demo, seed: 'bench-r' });
  const loaded = big.control.exportState();
  await big.control.importState({ ...loaded, runs: [...loaded.runs, ...Array.from({ length: RUNS }, (_, i) => queuedRun(i))] });
  // Interleaved rounds: state export, bundle export, state import, bundle import; medians of each.
  const t = { stateOut: [] as number[], bundleOut: [] as number[], stateIn: [] as number[], bundleIn: [] as number[] };
  for (let round = 0; round < 3; round++) {
    let t0 = performance.now();
    const state = await text(big.control.exportStateStream());
    t.stateOut.push(performance.now() - t0);
    t0 = performance.now();
    const bundle = await text(await big.control.exportBundleStream());
    t.bundleOut.push(performance.now() - t0);
    t0 = performance.now();
    await big.control.importState(JSON.parse(state));
    t.stateIn.push(performance.now() - t0);
    t0 = performance.now();
    await big.control.importBundle(JSON.parse(bundle));
    t.bundleIn.push(performance.now() - t0);
  }
  const [so, bo, si, bi] = [median(t.stateOut), median(t.bundleOut), median(t.stateIn), median(t.bundleIn)];
  report({
    id: 'r2',
    what: `bundle export of ${fmt(RUNS)} runs vs GET /_mock/state's stream of the same state`,
    value: `${fmt(bo)} ms`,
    baseline: `${fmt(so)} ms`,
    ratio: `${fmt(bo / so, 2)} x`,
    target: '<= 1.5 x',
    met: bo / so <= 1.5,
  });
  report({
    id: 'r3',
    what: `bundle import of ${fmt(RUNS)} runs vs PUT /_mock/state of the same state (parse included)`,
    value: `${fmt(bi)} ms`,
    baseline: `${fmt(si)} ms`,
    ratio: `${fmt(bi / si, 2)} x`,
    target: '<= 1.5 x',
    met: bi / si <= 1.5,
  });
}
