// Time in the simulation's schedules: jobs by cron across DST changes and their retries, budgets at UTC day and month boundaries.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO } from '../helpers/demo.js';
import { KNOWN, P, advance, chat, getRun, owner, simMock } from '../helpers/simulation.js';

type Json = Record<string, unknown>;
const NIGHTLY = '532c14a2-6d24-40c0-898e-6058b8f1bb68'; // "0 6 * * *" Europe/Berlin, retry 3 x 300 s
const WEEKLY = 'c3c2704f-eaf8-45d7-b2dc-a8a2daec4b53'; // "0 8 * * MON" America/New_York
const jobRuns = (
  m: { mock: { store: { values(c: 'runs'): Iterable<{ request_metadata: Json; created_at: string; status: string; id: string }> } } },
  jobId: string,
) =>
  [...m.mock.store.values('runs')]
    .filter((r) => r.request_metadata.job_id === jobId && r.request_metadata.source === 'job')
    .sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
const setJob = (id: string, patch: Json) => (f: Json) =>
  Object.assign(
    (f.jobs as Json[]).find((j) => j.id === id)!,
    patch,
  );

test('cron in a time zone across the spring-forward change: 06:00 Berlin is 05:00Z, then 04:00Z from 28 March 2027; a time in the gap fires when it ends', async () => {
  const m = await simMock({}, {}, (f) => {
    f.now = '2027-03-26T00:00:00.000Z';
    setJob(NIGHTLY, { next_run_at: '2027-03-26T05:00:00.000Z' })(f);
    setJob(WEEKLY, { next_run_at: '2027-03-26T01:30:00.000Z', schedule: { cron: '30 2 * * *', timezone: 'Europe/Berlin' } })(f);
  });
  await m.mock.control.runSimulation({ until: '2027-03-30T00:00:00.000Z' });
  const runs = jobRuns(m, NIGHTLY);
  assert.equal(
    runs.map((r) => r.created_at),
    ['2027-03-26T05:00:00.000Z', '2027-03-27T05:00:00.000Z', '2027-03-28T04:00:00.000Z', '2027-03-29T04:00:00.000Z'],
  );
  assert.ok(runs.every((r) => r.status === 'succeeded'));
  // 02:30 does not exist in Berlin on 28 March 2027: that day it fires at 03:00 CEST (01:00Z), when the gap ends.
  assert.equal(
    jobRuns(m, WEEKLY).map((r) => r.created_at),
    ['2027-03-26T01:30:00.000Z', '2027-03-27T01:30:00.000Z', '2027-03-28T01:00:00.000Z', '2027-03-29T00:30:00.000Z'],
  );
  const job = (await m.http.get(`/api/v3/projects/${P}/jobs`).set(owner)).body.items.find((j: Json) => j.id === NIGHTLY);
  assert.equal([job.next_run_at, job.updated_at], ['2027-03-30T04:00:00.000Z', '2027-03-29T04:00:00.000Z']);
  const run = m.mock.store.get('runs', runs[0].id)!;
  assert.equal(
    [run.surface, run.release_id, run.user_id, run.request_metadata.agent_id],
    ['background', DEMO.releases.gen3Live, '8de86176-8369-482c-8c4f-f3e9bb211423', 'ec975fc1-69a6-49c0-a2a8-5acc292802c5'],
  );
});

test('cron across the fall-back change: Mondays 08:00 New York are 12:00Z, then 13:00Z from 8 November 2027; a repeated time fires once', async () => {
  const m = await simMock({}, {}, (f) => {
    f.now = '2027-10-24T00:00:00.000Z';
    setJob(WEEKLY, { next_run_at: '2027-10-25T12:00:00.000Z' })(f);
    setJob(NIGHTLY, { next_run_at: '2027-10-24T00:30:00.000Z', schedule: { cron: '30 2 * * *', timezone: 'Europe/Berlin' } })(f);
  });
  await m.mock.control.runSimulation({ until: '2027-11-09T00:00:00.000Z' });
  assert.equal(
    jobRuns(m, WEEKLY).map((r) => r.created_at),
    ['2027-10-25T12:00:00.000Z', '2027-11-01T12:00:00.000Z', '2027-11-08T13:00:00.000Z'],
  );
  // 02:30 Berlin happens twice on 31 October 2027 (fall back): it fires once, at the first.
  const nightly = jobRuns(m, NIGHTLY).map((r) => r.created_at);
  assert.equal(nightly.slice(6, 9), ['2027-10-30T00:30:00.000Z', '2027-10-31T00:30:00.000Z', '2027-11-01T01:30:00.000Z']);
});

test('a job with no next occurrence fires once and becomes completed', async () => {
  const m = await simMock({}, {}, setJob(NIGHTLY, { next_run_at: '2026-11-20T13:00:00.000Z', schedule: { every: 'now and then' } }));
  await m.mock.control.runSimulation({ until: '2026-11-23T00:00:00.000Z' });
  assert.equal(
    jobRuns(m, NIGHTLY).map((r) => r.created_at),
    ['2026-11-20T13:00:00.000Z'],
  );
  const job = m.mock.store.get('jobs', NIGHTLY)!;
  assert.equal([job.status, job.next_run_at, job.updated_at], ['completed', '2026-11-20T13:00:00.000Z', '2026-11-20T13:00:00.000Z']);
});

test("a failed job run is retried per retry_policy (3 attempts, 300 s apart), through the retry endpoint's transaction", async () => {
  const failing = {
    project_id: P,
    ...KNOWN,
    agents: [
      {
        agent_id: 'ec975fc1-69a6-49c0-a2a8-5acc292802c5',
        queue_wait_ms: 0,
        steps: [{ name: 'digest', step_type: 'model', duration_ms: 1000 }],
        outcome: { status: 'failed', error: 'model_overloaded' },
      },
    ],
  };
  const m = await simMock({ behaviours: { projects: [failing] } }, {}, setJob(NIGHTLY, { next_run_at: '2026-11-20T13:00:00.000Z' }));
  await m.mock.control.runSimulation({ until: '2026-11-20T14:00:00.000Z' });
  const runs = jobRuns(m, NIGHTLY);
  assert.equal(
    runs.map((r) => [r.created_at, r.status, r.request_metadata.attempt]),
    [
      ['2026-11-20T13:00:00.000Z', 'failed', 1],
      ['2026-11-20T13:05:01.000Z', 'failed', 2],
      ['2026-11-20T13:10:02.000Z', 'failed', 3],
    ],
  );
  assert.equal(
    [runs[1].request_metadata.retry_of, runs[2].request_metadata.retry_of, runs[1].request_metadata.retry_reason],
    [runs[0].id, runs[1].id, 'retry_policy'],
  );
});

test("budget: a run whose next step would cross the user's daily limit fails before it; the day's totals reset at UTC midnight", async () => {
  const cheap = { project_id: P, queue_wait_ms: 0, steps: [{ name: 'answer', step_type: 'model', duration_ms: 100, cost_usd: 0.002 }] };
  const m = await simMock({ behaviours: { projects: [cheap] } }, {}, (f) => {
    f.now = '2026-11-30T23:00:00.000Z';
    for (const j of f.jobs as Json[]) j.status = 'paused';
    (f.projects as Json[])[0].budget = {
      funding_mode: 'prepaid',
      credit_balance_usd: 100,
      current_daily_spend_usd: 1,
      current_monthly_spend_usd: 10,
      limits: { user_daily_usd: 0.005, user_monthly_usd: 1 },
    };
  });
  const runs: string[] = [];
  // One at a time: a run is checked against the spend of the runs finished before it.
  for (const [text, from] of [
    ['a', 1],
    ['b', 1],
    ['c', 1],
    ['d', 2],
  ] as const) {
    runs.push(await chat(m, text, from));
    await advance(m, 1000);
  }
  const got = await Promise.all(runs.map((id) => getRun(m, id)));
  assert.equal(
    got.map((r) => r.status),
    ['succeeded', 'succeeded', 'failed', 'succeeded'],
  );
  assert.equal(got[2].result, { error: 'budget_exceeded', limit: 'user_daily_usd', step: 'answer' });
  assert.equal(got[2].steps, [], 'it failed before the step');
  assert.equal(
    got[2].events.map((e) => e.type),
    ['run.started', 'run.failed'],
  );
  let b = m.mock.store.get('budgets', P)!;
  assert.equal([b.current_daily_spend_usd, b.current_monthly_spend_usd, b.credit_balance_usd], [1.006, 10.006, 99.994]);
  await m.mock.control.setClock('2026-12-01T00:00:00.000Z');
  b = m.mock.store.get('budgets', P)!;
  assert.equal([b.current_daily_spend_usd, b.current_monthly_spend_usd], [0, 0], 'midnight of the 1st resets the day and the month');
  const next = await chat(m, 'e', 1);
  await advance(m, 1000);
  assert.is((await getRun(m, next)).status, 'succeeded', 'a new day: the user may spend again');
  assert.equal(m.mock.store.get('budgets', P)!.current_daily_spend_usd, 0.002);
});

test("budget: a step charged at exactly 00:00 UTC counts in the new day (the day's reset, due at the same instant, goes first)", async () => {
  // No spend yet, so no reset is pending. Run B is queued first for 00:00:00.000; run A, charged at 23:59:59.001,
  // then schedules the reset for that same midnight: it was scheduled after B's start, and must still go first.
  const cheap = { project_id: P, queue_wait_ms: 1000, steps: [{ name: 'answer', step_type: 'model', duration_ms: 100, cost_usd: 0.002 }] };
  const m = await simMock({ behaviours: { projects: [cheap] } }, {}, (f) => {
    f.now = '2026-11-30T23:59:58.001Z';
    for (const j of f.jobs as Json[]) j.status = 'paused';
    (f.projects as Json[])[0].budget = {
      funding_mode: 'prepaid',
      credit_balance_usd: 100,
      current_daily_spend_usd: 0,
      current_monthly_spend_usd: 0,
      limits: { user_daily_usd: 5, user_monthly_usd: 50 },
    };
  });
  const a = await chat(m, 'before midnight', 1);
  await advance(m, 999);
  const b = await chat(m, 'at midnight', 2);
  await advance(m, 1);
  let budget = m.mock.store.get('budgets', P)!;
  assert.equal([budget.current_daily_spend_usd, budget.current_monthly_spend_usd, budget.credit_balance_usd], [0.002, 0.002, 99.998], 'A charged on the 30th');
  await advance(m, 999);
  const runB = await getRun(m, b);
  assert.equal(
    runB.steps.map((st) => [st.name, st.created_at]),
    [['answer', '2026-12-01T00:00:00.000Z']],
    "B's step began at midnight",
  );
  budget = m.mock.store.get('budgets', P)!;
  assert.equal(
    [budget.current_daily_spend_usd, budget.current_monthly_spend_usd, budget.credit_balance_usd],
    [0.002, 0.002, 99.996],
    'the reset ran first, then B was charged',
  );
  await advance(m, 1000);
  assert.equal([(await getRun(m, a)).status, (await getRun(m, b)).status], ['succeeded', 'succeeded']);
});

test('budget: prepaid credit cannot go below zero; a free sandbox counts spend against its limits but spends no credit', async () => {
  const cheap = { project_id: P, queue_wait_ms: 0, steps: [{ name: 'answer', step_type: 'model', duration_ms: 100, cost_usd: 0.002 }] };
  const prepaid = await simMock(
    { behaviours: { projects: [cheap] } },
    {},
    (f) => ((f.projects as Json[])[0].budget = { funding_mode: 'prepaid', credit_balance_usd: 0.003 }),
  );
  const a = [await chat(prepaid)];
  await advance(prepaid, 1000);
  a.push(await chat(prepaid));
  await advance(prepaid, 1000);
  const statuses = await Promise.all(a.map(async (id) => (await getRun(prepaid, id)).result));
  assert.equal(statuses[1], { error: 'budget_exceeded', limit: 'credit_balance_usd', step: 'answer' });
  assert.is(prepaid.mock.store.get('budgets', P)!.credit_balance_usd, 0.001);
  const sandbox = await simMock(
    { behaviours: { projects: [cheap] } },
    {},
    (f) => ((f.projects as Json[])[0].budget = { funding_mode: 'free_sandbox', credit_balance_usd: 10, limits: { project_daily_usd: 0.003 } }),
  );
  const s = [await chat(sandbox)];
  await advance(sandbox, 1000);
  s.push(await chat(sandbox));
  await advance(sandbox, 1000);
  assert.equal((await getRun(sandbox, s[1])).result.limit, 'project_daily_usd');
  const sb = sandbox.mock.store.get('budgets', P)!;
  assert.equal([sb.credit_balance_usd, sb.current_daily_spend_usd], [10, 0.002]);
});

test.run();
