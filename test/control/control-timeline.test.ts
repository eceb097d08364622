// GET /_mock/timeline: every series against counts computed here from GET /_mock/state and the journal, after a
// simulated day of the demo with its traffic, a fault and client requests; the span's bounds, the bucket cap, the
// query's refusals, and an answer bounded in bytes however long the history.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, type TestMock } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { simFixture } from '../helpers/simulation.js';

const P = DEMO.projects.support;
const DAY = 86_400_000;
const owner = { Authorization: `Bearer ${DEMO.tokens.owner}` };
type Json = Record<string, any>;

/** The demo with the simulation on and its chat traffic flowing (the CLI's `npm start`), one day on. */
async function aDay(): Promise<TestMock> {
  const m = await freshMock({ fixtures: simFixture(), seed: 7, simulation: { mode: 'auto', start: { traffic: 10 } } });
  // Client requests before and after the day: a 200, a 404 and one a fault answers 503.
  await m.http.get(`/api/v3/projects/${P}/users?limit=1`).set(owner);
  await m.http.post('/_mock/faults').send({ path: `/api/v3/projects/${P}/jobs`, status: 503, times: 1 });
  await m.http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  await m.http.post('/_mock/clock').send({ advance_ms: DAY });
  await m.http.get(`/api/v3/projects/${DEMO.projects.support}/runs/00000000-0000-4000-8000-000000000000`).set(owner);
  return m;
}

/** Buckets as the route documents them, computed here: `[from, to)` cut into widths of ceil(span / buckets) ms. */
function bucketsOf(from: number, to: number, buckets: number) {
  const width = Math.max(1, Math.ceil((to - from) / buckets));
  const count = Math.ceil((to - from) / width);
  const slot = (iso: string | number) => {
    const ms = typeof iso === 'number' ? iso : Date.parse(iso);
    return ms >= from && ms < to ? Math.floor((ms - from) / width) : -1;
  };
  const series = <T>(items: T[], when: (t: T) => string | null | undefined, keep: (t: T) => boolean = () => true) => {
    const out = new Array<number>(count).fill(0);
    for (const t of items) {
      const w = when(t);
      const i = w ? slot(w) : -1;
      if (i >= 0 && keep(t)) out[i]++;
    }
    return out;
  };
  return { width, count, series };
}

async function expected(m: TestMock, from: number, to: number, buckets: number) {
  const state = (await m.http.get('/_mock/state')).body as Json;
  const journal = (await m.http.get('/_mock/requests?summary=true')).body.items as Json[];
  const { width, count, series } = bucketsOf(from, to, buckets);
  const runs = state.runs as Json[];
  const cls = (c: string) => (e: Json) => (c === 'other' ? !(e.status >= 200 && e.status < 600) : String(e.status)[0] === c[0] && e.status >= 200);
  return {
    bucket_ms: width,
    buckets: count,
    runs: Object.fromEntries(
      ['queued', 'running', 'waiting_approval', 'succeeded', 'failed', 'cancelled'].map((s) => [
        s,
        series(
          runs,
          (r) => r.created_at,
          (r) => r.status === s,
        ),
      ]),
    ),
    approvals: { opened: series(state.approvals, (a: Json) => a.requested_at), decided: series(state.approvals, (a: Json) => a.decided_at) },
    jobs_fired: series(
      runs,
      (r) => r.created_at,
      (r) => r.request_metadata?.source === 'job',
    ),
    requests: {
      '2xx': series(journal, (e) => e.at, cls('2xx')),
      '3xx': series(journal, (e) => e.at, cls('3xx')),
      '4xx': series(journal, (e) => e.at, cls('4xx')),
      '5xx': series(journal, (e) => e.at, cls('5xx')),
      other: series(journal, (e) => e.at, cls('other')),
      faults: series(
        journal,
        (e) => e.at,
        (e) => e.fault !== undefined,
      ),
      simulated: series(
        journal,
        (e) => e.at,
        (e) => e.simulated === true,
      ),
    },
    spendTotal: runs.filter((r) => Date.parse(r.created_at) >= from && Date.parse(r.created_at) < to).reduce((sum, r) => sum + (r.cost_usd ?? 0), 0),
    journal,
    runsIn: runs.filter((r) => Date.parse(r.created_at) >= from && Date.parse(r.created_at) < to),
  };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

test('after a simulated day: every series is what the state and the journal hold, bucket by bucket', async () => {
  const m = await aDay();
  const now = Date.parse((await m.http.get('/_mock/clock')).body.now);
  for (const buckets of [1, 7, 96, 240]) {
    const res = await m.http.get(`/_mock/timeline?buckets=${buckets}`);
    assert.is(res.status, 200);
    const t = res.body as Json;
    const want = await expected(m, now - DAY, now, buckets);
    assert.equal([t.from, t.to], [new Date(now - DAY).toISOString(), new Date(now).toISOString()]);
    assert.equal(
      { bucket_ms: t.bucket_ms, buckets: t.buckets, runs: t.runs, approvals: t.approvals, jobs_fired: t.jobs_fired, requests: t.requests },
      { bucket_ms: want.bucket_ms, buckets: want.buckets, runs: want.runs, approvals: want.approvals, jobs_fired: want.jobs_fired, requests: want.requests },
      `buckets=${buckets}`,
    );
    // The day had runs, approvals, jobs and simulated traffic, and the one fault inside it was marked.
    assert.ok(sum(t.runs.succeeded) > 100 && sum(t.requests.simulated) > 100, JSON.stringify(t.runs));
    assert.ok(sum(t.jobs_fired) > 0 && sum(t.approvals.opened) > 0, `${t.jobs_fired} ${t.approvals.opened}`);
    // Spend: every run's cost in the span, per project, the projects most spent first, with their budget.
    const spent = t.spend.reduce((a: number, s: Json) => a + sum(s.usd), 0);
    assert.ok(Math.abs(spent - want.spendTotal) < 1e-6 * Math.max(1, t.buckets), `${spent} vs ${want.spendTotal}`);
    assert.is(t.spend[0].project_id, P);
    assert.is(t.spend[0].name, 'Support Desk');
    assert.is(t.spend_projects_omitted, 0);
    // What a click opens: the first request and the first run of each bucket.
    const { series: _s, count, width } = bucketsOf(now - DAY, now, buckets);
    const firstRequest = new Array(count).fill(null);
    for (const e of want.journal) {
      const i = Date.parse(e.at) >= now - DAY && Date.parse(e.at) < now ? Math.floor((Date.parse(e.at) - (now - DAY)) / width) : -1;
      if (i >= 0) firstRequest[i] ??= e.id;
    }
    assert.equal(t.first.request, firstRequest);
    const withRun = t.first.run.filter(Boolean).map((r: Json) => r.id);
    for (const id of withRun) assert.ok(want.runsIn.some((r) => r.id === id));
    assert.is(t.first.run.filter(Boolean).length, t.first.run.filter((_: unknown, i: number) => Object.values(t.runs).some((s: any) => s[i] > 0)).length);
  }
  // The clock was frozen: the requests before the move came at the span's first ms, the 404 after it at `to`.
  const all = (await m.http.get(`/_mock/timeline?from=${new Date(now - 2 * DAY).toISOString()}&buckets=2`)).body;
  assert.equal(all.requests['5xx'], [0, 1]);
  assert.equal(all.requests.faults, [0, 1]);
  assert.equal(all.requests['4xx'], [0, 0], 'the 404 came at `to`, which is outside the span');
  assert.is(all.journal_from, (await m.http.get('/_mock/requests?limit=1000&summary=true')).body.items[0].at);
  await m.mock.close();
});

test('the span: empty (from = to) has no bucket, one bucket holds everything, the cap is 240 and 241 is refused', async () => {
  const m = await aDay();
  const now = (await m.http.get('/_mock/clock')).body.now;
  const empty = (await m.http.get(`/_mock/timeline?from=${now}&to=${now}`)).body;
  assert.equal([empty.buckets, empty.runs.succeeded, empty.requests['2xx'], empty.first, empty.spend], [0, [], [], { request: [], run: [] }, []]);

  const one = (await m.http.get('/_mock/timeline?buckets=1')).body;
  const want = await expected(m, Date.parse(now) - DAY, Date.parse(now), 1);
  assert.equal([one.buckets, one.bucket_ms, one.runs, one.requests], [1, DAY, want.runs, want.requests]);
  assert.is(one.runs.succeeded[0], want.runsIn.filter((r) => r.status === 'succeeded').length);

  const cap = (await m.http.get('/_mock/timeline?buckets=240')).body;
  assert.equal([cap.buckets, cap.bucket_ms, cap.runs.queued.length], [240, DAY / 240, 240]);
  // A span that does not divide evenly: fewer buckets of a whole number of ms, the last one cut at `to`.
  const odd = (await m.http.get(`/_mock/timeline?from=2026-11-20T00:00:00.000Z&to=2026-11-20T00:00:00.007Z&buckets=5`)).body;
  assert.equal([odd.buckets, odd.bucket_ms], [4, 2]);

  for (const [query, loc, type] of [
    ['buckets=241', ['query', 'buckets'], 'less_than_equal'],
    ['buckets=0', ['query', 'buckets'], 'greater_than_equal'],
    [`from=${now}&to=2026-01-01T00:00:00Z`, ['query', 'from'], 'value_error'],
    ['from=yesterday', ['query', 'from'], 'datetime_parsing'],
  ] as const) {
    const res = await m.http.get(`/_mock/timeline?${query}`);
    assert.is(res.status, 422, query);
    assert.equal(res.body.detail[0].loc, loc, query);
    assert.is(res.body.detail[0].type, type, query);
  }
  const typo = await m.http.get('/_mock/timeline?bukets=3&form=x');
  assert.is(typo.status, 422);
  assert.equal(
    typo.body.detail.map((i: Json) => [i.loc, i.type, i.ctx?.did_you_mean]),
    [
      [['query', 'bukets'], 'extra_forbidden', 'buckets'],
      [['query', 'form'], 'extra_forbidden', 'from'],
    ],
  );
  await m.mock.close();
});

test('bounded in bytes: thirty days answer no more than one day does at the same bucket count', async () => {
  const m = await aDay();
  const day = JSON.stringify((await m.http.get('/_mock/timeline?buckets=240')).body).length;
  await m.http.post('/_mock/clock').send({ advance_ms: 29 * DAY });
  const now = Date.parse((await m.http.get('/_mock/clock')).body.now);
  const month = (await m.http.get(`/_mock/timeline?buckets=240&from=${new Date(now - 30 * DAY).toISOString()}`)).body;
  const bytes = JSON.stringify(month).length;
  assert.ok(sum(month.runs.succeeded) > 30 * 100, `${sum(month.runs.succeeded)} runs`);
  // Each series is 240 numbers whatever the history; the first-of-bucket ids are at most 240 of each kind.
  assert.ok(bytes < 64 * 1024 && bytes < 1.5 * day + 8 * 1024, `${bytes} bytes (a day: ${day})`);
  await m.mock.close();
});

test.run();
