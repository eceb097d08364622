// Behaviour of the control-driven run lifecycle: creation in any mode and surface, legal and illegal edges (table-driven), approvals.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, stateOf, type TestMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { RUN_TRANSITIONS } from '../../src/domain/run-lifecycle.js';
import { CountingAdapter } from '../helpers/ops.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const STATUSES = ['queued', 'running', 'waiting_approval', 'succeeded', 'failed', 'cancelled'] as const;
type Status = (typeof STATUSES)[number];

/** The documented table, written out independently of the code: a change to either fails here. */
const LEGAL: Record<Status, Status[]> = {
  queued: ['running', 'cancelled'],
  running: ['waiting_approval', 'succeeded', 'failed', 'cancelled'],
  waiting_approval: ['running', 'queued', 'cancelled', 'failed'],
  succeeded: [],
  failed: [],
  cancelled: [],
};

async function runIn({ http }: TestMock, status: Status): Promise<string> {
  const res = await http.post(`/_mock/projects/${P}/runs`).send({ status });
  assert.is(res.status, 200);
  return res.body.id;
}

test('transition table: the code matches the documented edges', () => {
  assert.equal(RUN_TRANSITIONS, LEGAL);
});

for (const from of STATUSES) {
  for (const to of STATUSES) {
    const legal = LEGAL[from].includes(to);
    test(`transition: ${from} -> ${to} is ${legal ? 'allowed' : '409 illegal_transition'}`, async () => {
      const m = await freshMock();
      const id = await runIn(m, from);
      const before = stateOf(m.mock);
      const res = await m.http.post(`/_mock/projects/${P}/runs/${id}/transition`).send({ to });
      if (legal) {
        assert.is(res.status, 200);
        assert.is(res.body.status, to);
      } else {
        assert.is(res.status, 409);
        assert.is(res.body.detail.reason_code, 'illegal_transition');
        assert.is(res.body.detail.affected_resource, `run:${id}`);
        assert.is(stateOf(m.mock), before);
      }
    });
  }
}

test('transition: running -> succeeded appends steps and result', async () => {
  const m = await freshMock();
  const id = await runIn(m, 'running');
  await m.http.post(`/_mock/projects/${P}/runs/${id}/transition`).send({ to: 'running' }); // illegal, ignored
  const res = await m.http.post(`/_mock/projects/${P}/runs/${id}/transition`).send({
    to: 'succeeded',
    steps: [
      { name: 'lookup', status: 'succeeded', step_type: 'tool' },
      { name: 'answer', status: 'succeeded', step_type: 'model' },
    ],
    events: [{ type: 'custom', n: 1 }],
    result: { output: 'done' },
    timing: { model_ms: 120 },
    cost_usd: 0.01,
    input_tokens: 10,
    output_tokens: 5,
  });
  assert.is(res.status, 200);
  assert.equal(
    res.body.steps.map((s: { name: string; sequence: number; surface: string }) => [s.name, s.sequence, s.surface]),
    [
      ['lookup', 1, 'api'],
      ['answer', 2, 'api'],
    ],
  );
  assert.equal(res.body.result, { output: 'done' });
  assert.equal(res.body.timing, { model_ms: 120 });
  assert.equal(res.body.events, [
    { type: 'run.succeeded', at: DEMO.now },
    { type: 'custom', n: 1 },
  ]);
  assert.is(res.body.cost_usd, 0.01);
  const read = await m.http.get(`/api/v3/projects/${P}/runs/${id}`).set(owner);
  assert.equal(read.body.steps.length, 2);
  assert.is(read.body.status, 'succeeded');
});

test('transition: timing and result merge with what the run had', async () => {
  const m = await freshMock();
  const created = await m.http.post(`/_mock/projects/${P}/runs`).send({ status: 'running', timing: { queue_wait_ms: 5 }, result: { a: 1 } });
  const res = await m.http
    .post(`/_mock/projects/${P}/runs/${created.body.id}/transition`)
    .send({ to: 'failed', timing: { active_ms: 9 }, result: { error: 'boom' } });
  assert.equal(res.body.timing, { queue_wait_ms: 5, active_ms: 9 });
  assert.equal(res.body.result, { a: 1, error: 'boom' });
});

test('transition: entering waiting_approval creates a pending approval in the same transaction', async () => {
  const adapter = new CountingAdapter();
  const m = await freshMock({ storage: adapter });
  const id = await runIn(m, 'running');
  const before = adapter.sets;
  const res = await m.http.post(`/_mock/projects/${P}/runs/${id}/transition`).send({
    to: 'waiting_approval',
    approval: { tool_id: 'billing.refund', action_summary: 'Refund $5', tool_arguments: { amount: 5 }, expires_in_ms: 60_000 },
  });
  assert.is(adapter.sets - before, 1);
  assert.equal(
    adapter.written('runs').map((r) => [r.id, r.status]),
    [[id, 'waiting_approval']],
  );
  assert.is(adapter.written('approvals').length, 1);
  assert.is(res.status, 200);
  const a = res.body.approval;
  assert.match(a.approval_id, /^apr_/);
  assert.is(a.status, 'pending');
  assert.is(a.run_id, id);
  assert.is(a.requested_at, DEMO.now);
  assert.is(a.expires_at, '2026-11-20T12:01:00.000Z');
  assert.match(a.binding_fingerprint, /^[0-9a-f]{64}$/);
  assert.not.ok('tool_arguments' in a);
  const listed = await m.http.get(`/api/v3/projects/${P}/approvals/${a.approval_id}`).set(owner);
  assert.is(listed.status, 200);
  assert.is(listed.body.session_id, a.session_id);
});

test('transition: the deny endpoint re-enqueues a run the control surface parked', async () => {
  const m = await freshMock();
  const id = await runIn(m, 'running');
  const parked = await m.http.post(`/_mock/projects/${P}/runs/${id}/transition`).send({ to: 'waiting_approval' });
  const deny = await m.http.post(`/api/v3/projects/${P}/approvals/${parked.body.approval.approval_id}/deny`).set(owner).send({ reason: 'no' });
  assert.is(deny.status, 200);
  assert.is(deny.body.enqueued, true);
  assert.is(m.mock.store.get('runs', id)!.status, 'queued');
});

for (const [to, outcome] of [
  ['running', 'approved'],
  ['queued', 'denied'],
  ['cancelled', 'cancelled'],
  ['failed', 'cancelled'],
] as const) {
  test(`transition: waiting_approval -> ${to} settles the pending approval as ${outcome}`, async () => {
    const m = await freshMock();
    const created = await m.http.post(`/_mock/projects/${P}/runs`).send({ status: 'waiting_approval' });
    const approvalId = created.body.approval.approval_id;
    await m.http.post(`/_mock/projects/${P}/runs/${created.body.id}/transition`).send({ to });
    const a = await m.http.get(`/api/v3/projects/${P}/approvals/${approvalId}`).set(owner);
    assert.is(a.body.status, outcome);
    assert.is(a.body.decided_at, DEMO.now);
  });
}

test('transition: cancelling settles pending steps', async () => {
  const m = await freshMock();
  const created = await m.http.post(`/_mock/projects/${P}/runs`).send({ status: 'running', steps: [{ name: 'a', status: 'succeeded' }, { name: 'b' }] });
  const res = await m.http.post(`/_mock/projects/${P}/runs/${created.body.id}/transition`).send({ to: 'cancelled' });
  assert.equal(
    res.body.steps.map((s: { status: string }) => s.status),
    ['succeeded', 'cancelled'],
  );
});

test('transition: terminal runs of the fixture refuse every edge', async () => {
  const m = await freshMock();
  const res = await m.http.post(`/_mock/projects/${P}/runs/${DEMO.runs.failedApi}/transition`).send({ to: 'running' });
  assert.is(res.status, 409);
  assert.match(res.body.detail.message, /none \(terminal\)/);
});

test("transition: an unknown status is 422, another project's run 404", async () => {
  const m = await freshMock();
  let res = await m.http.post(`/_mock/projects/${P}/runs/${DEMO.runs.failedApi}/transition`).send({ to: 'paused' });
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['body', 'to']);
  res = await m.http.post(`/_mock/projects/${DEMO.projects.sales}/runs/${DEMO.runs.failedApi}/transition`).send({ to: 'running' });
  assert.is(res.status, 404);
  assert.is(res.body.detail.reason_code, 'run_not_found');
});

for (const surface of ['api', 'chatapp', 'background', 'dashboard'] as const) {
  for (const mode of ['live', 'test'] as const) {
    test(`create: a ${mode} ${surface} run`, async () => {
      const m = await freshMock();
      const res = await m.http.post(`/_mock/projects/${P}/runs`).send({ surface, runtime_mode: mode, request_metadata: { k: 'v' } });
      assert.is(res.status, 200);
      assert.is(res.body.surface, surface);
      assert.is(res.body.runtime_mode, mode);
      assert.equal(res.body.request_metadata, { k: 'v' });
      assert.is(res.body.created_at, DEMO.now);
    });
  }
}

test('create: a failed background run can then be retried by the v3 endpoint', async () => {
  const m = await freshMock();
  const created = await m.http.post(`/_mock/projects/${P}/runs`).send({ status: 'failed', surface: 'background' });
  const retry = await m.http.post(`/api/v3/projects/${P}/runs/${created.body.id}/retry`).set(owner).send({});
  assert.is(retry.status, 201);
});

test('create: release and user are checked against the project', async () => {
  const m = await freshMock();
  let res = await m.http.post(`/_mock/projects/${P}/runs`).send({ release_id: DEMO.releases.sales });
  assert.is(res.status, 404);
  assert.is(res.body.detail.reason_code, 'release_not_found');
  res = await m.http.post(`/_mock/projects/${P}/runs`).send({ user_id: DEMO.projects.sales });
  assert.is(res.status, 404);
  assert.is(res.body.detail.reason_code, 'user_not_found');
  res = await m.http.post(`/_mock/projects/${P}/runs`).send({ release_id: null });
  assert.is(res.body.release_id, null);
  res = await m.http.post(`/_mock/projects/${P}/runs`).send({ release_id: DEMO.releases.gen1 });
  assert.is(res.body.release_id, DEMO.releases.gen1);
});

test('create: bad fields are 422 at their loc; an existing id 409', async () => {
  const m = await freshMock();
  const before = stateOf(m.mock);
  let res = await m.http.post(`/_mock/projects/${P}/runs`).send({ surface: 'fax', steps: [{}] });
  assert.is(res.status, 422);
  assert.equal(
    res.body.detail.map((d: { loc: unknown[] }) => d.loc),
    [
      ['body', 'surface'],
      ['body', 'steps', 0, 'name'],
    ],
  );
  res = await m.http.post(`/_mock/projects/${P}/runs`).send({ id: DEMO.runs.failedApi });
  assert.is(res.status, 409);
  assert.is(stateOf(m.mock), before);
});

test('create: the in-process API creates and transitions the same way', async () => {
  const m = await freshMock();
  const run = await m.mock.control.createRun(P, { status: 'running' });
  const next = await m.mock.control.transitionRun(P, run.id as string, { to: 'waiting_approval', approval: { tool_id: 't' } });
  assert.is(next.status, 'waiting_approval');
  assert.ok(next.approval);
  try {
    await m.mock.control.transitionRun(P, run.id as string, { to: 'succeeded' });
    assert.unreachable();
  } catch (err) {
    assert.is((err as { reason_code: string }).reason_code, 'illegal_transition');
  }
});

test('approval: a control-opened approval expires 24 hours after it is requested unless expires_in_ms says otherwise', async () => {
  const m = await freshMock();
  const plain = await m.http.post(`/_mock/projects/${P}/runs`).send({ status: 'waiting_approval' });
  assert.is(plain.body.approval.requested_at, DEMO.now);
  assert.is(plain.body.approval.expires_at, '2026-11-21T12:00:00.000Z');
  assert.is(plain.body.approval.status, 'pending');
  const short = await m.http.post(`/_mock/projects/${P}/runs`).send({ status: 'waiting_approval', approval: { expires_in_ms: 90_000 } });
  assert.is(short.body.approval.expires_at, '2026-11-20T12:01:30.000Z');
  const running = await m.http.post(`/_mock/projects/${P}/runs`).send({ status: 'running' });
  const moved = await m.http.post(`/_mock/projects/${P}/runs/${running.body.id}/transition`).send({ to: 'waiting_approval' });
  assert.is(moved.body.approval.expires_at, '2026-11-21T12:00:00.000Z');
});

test.run();
