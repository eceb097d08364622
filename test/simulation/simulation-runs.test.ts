// What a simulated run does: legal edges, steps, events, exact timing, usage and spend; approvals approved, denied, expired; cancel.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO } from '../helpers/demo.js';
import { HOUR, KNOWN, P, advance, at, chat, getRun, owner, simMock, statusPath } from '../helpers/simulation.js';

const NOW = DEMO.now;

test('a chat message: queued in the answer and right after; an hour later succeeded, every time stamped as it happened', async () => {
  const m = await simMock();
  const id = await chat(m);
  assert.is((await getRun(m, id)).status, 'queued');
  assert.is((await getRun(m, id)).status, 'queued', 'a frozen clock that is not advanced fires nothing');
  await advance(m, HOUR);
  const run = await getRun(m, id);
  assert.is(run.status, 'succeeded');
  assert.equal(statusPath(run), ['queued', 'running', 'waiting_approval', 'running', 'succeeded']);
  // 1 s queue, recall 200, think 1500, gate 60 s, refund 500, reply 1000: the end at +64.2 s.
  assert.equal(run.timing, {
    queue_wait_ms: 1000,
    memory_ms: 200,
    model_ms: 2500,
    tool_ms: 500,
    skill_ms: 0,
    approval_wait_ms: 60_000,
    active_ms: 3200,
    end_to_end_ms: 64_200,
  });
  assert.is(run.latency_ms, 64_200);
  assert.is(run.cost_usd, 0.003);
  assert.is(run.input_tokens, 1500);
  assert.is(run.output_tokens, 150);
  assert.equal(
    run.steps.map((s) => [s.sequence, s.name, s.step_type, s.status, s.created_at]),
    [
      [1, 'recall', 'memory', 'succeeded', at(NOW, 1000)],
      [2, 'think', 'model', 'succeeded', at(NOW, 1200)],
      [3, 'approval: refund', 'approval', 'succeeded', at(NOW, 2700)],
      [4, 'refund', 'tool', 'succeeded', at(NOW, 2700)],
      [5, 'reply', 'model', 'succeeded', at(NOW, 63_200)],
    ],
  );
  assert.equal(
    run.events.map((e) => [e.type, e.at]),
    [
      ['run.started', at(NOW, 1000)],
      ['step.started', at(NOW, 1000)],
      ['step.succeeded', at(NOW, 1200)],
      ['step.started', at(NOW, 1200)],
      ['step.succeeded', at(NOW, 2700)],
      ['run.waiting_approval', at(NOW, 2700)],
      ['approval.requested', at(NOW, 2700)],
      ['run.started', at(NOW, 62_700)],
      ['approval.approved', at(NOW, 62_700)],
      ['step.started', at(NOW, 62_700)],
      ['step.succeeded', at(NOW, 63_200)],
      ['step.started', at(NOW, 63_200)],
      ['step.succeeded', at(NOW, 64_200)],
      ['run.succeeded', at(NOW, 64_200)],
    ],
  );
  const approval = m.mock.store.get('approvals', [...m.mock.store.values('approvals')].find((a) => a.run_id === id)!.id)!;
  assert.equal([approval.status, approval.requested_at, approval.decided_at, approval.tool_id], ['approved', at(NOW, 2700), at(NOW, 62_700), 'refund']);
  // Spend: the fixture's 18.42 / 387.15 plus 0.003; prepaid credit 1250 minus 0.003.
  const budget = m.mock.store.get('budgets', P)!;
  assert.equal([budget.current_daily_spend_usd, budget.current_monthly_spend_usd, budget.credit_balance_usd], [18.423, 387.153, 1249.997]);
});

test('the pending list: the run start, then each next transition, in time order with ids', async () => {
  const m = await simMock();
  const id = await chat(m);
  const first = (await m.http.get('/_mock/simulation')).body;
  assert.is(first.mode, 'auto');
  const runEvents = first.pending.filter((e: { run_id?: string }) => e.run_id === id);
  assert.equal(runEvents, [{ at: at(NOW, 1000), kind: 'run.start', project_id: P, run_id: id }]);
  const times = first.pending.map((e: { at: string }) => e.at);
  assert.equal(times, [...times].sort());
  await advance(m, 2700);
  const waiting = (await m.http.get('/_mock/simulation')).body.pending.find((e: { run_id?: string }) => e.run_id === id);
  assert.is(waiting.kind, 'approval.decide');
  assert.is(waiting.at, at(NOW, 62_700));
  assert.match(waiting.approval_id, /^apr_/);
});

test('a deny over endpoint 11 re-queues the run; after the queue wait the behaviour goes on past the skipped tool step', async () => {
  const m = await simMock();
  const id = await chat(m);
  await advance(m, 10_000); // waiting for the reviewer since +2.7 s
  const pending = (await m.http.get(`/api/v3/projects/${P}/approvals?status=pending`).set(owner)).body.items.find((a: { run_id?: string }) => a.run_id === id);
  const deny = await m.http.post(`/api/v3/projects/${P}/approvals/${pending.approval_id}/deny`).set(owner).send({ reason: 'no refunds today' });
  assert.is(deny.status, 200);
  assert.is(deny.body.enqueued, true);
  assert.is((await getRun(m, id)).status, 'queued', 'the deny answer and a read right after see the re-queued run');
  await advance(m, HOUR);
  const run = await getRun(m, id);
  assert.equal(statusPath(run), ['queued', 'running', 'waiting_approval', 'queued', 'running', 'succeeded']);
  assert.equal(
    run.steps.map((s) => [s.name, s.status]),
    [
      ['recall', 'succeeded'],
      ['think', 'succeeded'],
      ['approval: refund', 'failed'],
      ['refund', 'skipped'],
      ['reply', 'succeeded'],
    ],
  );
  // Waited 7.3 s for the reviewer, queued again 1 s, reply 1 s: the end at +10 s + 1 s + 1 s.
  assert.equal([run.timing.approval_wait_ms, run.timing.queue_wait_ms, run.timing.active_ms, run.timing.end_to_end_ms], [7300, 2000, 2700, 12_000]);
  assert.is(run.cost_usd, 0.003);
});

test('the simulated reviewer denies through the same deny: re-queued, and the behaviour goes on', async () => {
  const steps = KNOWN.steps.map((s) => (s.approval ? { ...s, approval: { decision: 'deny', decide_after_ms: 30_000 } } : s));
  const m = await simMock({ behaviours: { projects: [{ project_id: P, ...KNOWN, steps }] } });
  const id = await chat(m);
  await advance(m, HOUR);
  const run = await getRun(m, id);
  assert.equal(statusPath(run), ['queued', 'running', 'waiting_approval', 'queued', 'running', 'succeeded']);
  const approval = [...m.mock.store.values('approvals')].find((a) => a.run_id === id)!;
  assert.equal([approval.status, approval.decided_at, approval.decision_reason], ['denied', at(NOW, 32_700), 'denied by the simulated reviewer']);
  assert.is(run.timing.end_to_end_ms, 32_700 + 1000 + 1000);
});

test('an approval nobody decides expires: the approval is expired, its gate failed, the tool skipped, the run failed approval_expired', async () => {
  const steps = KNOWN.steps.map((s) => (s.approval ? { ...s, approval: { decision: 'none', expires_in_ms: 120_000 } } : s));
  const m = await simMock({ behaviours: { projects: [{ project_id: P, ...KNOWN, steps }] } });
  const id = await chat(m);
  await advance(m, 60_000);
  assert.is((await getRun(m, id)).status, 'waiting_approval');
  await advance(m, HOUR);
  const run = await getRun(m, id);
  assert.equal(statusPath(run), ['queued', 'running', 'waiting_approval', 'failed']);
  assert.is(run.result.error, 'approval_expired');
  // Steps appear as they begin: `reply` never began.
  assert.equal(
    run.steps.map((s) => [s.name, s.status]),
    [
      ['recall', 'succeeded'],
      ['think', 'succeeded'],
      ['approval: refund', 'failed'],
      ['refund', 'skipped'],
    ],
  );
  assert.equal([run.timing.approval_wait_ms, run.timing.end_to_end_ms], [120_000, 122_700]);
  const approval = [...m.mock.store.values('approvals')].find((a) => a.run_id === id)!;
  assert.equal([approval.status, approval.decided_at], ['expired', at(NOW, 122_700)]);
  assert.ok(run.events.some((e) => e.type === 'approval.expired'));
});

test("a cancel removes the run's future events; its timing closes at the cancel", async () => {
  const m = await simMock();
  const id = await chat(m);
  await advance(m, 1500); // in `think` since +1.2 s
  const res = await m.http.post(`/api/v3/projects/${P}/runs/${id}/cancel`).set(owner).send({ reason: 'changed my mind' });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'cancelled');
  const pending = (await m.http.get('/_mock/simulation')).body.pending;
  assert.not.ok(pending.some((e: { run_id?: string }) => e.run_id === id));
  await advance(m, HOUR);
  const run = await getRun(m, id);
  assert.equal(statusPath(run), ['queued', 'running', 'cancelled']);
  assert.equal(
    [run.timing.queue_wait_ms, run.timing.memory_ms, run.timing.model_ms, run.timing.active_ms, run.timing.end_to_end_ms],
    [1000, 200, 300, 500, 1500],
  );
});

test("a failed outcome fails the last step and the run with the behaviour's error; its usage still counts", async () => {
  const m = await simMock({ behaviours: { projects: [{ project_id: P, ...KNOWN, outcome: { status: 'failed', error: 'upstream_timeout' } }] } });
  const id = await chat(m);
  await advance(m, HOUR);
  const run = await getRun(m, id);
  assert.is(run.status, 'failed');
  assert.is(run.result.error, 'upstream_timeout');
  assert.is(run.steps.at(-1)!.status, 'failed');
  assert.is(run.cost_usd, 0.003);
});

test('outcome probabilities: drawn from the seeded generator, so the same seed gives the same outcomes', async () => {
  const outcomes = async (seed: number) => {
    const m = await simMock(
      { behaviours: { projects: [{ project_id: P, queue_wait_ms: 0, steps: [], outcome: { probabilities: { succeeded: 1, failed: 1 } } }] } },
      { seed },
    );
    const ids = [];
    for (let i = 0; i < 24; i++) ids.push(await chat(m, 'hi', 100 + i, 70_000 + i));
    await advance(m, 1);
    return Promise.all(ids.map(async (id) => (await getRun(m, id)).status));
  };
  const a = await outcomes(11);
  assert.equal(await outcomes(11), a);
  assert.ok(a.includes('succeeded') && a.includes('failed'), a.join());
});

test('control-created runs with simulate: true run whatever the mode; simulate on a run that is not queued is a 422', async () => {
  const m = await simMock({}, { simulation: { mode: 'off' } });
  const res = await m.http.post(`/_mock/projects/${P}/runs`).send({ simulate: true, request_metadata: { agent_id: 'support-bot' } });
  assert.is(res.status, 200);
  await advance(m, HOUR);
  assert.is((await getRun(m, res.body.id)).status, 'queued', 'mode off: nothing fires by itself');
  const ran = await m.http.post('/_mock/simulation/run').send({ idle: true });
  assert.is(ran.status, 200);
  assert.is((await getRun(m, res.body.id)).status, 'succeeded');
  const bad = await m.http.post(`/_mock/projects/${P}/runs`).send({ simulate: true, status: 'running' });
  assert.is(bad.status, 422);
  assert.equal(bad.body.detail[0].loc, ['body', 'simulate']);
});

test('a control transition takes a run out of the simulation: its pending event goes', async () => {
  const m = await simMock();
  const id = await chat(m);
  const res = await m.http.post(`/_mock/projects/${P}/runs/${id}/transition`).send({ to: 'running' });
  assert.is(res.status, 200);
  assert.not.ok((await m.http.get('/_mock/simulation')).body.pending.some((e: { run_id?: string }) => e.run_id === id));
  await advance(m, HOUR);
  assert.is((await getRun(m, id)).status, 'running');
});

test.run();
