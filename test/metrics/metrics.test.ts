// GET /_mock/metrics: strict Prometheus text format, counts that match the traffic sent, scopes, the guard, one registry per app.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from '../helpers/demo.js';
import { parsePrometheus, series } from '../helpers/prometheus.js';
import { chat, simMock } from '../helpers/simulation.js';

const P = DEMO.projects.support;
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;
const OWNER = { authorization: `Bearer ${DEMO.tokens.owner}` };

const app = (options: Parameters<typeof createApp>[0] = {}) => createApp({ storage: 'memory', fixtures: demoFixture(), ...options });

async function scrape(mock: MockApp, headers: Record<string, string> = {}) {
  const res = await mock.fetch('/_mock/metrics', { headers });
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheus(await res.text());
}

test('the output is strict text format: HELP and TYPE once per family, before its samples; histograms cumulative up to +Inf = _count', async () => {
  const mock = await app();
  await mock.fetch(RUN, { headers: OWNER });
  const families = await scrape(mock);
  // parsePrometheus throws on any violation; every documented family is there with its type.
  const types = Object.fromEntries([...families].map(([name, f]) => [name, f.type]));
  assert.equal(types, {
    prm_requests_total: 'counter',
    prm_request_duration_seconds: 'histogram',
    prm_commit_group_size: 'histogram',
    prm_commit_duration_seconds: 'histogram',
    prm_commit_conflicts_total: 'counter',
    prm_commit_reruns_total: 'counter',
    prm_faults_fired_total: 'counter',
    prm_sandboxes_live: 'gauge',
    prm_sandboxes_created_total: 'counter',
    prm_sandboxes_expired_total: 'counter',
    prm_journal_entries: 'gauge',
    prm_journal_bytes: 'gauge',
    prm_shadow_comparisons_total: 'counter',
    prm_shadow_dropped_total: 'counter',
    prm_simulation_events_total: 'counter',
  });
  await mock.close();
});

test('requests are counted by scope, operation and status class; durations count each; /_mock requests are not counted', async () => {
  const mock = await app();
  for (let i = 0; i < 3; i++) assert.is((await mock.fetch(RUN, { headers: OWNER })).status, 200);
  assert.is((await mock.fetch(RUN)).status, 401);
  assert.is((await mock.fetch(`/api/v3/projects/${P}/runs/00000000-0000-4000-8000-000000000000`, { headers: OWNER })).status, 404);
  assert.is((await mock.fetch('/api/v3/no/such/path', { headers: OWNER })).status, 404);
  const put = { method: 'PUT', headers: { ...OWNER, 'content-type': 'application/json' }, body: '{"user_daily_usd":5}' };
  assert.is((await mock.fetch(`/api/v3/projects/${P}/budget`, put)).status, 200);
  await mock.fetch('/_mock/journal');
  const f = await scrape(mock);
  assert.equal(series(f, 'prm_requests_total'), {
    '{scope="default",operation="getRun",status_class="2xx"}': 3,
    '{scope="default",operation="getRun",status_class="4xx"}': 2,
    '{scope="default",operation="none",status_class="4xx"}': 1,
    '{scope="default",operation="setBudget",status_class="2xx"}': 1,
  });
  const counts = series(f, 'prm_request_duration_seconds_count');
  assert.equal(counts, { '{scope="default",operation="getRun"}': 5, '{scope="default",operation="none"}': 1, '{scope="default",operation="setBudget"}': 1 });
  // Every journaled request is one entry (the journal holds all 7: nothing was pushed out).
  assert.equal(series(f, 'prm_journal_entries'), { '': 7 });
  assert.ok(series(f, 'prm_journal_bytes')[''] > 0);
  await mock.close();
});

test('a sandbox counts under scope "sandbox" (no sandbox id label), sandboxes live, created and expired', async () => {
  let now = Date.parse('2030-01-01T00:00:00Z');
  const mock = await app({ clock: () => now });
  const created = async (body: object) =>
    (await (await mock.fetch('/_mock/sandboxes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as {
      id: string;
    };
  const a = await created({});
  const b = await created({ ttl_ms: 1000 });
  await mock.fetch(`/sandboxes/${a.id}${RUN}`, { headers: OWNER });
  await mock.fetch(`/sandboxes/${a.id}${RUN}`, { headers: OWNER });
  await mock.fetch(`/sandboxes/${b.id}${RUN}`, { headers: OWNER });
  await mock.fetch(RUN, { headers: OWNER });
  let f = await scrape(mock);
  assert.equal(series(f, 'prm_requests_total'), {
    '{scope="default",operation="getRun",status_class="2xx"}': 1,
    '{scope="sandbox",operation="getRun",status_class="2xx"}': 3,
  });
  assert.equal(
    [series(f, 'prm_sandboxes_live'), series(f, 'prm_sandboxes_created_total'), series(f, 'prm_sandboxes_expired_total')],
    [{ '': 2 }, { '': 2 }, { '': 0 }],
  );
  now += 1000; // b's time to live is up: its next request finds it gone
  assert.is((await mock.fetch(`/sandboxes/${b.id}${RUN}`, { headers: OWNER })).status, 404);
  assert.is((await mock.fetch(`/_mock/sandboxes/${a.id}`, { method: 'DELETE' })).status, 200);
  f = await scrape(mock);
  assert.equal(
    [series(f, 'prm_sandboxes_live'), series(f, 'prm_sandboxes_created_total'), series(f, 'prm_sandboxes_expired_total')],
    [{ '': 0 }, { '': 2 }, { '': 1 }],
  );
  await mock.close();
});

test('faults fired are counted by what they did; a fault that matched nothing counts nothing', async () => {
  const mock = await app();
  const add = (body: object) => mock.fetch('/_mock/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.is((await add({ method: 'GET', path: RUN, status: 503, times: 2 })).status, 200);
  assert.is((await add({ method: 'GET', path: '/api/v3/projects/*/releases', status: 500 })).status, 200);
  for (let i = 0; i < 3; i++) await mock.fetch(RUN, { headers: OWNER });
  const f = await scrape(mock);
  assert.equal(series(f, 'prm_faults_fired_total'), { '{scope="default",kind="status"}': 2 });
  // An injected answer is still a request answered: counted under its operation and the status it sent.
  assert.equal(series(f, 'prm_requests_total'), {
    '{scope="default",operation="getRun",status_class="2xx"}': 1,
    '{scope="default",operation="getRun",status_class="5xx"}': 2,
  });
  await mock.close();
});

test('commit groups: each stored write adds one group of its size; no conflict on storage of its own', async () => {
  const mock = await app();
  const before = series(await scrape(mock), 'prm_commit_group_size_count')['{scope="default"}'];
  const put = { method: 'PUT', headers: { ...OWNER, 'content-type': 'application/json' }, body: '{"user_daily_usd":5}' };
  for (let i = 0; i < 4; i++) await mock.fetch(`/api/v3/projects/${P}/budget`, put);
  const f = await scrape(mock);
  // One request at a time: each write is a group of one.
  assert.is(series(f, 'prm_commit_group_size_count')['{scope="default"}'] - before, 4);
  assert.is(series(f, 'prm_commit_group_size_bucket')['{le="1",scope="default"}'] - before, 4);
  assert.equal(series(f, 'prm_commit_conflicts_total'), { '{scope="default"}': 0, '{scope="sandbox"}': 0 });
  assert.equal(series(f, 'prm_commit_reruns_total'), { '{scope="default"}': 0, '{scope="sandbox"}': 0 });
  await mock.close();
});

test('simulation events: each executed event counts one', async () => {
  const m = await simMock({ mode: 'step' });
  await chat(m);
  assert.equal(series(await scrape(m.mock), 'prm_simulation_events_total'), { '': 0 });
  const steps = [await m.mock.control.stepSimulation(), await m.mock.control.stepSimulation()];
  assert.ok(steps.every((s) => s.executed !== null));
  assert.equal(series(await scrape(m.mock), 'prm_simulation_events_total'), { '': 2 });
  await m.mock.close();
});

test('two apps in one process count apart (a registry per app)', async () => {
  const one = await app();
  const two = await app();
  await one.fetch(RUN, { headers: OWNER });
  await one.fetch(RUN, { headers: OWNER });
  await two.fetch(RUN, { headers: OWNER });
  assert.equal(series(await scrape(one), 'prm_requests_total'), { '{scope="default",operation="getRun",status_class="2xx"}': 2 });
  assert.equal(series(await scrape(two), 'prm_requests_total'), { '{scope="default",operation="getRun",status_class="2xx"}': 1 });
  await Promise.all([one.close(), two.close()]);
});

test('the control guard covers /_mock/metrics: a foreign Host is 421, a configured token is required', async () => {
  const mock = await app({ controlToken: 'secret-control' });
  const refused = await mock.fetch('/_mock/metrics');
  assert.is(refused.status, 401);
  assert.is(((await refused.json()) as { detail: { reason_code: string } }).detail.reason_code, 'control_token_invalid');
  const foreign = await mock.fetch('http://evil.example/_mock/metrics', { headers: { 'x-mock-control-token': 'secret-control' } });
  assert.is(foreign.status, 421);
  await scrape(mock, { 'x-mock-control-token': 'secret-control' });
  await mock.close();
});

test('the parser is strict: it refuses what the format forbids', () => {
  const bad = [
    'prm_x 1\n', // a sample before its TYPE
    '# TYPE prm_x counter\n# TYPE prm_x counter\nprm_x 1\n', // TYPE twice
    '# TYPE prm_x counter\nprm_x{a="1",a="2"} 1\n', // a label twice
    '# TYPE prm_x counter\nprm_x{a="1"} 1\nprm_x{a="1"} 2\n', // a series twice
    '# TYPE prm_x counter\nprm_x{a=1} 1\n', // an unquoted value
    '# TYPE prm_x counter\nprm_x -1\n', // a negative counter
    '# TYPE prm_x histogram\nprm_x_bucket{le="1"} 2\nprm_x_bucket{le="+Inf"} 1\nprm_x_sum 1\nprm_x_count 1\n', // not cumulative
    '# TYPE prm_x histogram\nprm_x_bucket{le="+Inf"} 2\nprm_x_sum 1\nprm_x_count 1\n', // +Inf != count
    '# TYPE prm_x gauge\nprm_x 1', // no final newline
  ];
  for (const text of bad) assert.throws(() => parsePrometheus(text), undefined, text);
});

test.run();
