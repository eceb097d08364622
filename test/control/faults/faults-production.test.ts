// Faults beyond method and path: match fields, after, seeded probability, delay distributions, headers, rate limits,
// exact `times` under concurrency (memory and the JSON file), the journal marker, and 422s for bad documents.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';
import { tmpDataFile } from '../../helpers/disk.js';
import { createApp, type MockApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { JsonFileAdapter } from '../../../src/storage/adapters.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const operator = bearer(DEMO.tokens.operator);
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;
const RETRY = `/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`;
const USERS = `/api/v3/projects/${P}/users`;
const BUDGET = `/api/v3/projects/${P}/budget`;

const get = (mock: MockApp, path = RUN, headers: Record<string, string> = owner) => mock.fetch(path, { headers });
const post = (mock: MockApp, path: string, body: unknown, headers: Record<string, string> = owner) =>
  mock.fetch(path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const statuses = async (n: number, call: () => Promise<Response>) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call()).status);
  return out;
};

test('match.operation: only that operation, whatever the path glob', async () => {
  const { mock } = await freshMock();
  mock.control.addFault({ match: { operation: 'getRun' }, status: 503 });
  assert.is((await get(mock)).status, 503);
  assert.is((await get(mock, USERS)).status, 200);
  assert.is((await post(mock, RETRY, {})).status, 201);
  assert.is((await get(mock, `/api/v3/projects/${P}/RUNS/${DEMO.runs.failedApi}`)).status, 503, 'as the router matches: literals in any case');
});

test('match.query: a subset of the query', async () => {
  const { mock } = await freshMock();
  mock.control.addFault({ method: 'GET', path: USERS, match: { query: { limit: '1' } }, status: 500 });
  assert.is((await get(mock, `${USERS}?limit=1`)).status, 500);
  assert.is((await get(mock, `${USERS}?limit=1&cursor=`)).status, 500, 'more keys are fine');
  assert.is((await get(mock, `${USERS}?limit=2`)).status, 200);
  assert.is((await get(mock, USERS)).status, 200);
});

test('match.headers: names in any case, values exact', async () => {
  const { mock } = await freshMock();
  mock.control.addFault({ path: '/api/**', match: { headers: { 'X-Client': 'mobile' } }, status: 502 });
  assert.is((await get(mock, RUN, { ...owner, 'x-client': 'mobile' })).status, 502);
  assert.is((await get(mock, RUN, { ...owner, 'X-Client': 'Mobile' })).status, 200);
  assert.is((await get(mock, RUN)).status, 200);
});

test('match.body: a JSON subset of the request body; the handler still reads the same body', async () => {
  const { mock } = await freshMock();
  mock.control.addFault({ method: 'POST', path: '/api/**', match: { body: { reason: 'boom' } }, status: 500 });
  assert.is((await post(mock, RETRY, { reason: 'boom', metadata: { a: 1 } })).status, 500);
  const ok = await post(mock, RETRY, { reason: 'fine' });
  assert.is(ok.status, 201, 'the body read for matching is the body the handler validates');
  assert.is(((await ok.json()) as { status: string }).status, 'queued');
  assert.is(
    (await mock.fetch(RETRY, { method: 'POST', headers: { ...owner, 'content-type': 'application/json' }, body: '{not json' })).status,
    422,
    'not JSON: no match, the handler answers',
  );
});

test('match.principal: the principal behind the bearer token', async () => {
  const { mock } = await freshMock();
  mock.control.addFault({ match: { principal: DEMO.principals.operator }, status: 503 });
  assert.is((await get(mock, RUN, operator)).status, 503);
  assert.is((await get(mock, RUN, owner)).status, 200);
  assert.is((await get(mock, RUN, {})).status, 401);
});

test('after: skips the first n matches ("the third call fails": after 2, times 1)', async () => {
  const { mock } = await freshMock();
  const f = mock.control.addFault({ method: 'GET', path: RUN, after: 2, times: 1, status: 503 });
  assert.equal(await statuses(5, () => get(mock)), [200, 200, 503, 200, 200]);
  assert.equal(mock.control.faults(), [], 'fired its one time, then left');
  assert.equal(mock.control.requests()[2].fault, { id: f.id, status: 503 });
});

test('after without times: every match past the first n', async () => {
  const { mock } = await freshMock();
  mock.control.addFault({ method: 'GET', path: RUN, after: 1, status: 500 });
  assert.equal(await statuses(3, () => get(mock)), [200, 500, 500]);
  assert.equal(
    mock.control.faults().map((f) => [f.matched, f.hits, f.remaining]),
    [[3, 2, null]],
  );
});

test('probability: seeded mocks fail the same requests; 0 never fires, 1 always does', async () => {
  const run = async (seed: number | string) => {
    const { mock } = await freshMock({ seed });
    mock.control.addFault({ method: 'GET', path: RUN, probability: 0.5, status: 503 });
    return statuses(40, () => get(mock));
  };
  const a = await run(42);
  const b = await run(42);
  assert.equal(a, b);
  const failed = a.filter((s) => s === 503).length;
  assert.ok(failed > 5 && failed < 35, `about half fail (${failed} of 40)`);
  assert.not.equal(await run('another seed'), a);
  const { mock } = await freshMock({ seed: 1 });
  mock.control.addFault({ method: 'GET', path: RUN, probability: 0, status: 503 });
  mock.control.addFault({ method: 'GET', path: USERS, probability: 1, status: 503 });
  assert.equal(await statuses(10, () => get(mock)), Array(10).fill(200));
  assert.equal(await statuses(10, () => get(mock, USERS)), Array(10).fill(503));
});

test('delay distributions: drawn from the seed, within bounds, shown in the journal', async () => {
  const draw = async (delay_ms: object) => {
    const { mock } = await freshMock({ seed: 7 });
    mock.control.addFault({ method: 'GET', path: RUN, delay_ms: delay_ms as never });
    for (let i = 0; i < 6; i++) await get(mock);
    return mock.control.requests().map((e) => e.fault!.delay_ms!);
  };
  const uniform = await draw({ distribution: 'uniform', min_ms: 2, max_ms: 12 });
  assert.ok(
    uniform.every((d) => Number.isInteger(d) && d >= 2 && d <= 12),
    String(uniform),
  );
  assert.equal(await draw({ distribution: 'uniform', min_ms: 2, max_ms: 12 }), uniform);
  assert.ok(new Set(uniform).size > 1, 'drawn, not fixed');
  const lognormal = await draw({ distribution: 'lognormal', median_ms: 5, p99_ms: 20 });
  assert.ok(
    lognormal.every((d) => Number.isInteger(d) && d >= 0 && d <= 300_000),
    String(lognormal),
  );
  assert.equal(await draw({ distribution: 'lognormal', median_ms: 5, p99_ms: 20 }), lognormal);
  assert.equal(await draw({ distribution: 'uniform', min_ms: 3, max_ms: 3 }), Array(6).fill(3));
});

test('headers: added to a status answer', async () => {
  const { mock } = await freshMock();
  mock.control.addFault({ method: 'GET', path: RUN, status: 503, headers: { 'Retry-After': '7', 'X-Upstream': 'down' }, body: { detail: 'later' } });
  const res = await get(mock);
  assert.is(res.status, 503);
  assert.is(res.headers.get('retry-after'), '7');
  assert.is(res.headers.get('x-upstream'), 'down');
  assert.equal(await res.json(), { detail: 'later' });
});

test('rate_limit: 429 with a correct Retry-After past the limit, lifted when the mock clock passes the window', async () => {
  const { mock } = await freshMock();
  await mock.control.setClock(DEMO.now);
  const f = mock.control.addFault({ method: 'GET', path: RUN, rate_limit: { requests: 2, per_ms: 60_000 }, headers: { 'X-RateLimit-Limit': '2' } });
  assert.equal(await statuses(2, () => get(mock)), [200, 200]);
  const limited = await get(mock);
  assert.is(limited.status, 429);
  assert.is(limited.headers.get('retry-after'), '60');
  assert.is(limited.headers.get('x-ratelimit-limit'), '2');
  assert.equal(await limited.json(), { detail: { reason_code: 'rate_limited', message: 'Too many requests: retry after 60 s.', next_action: 'retry_later' } });
  assert.equal(mock.control.requests().at(-1)!.fault, { id: f.id, status: 429, retry_after_s: 60 });
  await mock.control.advanceClock(30_000);
  assert.is((await get(mock)).headers.get('retry-after'), '30');
  await mock.control.advanceClock(29_999);
  const last = await get(mock);
  assert.equal([last.status, last.headers.get('retry-after')], [429, '1'], '1 ms left rounds up to a second');
  await mock.control.advanceClock(1);
  assert.equal(await statuses(3, () => get(mock)), [200, 200, 429], 'the window passed: two more');
  assert.equal(
    mock.control.faults().map((x) => [x.hits, x.matched]),
    [[4, 8]],
  );
  assert.is((await get(mock, USERS)).status, 200, 'other requests are not counted');
});

test('rate_limit with times: the 429s are the firings counted', async () => {
  const { mock } = await freshMock();
  await mock.control.setClock(DEMO.now);
  mock.control.addFault({ method: 'GET', path: RUN, rate_limit: { requests: 1, per_ms: 1000 }, times: 2 });
  assert.equal(await statuses(5, () => get(mock)), [200, 429, 429, 200, 200]);
});

async function concurrent(mock: MockApp, call: () => Promise<Response>): Promise<number[]> {
  return (await Promise.all(Array.from({ length: 50 }, call))).map((r) => r.status);
}

test('times under 50 concurrent requests fires exactly times times (memory)', async () => {
  const { mock } = await freshMock();
  mock.control.addFault({ method: 'POST', path: '/api/v3/projects/*/runs/*/retry', status: 503, times: 7 });
  const s = await concurrent(mock, () => post(mock, RETRY, {}));
  assert.is(s.filter((x) => x === 503).length, 7);
  assert.is(s.filter((x) => x === 201).length, 43);
  assert.is(mock.control.requests().filter((e) => e.fault).length, 7);
});

test('times under 50 concurrent requests fires exactly times times (JSON file, writes with real latency, body matching)', async () => {
  const mock = await createApp({ storage: new JsonFileAdapter(tmpDataFile('prm-faults-')), fixtures: demoFixture() });
  try {
    mock.control.addFault({ method: 'PUT', path: BUDGET, match: { body: { funding_mode: 'invoiced' } }, status: 503, times: 5, after: 3 });
    const s = await concurrent(mock, () =>
      mock.fetch(BUDGET, { method: 'PUT', headers: { ...owner, 'content-type': 'application/json' }, body: JSON.stringify({ funding_mode: 'invoiced' }) }),
    );
    assert.is(s.filter((x) => x === 503).length, 5, String(s));
    assert.is(s.filter((x) => x === 200).length, 45, String(s));
    assert.equal(mock.control.faults(), []);
  } finally {
    await mock.close();
  }
});

test('bad fault documents are 422 with loc, and add nothing', async () => {
  const { mock, http } = await freshMock();
  const loc = async (body: object) => {
    const res = await http.post('/_mock/faults').send(body);
    assert.is(res.status, 422, JSON.stringify(res.body));
    return res.body.detail.map((d: { loc: unknown }) => d.loc);
  };
  assert.equal(await loc({ path: '/x', status: 500, probability: 1.5 }), [['body', 'probability']]);
  assert.equal(await loc({ path: '/x', status: 500, probability: -0.1 }), [['body', 'probability']]);
  assert.equal(await loc({ path: '/x', delay_ms: { distribution: 'lognormal', median_ms: 100, p99_ms: 50 } }), [['body', 'delay_ms', 'p99_ms']]);
  assert.equal(await loc({ path: '/x', delay_ms: { distribution: 'uniform', min_ms: 9, max_ms: 3 } }), [['body', 'delay_ms', 'max_ms']]);
  assert.equal(await loc({ path: '/x', transport: 'reset', status: 500 }), [['body', 'transport']]);
  assert.equal(await loc({ path: '/x', transport: 'slow_body' }), [['body', 'bytes_per_s']]);
  assert.equal(await loc({ path: '/x', transport: 'reset', bytes_per_s: 10 }), [['body', 'bytes_per_s']]);
  assert.equal(await loc({ path: '/x', transport: 'teleport' }), [['body', 'transport']]);
  assert.equal(await loc({ path: '/x', rate_limit: { requests: 0, per_ms: 10 } }), [['body', 'rate_limit', 'requests']]);
  assert.equal(await loc({ path: '/x', rate_limit: { requests: 1, per_ms: 10 }, after: 1 }), [['body', 'after']]);
  assert.equal(await loc({ path: '/x', rate_limit: { requests: 1, per_ms: 10 }, status: 503 }), [['body', 'rate_limit']]);
  assert.equal(await loc({ path: '/x', delay_ms: 5, headers: { 'X-A': 'b' } }), [['body', 'headers']]);
  assert.equal(await loc({ path: '/x', status: 500, match: { operation: 'fly' } }), [['body', 'match', 'operation']]);
  assert.equal(await loc({ path: '/x', status: 500, match: { colour: 'red' } }), [['body', 'match', 'colour']]);
  assert.equal(await loc({ path: '/x', status: 500, colour: 'red' }), [['body', 'colour']]);
  assert.equal(await loc({ path: '/x' }), [['body']]);
  assert.equal(mock.control.faults(), []);
});

test('a fault added later is found by the index as well as one added first (first added wins)', async () => {
  const { mock } = await freshMock();
  mock.control.addFault({ method: '*', path: '/api/**', status: 429, times: 1 });
  mock.control.addFault({ method: 'GET', match: { operation: 'getRun' }, status: 503, times: 1 });
  mock.control.addFault({ method: 'GET', path: `/api/v3/projects/*/runs/*`, status: 500, times: 1 });
  assert.equal(await statuses(4, () => get(mock)), [429, 503, 500, 200]);
});

test.run();
