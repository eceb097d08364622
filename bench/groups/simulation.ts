// Group m: the simulation engine: 30 days of the demo's Support Desk (its jobs, 10 chat messages an hour, ~7,000 runs)
// through one POST /_mock/simulation/run {until}, in memory, answered in process.
import { performance } from 'node:perf_hooks';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { fmt, report } from '../lib/report.js';

const SUPPORT = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const CHAT_BINDING = 'e96b28d7-1310-499b-952e-bd5c21e77d85';
const put = (body: unknown) => ({ method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

export async function simulationRun() {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'bench', simulation: { mode: 'auto' } });
  const traffic = await mock.fetch('/_mock/simulation', put({ traffic: [{ binding_id: CHAT_BINDING, messages_per_hour: 10 }] }));
  if (traffic.status !== 200) throw new Error(`PUT /_mock/simulation answered ${traffic.status}`);
  const runsBefore = mock.store.count('runs');
  const rss0 = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const res = await mock.fetch('/_mock/simulation/run', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ until: '2026-12-20T12:00:00.000Z' }) });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (res.status !== 200) throw new Error(`POST /_mock/simulation/run answered ${res.status}: ${await res.text()}`);
  const answer = (await res.json()) as { executed: number };
  const runs = mock.store.count('runs') - runsBefore;
  const support = [...mock.store.values('runs')].filter((r) => r.project_id === SUPPORT && r.created_at > '2026-11-20T12:00:00.000Z').length;
  report({
    id: 'm',
    what: '30 days of the demo (jobs, 10 chat messages/h): one simulation/run, memory',
    value: `${fmt(seconds, 2)} s`,
    baseline: '',
    ratio: '',
    target: '<= 10 s',
    met: seconds <= 10,
    note: `${fmt(runs)} runs (${fmt(support)} in Support Desk), ${fmt(answer.executed)} events, ${fmt(answer.executed / seconds)} events/s; CPU ${fmt((cpu.user + cpu.system) / 1e6, 2)} s; RSS +${fmt((process.memoryUsage().rss - rss0) / 1024 / 1024)} MB`,
  });
  await mock.close();
}
