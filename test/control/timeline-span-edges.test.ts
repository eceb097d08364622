// GET /_mock/timeline at the edges of its span: `from` counted and `to` not (runs, approvals, spend), history stored out of time order, the earliest run of a bucket, a span given by `to` alone, and series that hold their buckets only.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO, bearer } from '../helpers/demo.js';
import { FROM, HOUR, TO, approvalAt, iso, runAt, spanMock, timelineOf, type Json } from '../helpers/timeline.js';

const { support, sales, globex } = DEMO.projects;

test('a run and an approval at the first ms of the span are in its first bucket; at `to` they are in none, nor is their spend', async () => {
  const m = await spanMock();
  await runAt(m, sales, FROM, { cost_usd: 0.5 });
  await runAt(m, sales, FROM + 90 * 60_000, { status: 'failed', cost_usd: 0.25 });
  await runAt(m, globex, TO, { cost_usd: 3 });
  await approvalAt(m, support, FROM);
  await approvalAt(m, support, TO);
  const t = await timelineOf(m);
  assert.equal([t.buckets, t.bucket_ms], [4, HOUR]);
  assert.equal(t.runs.succeeded, [1, 0, 0, 0]);
  assert.equal(t.runs.failed, [0, 1, 0, 0]);
  assert.equal(t.runs.waiting_approval, [1, 0, 0, 0], 'the run waiting for the approval at `to` is not in the span');
  assert.equal(t.approvals.opened, [1, 0, 0, 0]);
  assert.equal(
    t.spend.map((s: Json) => [s.project_id, s.usd]),
    [[sales, [0.5, 0.25, 0, 0]]],
  );
  assert.is(t.spend_projects_omitted, 0);
  await m.mock.close();
});

test('runs and approvals stored out of time order are each counted in their own bucket, and a bucket opens its earliest run', async () => {
  const m = await spanMock();
  // Stored in this order: one after the span first, then the span's backwards.
  await runAt(m, sales, TO + HOUR);
  const late = await runAt(m, sales, FROM + 30 * 60_000);
  const early = await runAt(m, sales, FROM + 10 * 60_000);
  const third = await runAt(m, support, FROM + 3 * HOUR);
  await approvalAt(m, sales, TO + HOUR);
  await approvalAt(m, sales, FROM + 2 * HOUR);
  const t = await timelineOf(m);
  assert.equal(t.runs.succeeded, [2, 0, 0, 1]);
  assert.equal(t.runs.waiting_approval, [0, 0, 1, 0]);
  assert.equal(t.approvals.opened, [0, 0, 1, 0]);
  assert.equal(t.first.run[0], { id: early, project_id: sales }, `not ${late}`);
  assert.equal(t.first.run[3], { id: third, project_id: support });
  assert.equal(t.first.run[1], null);
  await m.mock.close();
});

test('`to` alone: the span starts a day before it, in 96 buckets; `from` one ms after `to` is refused, `from` = `to` is empty', async () => {
  const m = await spanMock();
  const alone = await timelineOf(m, `to=${iso(TO)}`);
  assert.equal([alone.from, alone.to, alone.buckets, alone.bucket_ms], [iso(TO - 24 * HOUR), iso(TO), 96, 15 * 60_000]);
  const after = await m.http.get(`/_mock/timeline?from=${iso(TO + 1)}&to=${iso(TO)}`);
  assert.is(after.status, 422);
  assert.equal([after.body.detail[0].loc, after.body.detail[0].type], [['query', 'from'], 'value_error']);
  const empty = await timelineOf(m, `from=${iso(TO)}&to=${iso(TO)}`);
  assert.equal([empty.buckets, empty.runs.succeeded], [0, []]);
  await m.mock.close();
});

test('in process: every series holds one count per bucket and no other key, with history before, at and after the span', async () => {
  const m = await spanMock();
  // Requests journaled before the span, at its end and in it; runs and approvals likewise (the demo's are all before it).
  for (const ms of [FROM - HOUR, TO, FROM + HOUR]) {
    await m.mock.control.setClock(iso(ms));
    await m.http.get(`/api/v3/projects/${support}/runs/00000000-0000-4000-8000-000000000000`).set(bearer(DEMO.tokens.owner)).expect(404);
    await runAt(m, sales, ms, { cost_usd: 1 });
  }
  await approvalAt(m, sales, TO);
  const t = m.mock.control.timeline({ from: iso(FROM), to: iso(TO), buckets: 4 });
  const series: [string, unknown[]][] = [
    ...Object.entries(t.runs),
    ...Object.entries(t.requests),
    ['approvals.opened', t.approvals.opened],
    ['approvals.decided', t.approvals.decided],
    ['jobs_fired', t.jobs_fired],
    ['first.request', t.first.request],
    ['first.run', t.first.run],
    ...t.spend.map((s) => [`spend ${s.project_id}`, s.usd] as [string, unknown[]]),
  ];
  for (const [name, s] of series) assert.equal(Object.keys(s), ['0', '1', '2', '3'], name);
  assert.equal(t.requests['4xx'], [0, 1, 0, 0]);
  assert.equal(t.runs.succeeded, [0, 1, 0, 0]);
  assert.equal(t.approvals.opened, [0, 0, 0, 0]);
  assert.equal(
    t.spend.map((s) => s.usd),
    [[0, 1, 0, 0]],
  );
  await m.mock.close();
});

test.run();
