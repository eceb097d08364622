// /_mock/metrics reads each source as docs/metrics.md defines it: buckets, uncounted pages, faults, sandboxes, journal, shadow.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from '../helpers/demo.js';
import { parsePrometheus, series } from '../helpers/prometheus.js';
import { shadowingMock, targetMock } from '../helpers/shadow.js';
import { freshMock } from '../helpers/app.js';

const P = DEMO.projects.support;
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;
const OWNER = { authorization: `Bearer ${DEMO.tokens.owner}` };
const JSON_POST = (body: object) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const app = (options: Parameters<typeof createApp>[0] = {}) => createApp({ storage: 'memory', fixtures: demoFixture(), log: () => {}, ...options });
const scrape = async (mock: MockApp) => parsePrometheus(await (await mock.fetch('/_mock/metrics')).text());

test('duration buckets are the documented ones: 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500 ms, 1, 2.5 and 10 s, then +Inf', async () => {
  const mock = await app();
  try {
    await mock.fetch(RUN, { headers: OWNER });
    const buckets = Object.keys(series(await scrape(mock), 'prm_request_duration_seconds_bucket'));
    const le = buckets.map((k) => /le="([^"]*)"/.exec(k)![1]);
    assert.equal(le, ['0.0005', '0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '10', '+Inf']);
  } finally {
    await mock.close();
  }
});

test('the documentation pages (/docs, /openapi.json) are not counted as requests', async () => {
  const mock = await app();
  try {
    assert.is((await mock.fetch('/openapi.json')).status, 200);
    assert.is((await mock.fetch('/docs')).status, 200);
    assert.is((await mock.fetch(RUN, { headers: OWNER })).status, 200);
    assert.equal(series(await scrape(mock), 'prm_requests_total'), { '{scope="default",operation="getRun",status_class="2xx"}': 1 });
  } finally {
    await mock.close();
  }
});

test('a reset connection sent no answer: counted under its operation with status class none, and as a reset fault', async () => {
  const mock = await app();
  try {
    mock.control.addFault({ method: 'GET', path: RUN, transport: 'reset', times: 1 });
    await mock.fetch(RUN, { headers: OWNER }).then(
      () => assert.unreachable('a reset answers nothing'),
      (err: Error) => assert.is(err.message, 'fetch failed'),
    );
    // The server side ends a moment after the client sees the reset: wait (a plain timer) until the journal holds it.
    for (let i = 0; i < 500 && mock.control.requests().length < 1; i++) await new Promise((r) => setTimeout(r, 10));
    assert.is((await mock.fetch(RUN, { headers: OWNER })).status, 200);
    const f = await scrape(mock);
    assert.equal(series(f, 'prm_requests_total'), {
      '{scope="default",operation="getRun",status_class="none"}': 1,
      '{scope="default",operation="getRun",status_class="2xx"}': 1,
    });
    assert.equal(series(f, 'prm_faults_fired_total'), { '{scope="default",kind="reset"}': 1 });
  } finally {
    await mock.close();
  }
});

test('a fault fired in a sandbox counts under scope sandbox, one in the default mock under default', async () => {
  const mock = await app();
  try {
    const { id } = (await (await mock.fetch('/_mock/sandboxes', JSON_POST({}))).json()) as { id: string };
    assert.is((await mock.fetch(`/sandboxes/${id}/_mock/faults`, JSON_POST({ method: 'GET', path: RUN, status: 503, times: 2 }))).status, 200);
    assert.is((await mock.fetch('/_mock/faults', JSON_POST({ method: 'GET', path: RUN, delay_ms: 1, times: 1 }))).status, 200);
    for (let i = 0; i < 3; i++) await mock.fetch(`/sandboxes/${id}${RUN}`, { headers: OWNER });
    assert.is((await mock.fetch(RUN, { headers: OWNER })).status, 200);
    const f = await scrape(mock);
    assert.equal(series(f, 'prm_faults_fired_total'), { '{scope="default",kind="delay"}': 1, '{scope="sandbox",kind="status"}': 2 });
    assert.equal(series(f, 'prm_requests_total'), {
      '{scope="default",operation="getRun",status_class="2xx"}': 1,
      '{scope="sandbox",operation="getRun",status_class="2xx"}': 1,
      '{scope="sandbox",operation="getRun",status_class="5xx"}': 2,
    });
  } finally {
    await mock.close();
  }
});

test('a sandbox the sweep drops (no request asked for it) counts as expired; one deleted does not', async () => {
  let now = Date.parse('2030-01-01T00:00:00Z');
  const mock = await app({ clock: () => now });
  try {
    const figures = async () => {
      const f = await scrape(mock);
      return [series(f, 'prm_sandboxes_live'), series(f, 'prm_sandboxes_created_total'), series(f, 'prm_sandboxes_expired_total')].map((s) => s['']);
    };
    await mock.fetch('/_mock/sandboxes', JSON_POST({ ttl_ms: 1000 }));
    const kept = (await (await mock.fetch('/_mock/sandboxes', JSON_POST({ ttl_ms: 60_000 }))).json()) as { id: string };
    now += 1000;
    // Creating one sweeps first: the first sandbox's time is up and it goes, never asked for again.
    await mock.fetch('/_mock/sandboxes', JSON_POST({}));
    assert.equal(await figures(), [2, 3, 1]);
    assert.is((await mock.fetch(`/_mock/sandboxes/${kept.id}`, { method: 'DELETE' })).status, 200);
    assert.equal(await figures(), [1, 3, 1]);
  } finally {
    await mock.close();
  }
});

test('journal figures: entries held, and bytes that grow by what each entry holds (a longer query, more bytes)', async () => {
  const mock = await app();
  try {
    const journal = async () => {
      const f = await scrape(mock);
      return [series(f, 'prm_journal_entries')[''], series(f, 'prm_journal_bytes')['']];
    };
    assert.equal(await journal(), [0, 0]);
    await mock.fetch(`${RUN}?pad=a`, { headers: OWNER });
    const [, one] = await journal();
    await mock.fetch(`${RUN}?pad=a${'a'.repeat(100)}`, { headers: OWNER });
    // The second entry is the first with 100 more characters of query.
    assert.equal(await journal(), [2, one + (one + 100)]);
    mock.control.clearRequests();
    assert.equal(await journal(), [0, 0]);
  } finally {
    await mock.close();
  }
});

test('shadow: same and drifted by outcome (warnings only is the same); drops by rate and skips by rule, all six reasons', async () => {
  const target = await targetMock();
  // The run waiting approval drifts (a status the mock never answers); the failed one only lacks an optional field.
  target.perturb = (path, status, body) => {
    if (path.endsWith(DEMO.runs.waitingApproval)) (body as Record<string, unknown>).status = 'done_elsewhere';
    if (path.endsWith(DEMO.runs.failedApi)) delete (body as Record<string, unknown>).trace_id;
    return { status, body };
  };
  // A bucket of 3 tokens and a clock that never moves: the fourth comparable request on is dropped for the rate.
  const { mock } = await shadowingMock(target, { ratePerSecond: 3, now: () => 0 });
  try {
    mock.control.addFault({ method: 'GET', path: `/api/v3/projects/${P}/jobs`, status: 500, times: 1 });
    const get = (path: string) => mock.fetch(path, { headers: OWNER }).then((r) => r.text());
    await get(RUN); // drifted
    await get(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`); // same, with a warning
    await get(`/api/v3/projects/${P}/releases`); // same
    await get(`/api/v3/projects/${P}/jobs`); // a fault answered: skipped (takes no token)
    await mock.fetch(`/api/v3/projects/${P}/budget`, { method: 'PUT', headers: { ...OWNER, 'content-type': 'application/json' }, body: '{}' }); // a write: skipped
    await get(RUN); // no token left
    await get(`/api/v3/projects/${P}/releases`); // no token left
    await mock.control.drift({ settled: true });
    const f = await scrape(mock);
    assert.equal(series(f, 'prm_shadow_comparisons_total'), { '{outcome="same"}': 2, '{outcome="drifted"}': 1 });
    assert.equal(series(f, 'prm_shadow_dropped_total'), {
      '{reason="queue_full"}': 0,
      '{reason="rate_limited"}': 2,
      '{reason="target_down"}': 0,
      '{reason="method"}': 1,
      '{reason="fault"}': 1,
      '{reason="not_comparable"}': 0,
    });
  } finally {
    await Promise.all([mock.close(), target.mock.close()]);
  }
});

test('simulation events: every event executed counts once; history removed by retention counts nothing', async () => {
  const fixture = structuredClone(demoFixture()) as { simulation: Record<string, unknown> };
  fixture.simulation = { ...fixture.simulation, traffic: [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 5 }], retention_days: 1 };
  const m = await freshMock({ fixtures: fixture, seed: 11, simulation: { mode: 'auto' } });
  try {
    const res = await m.http.post('/_mock/simulation/run').send({ until: new Date(Date.parse(DEMO.now) + 3 * 86_400_000).toISOString() });
    assert.is(res.status, 200, JSON.stringify(res.body));
    const { by_kind, removed } = m.mock.control.coverage().simulated;
    assert.ok(removed.slices > 0, 'retention removed some history');
    const executed = Object.values(by_kind as Record<string, number>).reduce((a, b) => a + b, 0);
    assert.ok(executed > 0);
    assert.equal(series(await scrape(m.mock), 'prm_simulation_events_total'), { '': executed });
  } finally {
    await m.mock.close();
  }
});

test.run();
