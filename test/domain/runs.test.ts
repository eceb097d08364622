// Cancel (endpoint 4) and retry (endpoint 6): state rules, one-transaction writes, refusals that change nothing, authority.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { AS, refusals, CountingAdapter, assertError, assertInvalidAt } from '../helpers/ops.js';

const P = DEMO.projects.support;
const RUNS = {
  ...DEMO.runs,
  queuedApi: '81eef1af-723d-4970-93e7-7a3162e9146d',
  queuedBackground: '8cc30cbf-420f-4fd7-aee7-62c37f4896bb',
  running: 'a91df8d6-0a1d-4535-a849-e17f6c00d629',
  succeededBackground: 'a855c68a-6228-4c20-aa7c-480cafe54e67',
  cancelled: '7fcee3c9-b768-47bc-b05e-364f239db0ca',
  salesSucceeded: '4fc1db89-e2f1-43b5-acd6-2cb979dc9cfb',
  salesFailedBackground: '257b5a89-c6e3-489e-8176-07f2b6419c40',
};
const cancelPath = (run: string, project: string = P) => `/api/v3/projects/${project}/runs/${run}/cancel`;
const retryPath = (run: string, project: string = P) => `/api/v3/projects/${project}/runs/${run}/retry`;
const runPath = (run: string, project: string = P) => `/api/v3/projects/${project}/runs/${run}`;

// ---- cancel ----

test('cancel: waiting run -> cancelled, pending steps and approval cancelled, reason kept', async () => {
  const { mock, http } = await freshMock();
  const res = await http.post(cancelPath(RUNS.waitingApproval)).set(AS.operator).send({ reason: 'customer withdrew' });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.id, RUNS.waitingApproval);
  assert.is(res.body.status, 'cancelled');
  assert.is(res.body.result.cancel_reason, 'customer withdrew');
  assert.equal(
    res.body.steps.map((s: { status: string }) => s.status),
    ['succeeded', 'succeeded', 'cancelled', 'cancelled', 'cancelled'],
  );
  const detail = await http.get(runPath(RUNS.waitingApproval)).set(AS.viewer);
  assert.equal(detail.body, res.body);
  const approval = await http.get(`/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}`).set(AS.viewer);
  assert.is(approval.body.status, 'cancelled');
  assert.is(approval.body.decided_at, DEMO.now);
  // Approvals of other runs are untouched.
  const other = await http.get(`/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingOther}`).set(AS.viewer);
  assert.is(other.body.status, 'pending');
  assert.is(mock.store.get('runs', RUNS.waitingApproval)?.events.at(-1) !== undefined, true);
});

test('cancel: queued and running runs are cancellable; running steps stay, pending steps are cancelled', async () => {
  for (const [run, before, after] of [
    [RUNS.queuedApi, ['pending'], ['cancelled']],
    [RUNS.queuedBackground, ['pending', 'pending'], ['cancelled', 'cancelled']],
    [RUNS.running, ['succeeded', 'running', 'pending'], ['succeeded', 'running', 'cancelled']],
  ] as const) {
    const { mock, http } = await freshMock();
    assert.equal(
      mock.store.get('runs', run)?.steps.map((s) => s.status),
      [...before],
    );
    const res = await http.post(cancelPath(run)).set(AS.operator).send({ reason: 'stop' });
    assert.is(res.status, 200, run);
    assert.is(res.body.status, 'cancelled');
    assert.equal(
      res.body.steps.map((s: { status: string }) => s.status),
      [...after],
    );
  }
});

test('cancel: the reason is merged into the existing result; no body means no cancel_reason', async () => {
  const { mock, http } = await freshMock();
  mock.store.apply((tx) => {
    const run = tx.get('runs', RUNS.queuedApi)!;
    tx.put('runs', { ...run, result: { partial: 'draft' } });
  });
  const res = await http.post(cancelPath(RUNS.queuedApi)).set(AS.operator).send({ reason: 'dup' });
  assert.equal(res.body.result, { partial: 'draft', cancel_reason: 'dup' });
  const bare = await http.post(cancelPath(RUNS.running)).set(AS.operator);
  assert.is(bare.status, 200, JSON.stringify(bare.body));
  assert.equal(bare.body.result, {});
});

test('cancel: run, steps and approvals change in one transaction (one change set)', async () => {
  const adapter = new CountingAdapter();
  const { http } = await freshMock({ storage: adapter });
  const before = adapter.sets;
  const res = await http.post(cancelPath(RUNS.waitingApproval)).set(AS.operator).send({ reason: 'x' });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'cancelled');
  assert.is(res.body.result.cancel_reason, 'x');
  assert.is(adapter.sets - before, 1);
  assert.equal(
    adapter.written('runs').map((r) => [r.id, r.status]),
    [[RUNS.waitingApproval, 'cancelled']],
  );
  assert.equal(
    adapter.written('approvals').map((a) => [a.approval_id, a.status]),
    [[DEMO.approvals.pendingWaiting, 'cancelled']],
  );
});

test('cancel: a pending approval already past its expiry stays expired, not cancelled', async () => {
  const { mock, http } = await freshMock();
  mock.store.apply((tx) => {
    const a = tx.filter('approvals', (x) => x.approval_id === DEMO.approvals.pendingPastExpiry)[0];
    tx.put('approvals', { ...a, run_id: RUNS.running });
  });
  const res = await http.post(cancelPath(RUNS.running)).set(AS.operator).send({});
  assert.is(res.status, 200);
  assert.is(res.body.status, 'cancelled');
  assert.not.ok(
    res.body.events.some((e: { type: string }) => e.type === 'approval.cancelled'),
    'no approval was cancelled',
  );
  const a = await http.get(`/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingPastExpiry}`).set(AS.viewer);
  assert.is(a.body.status, 'expired');
});

test('cancel: succeeded, failed and cancelled runs -> 409 run_not_cancellable, nothing changes', async () => {
  for (const run of [RUNS.succeededBackground, RUNS.failedBackground, RUNS.failedApi, RUNS.cancelled]) {
    const { mock, http } = await freshMock();
    const before = stateOf(mock);
    const res = await http.post(cancelPath(run)).set(AS.operator).send({ reason: 'x' });
    assertError(res, 409, 'run_not_cancellable');
    assert.is(stateOf(mock), before, run);
  }
});

test('cancel: a cancelled run cannot be cancelled again', async () => {
  const { mock, http } = await freshMock();
  assert.is((await http.post(cancelPath(RUNS.queuedApi)).set(AS.operator).send({})).status, 200);
  const before = stateOf(mock);
  assertError(await http.post(cancelPath(RUNS.queuedApi)).set(AS.operator).send({}), 409, 'run_not_cancellable');
  assert.is(stateOf(mock), before);
});

test("cancel: unknown run, another project's run, bad ids and bad bodies are refused unchanged", async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(await http.post(cancelPath('00000000-0000-4000-8000-000000000000')).set(AS.operator).send({}), 404, 'run_not_found');
  assertError(await http.post(cancelPath(RUNS.salesSucceeded)).set(AS.operator).send({}), 404, 'run_not_found');
  assertInvalidAt(await http.post(cancelPath('not-a-uuid')).set(AS.operator).send({}), ['path', 'run_id']);
  assertInvalidAt(await http.post(cancelPath(RUNS.queuedApi)).set(AS.operator).send({ reason: 42 }), ['body', 'reason']);
  const malformed = await http.post(cancelPath(RUNS.queuedApi)).set(AS.operator).set('Content-Type', 'application/json').send('{"reason":');
  assert.is(malformed.status, 422);
  assert.is(malformed.body.detail[0].type, 'json_invalid');
  assertError(await http.post(cancelPath(RUNS.queuedApi, '00000000-0000-4000-8000-000000000000')).set(AS.operator).send({}), 404, 'project_not_found');
  assert.is(stateOf(mock), before);
});

// ---- retry ----

test('retry: failed background run -> 201, Location, a new queued run pinned to the same release', async () => {
  const { mock, http } = await freshMock();
  const old = mock.store.get('runs', RUNS.failedBackground)!;
  const res = await http
    .post(retryPath(RUNS.failedBackground))
    .set(AS.operator)
    .send({ reason: 'crm back up', metadata: { ticket: 'OPS-7' } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const id = res.body.id as string;
  assert.is.not(id, old.id);
  assert.is(res.headers.location, `/api/v3/projects/${P}/runs/${id}`);
  assert.is(res.body.status, 'queued');
  assert.is(res.body.project_id, P);
  assert.is(res.body.release_id, old.release_id);
  assert.is(res.body.surface, 'background');
  assert.is(res.body.runtime_mode, old.runtime_mode);
  assert.is(res.body.created_at, DEMO.now);
  assert.ok(res.body.trace_id && res.body.trace_id !== old.trace_id);
  assert.equal(res.body.request_metadata, { ...old.request_metadata, ticket: 'OPS-7', retry_of: old.id, retry_reason: 'crm back up' });
  // The response is a run (RunResponseV3), not a run detail.
  for (const k of ['steps', 'events', 'result']) assert.not.ok(k in res.body, k);
  const stored = mock.store.get('runs', id)!;
  assert.is(stored.user_id, old.user_id);
  const detail = await http.get(res.headers.location).set(AS.viewer);
  assert.is(detail.status, 200);
  assert.equal(detail.body.steps, []);
  assert.equal(detail.body.events, []);
  // The failed run itself is untouched.
  assert.equal(mock.store.get('runs', RUNS.failedBackground), old);
});

test('retry: body metadata merges over the old metadata but cannot forge retry_of', async () => {
  const { http } = await freshMock();
  const res = await http
    .post(retryPath(RUNS.failedBackground2))
    .set(AS.operator)
    .send({ metadata: { job_name: 'renamed', retry_of: 'forged' } });
  assert.is(res.status, 201);
  assert.is(res.body.request_metadata.job_name, 'renamed');
  assert.is(res.body.request_metadata.retry_of, RUNS.failedBackground2);
  assert.is(res.body.request_metadata.retry_reason, null);
});

test('retry: each retry of the same failed run makes a new run', async () => {
  const { http } = await freshMock();
  const a = await http.post(retryPath(RUNS.failedBackground)).set(AS.operator);
  const b = await http.post(retryPath(RUNS.failedBackground)).set(AS.operator).send({});
  assert.is(a.status, 201);
  assert.is(b.status, 201);
  assert.is.not(a.body.id, b.body.id);
});

test('retry: anything but a failed background run -> 409 run_not_retryable, nothing changes', async () => {
  for (const run of [RUNS.failedApi, RUNS.queuedBackground, RUNS.succeededBackground, RUNS.waitingApproval, RUNS.cancelled]) {
    const { mock, http } = await freshMock();
    const before = stateOf(mock);
    assertError(await http.post(retryPath(run)).set(AS.operator).send({ reason: 'x' }), 409, 'run_not_retryable');
    assert.is(stateOf(mock), before, run);
  }
});

test("retry: unknown run, another project's run and bad bodies are refused unchanged", async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(await http.post(retryPath('00000000-0000-4000-8000-000000000000')).set(AS.operator).send({}), 404, 'run_not_found');
  assertError(await http.post(retryPath(RUNS.salesFailedBackground)).set(AS.operator).send({}), 404, 'run_not_found');
  assertInvalidAt(await http.post(retryPath(RUNS.failedBackground)).set(AS.operator).send({ metadata: 'x' }), ['body', 'metadata']);
  assertInvalidAt(await http.post(retryPath(RUNS.failedBackground)).set(AS.operator).send({ reason: false }), ['body', 'reason']);
  assert.is(stateOf(mock), before);
});

// ---- authority and archived projects, both endpoints ----

// An admin key is no credential on endpoints 4 and 6.
const AUTHORITY = refusals('operator', false);

for (const [name, path, run] of [
  ['cancel', cancelPath, RUNS.waitingApproval],
  ['retry', retryPath, RUNS.failedBackground],
] as const) {
  test(`${name}: authority per actor (viewer/read-only 403, other workspace 404, no credentials 401), nothing changes`, async () => {
    const { mock, http } = await freshMock();
    const before = stateOf(mock);
    for (const [actor, status, reason] of AUTHORITY) {
      const res = await http.post(path(run)).set(AS[actor]).send({});
      assertError(res, status, reason);
    }
    assert.is(stateOf(mock), before);
    // Owners hold operator authority too.
    assert.ok([200, 201].includes((await http.post(path(run)).set(AS.owner).send({})).status));
  });

  test(`${name}: a run of an archived project -> 409 project_archived, nothing changes`, async () => {
    const { mock, http } = await freshMock();
    const legacyRun = '00000000-0000-4000-8000-0000000000aa';
    const before = stateOf(mock);
    assertError(await http.post(path(legacyRun, DEMO.projects.legacy)).set(AS.operator).send({}), 409, 'project_archived');
    assert.is(stateOf(mock), before);
  });
}

test('retry: the new run keeps the failed run runtime mode (test stays test) and its release and user', async () => {
  const { mock, http } = await freshMock();
  const user = mock.store.toData().users.find((u) => u.project_id === P)!.id;
  const failed = await mock.control.createRun(P, {
    status: 'failed',
    surface: 'background',
    runtime_mode: 'test',
    release_id: DEMO.releases.gen2,
    user_id: user,
  });
  const res = await http
    .post(retryPath(failed.id as string))
    .set(AS.operator)
    .send({});
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal([res.body.runtime_mode, res.body.status, res.body.surface], ['test', 'queued', 'background']);
  const stored = mock.store.get('runs', res.body.id)!;
  assert.equal([stored.release_id, stored.user_id], [DEMO.releases.gen2, user]);
  // The runtime_mode filter of the run detail sees it as a test run.
  assert.is((await http.get(`${runPath(res.body.id)}?runtime_mode=test`).set(AS.viewer)).body.id, res.body.id);
  assertError(await http.get(`${runPath(res.body.id)}?runtime_mode=live`).set(AS.viewer), 404, 'run_not_found');
});

test.run();
