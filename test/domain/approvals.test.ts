// Deny (endpoint 11): pending only, expiry by the mock clock, binding fingerprint, `enqueued`, refusals that change nothing, authority.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { AS, refusals, assertError, assertInvalidAt } from '../helpers/ops.js';

const P = DEMO.projects.support;
const A = DEMO.approvals;
const denyPath = (approval: string, project: string = P) => `/api/v3/projects/${project}/approvals/${approval}/deny`;
const FINGERPRINT = 'af624721d9e09cac56e4555e1905856154d21eb1c63e94450069d3fc558e9e57'; // apr_r3fund49
const DAY = 24 * 60 * 60 * 1000;

test('deny: pending approval of a waiting run -> denied, run back to queued, enqueued true', async () => {
  const { mock, http } = await freshMock();
  const res = await http.post(denyPath(A.pendingWaiting)).set(AS.operator).send({ reason: 'refund policy', binding_fingerprint: FINGERPRINT });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.enqueued, true);
  assert.is(res.body.approval.approval_id, A.pendingWaiting);
  assert.is(res.body.approval.status, 'denied');
  assert.is(res.body.approval.decided_at, DEMO.now);
  assert.is(res.body.approval.decision_reason, 'refund policy');
  assert.not.ok('tool_arguments' in res.body.approval);
  const run = (await http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`).set(AS.viewer)).body;
  assert.is(run.status, 'queued');
  // The approval checkpoint failed (the gate did not pass); the tool it gated is skipped; the rest waits.
  assert.equal(
    run.steps.map((s: { status: string }) => s.status),
    ['succeeded', 'succeeded', 'failed', 'skipped', 'pending'],
  );
  const read = await http.get(`/api/v3/projects/${P}/approvals/${A.pendingWaiting}`).set(AS.viewer);
  assert.is(read.body.status, 'denied');
  assert.ok(mock.store.get('runs', DEMO.runs.waitingApproval)!.events.some((e) => (e as { type: string }).type === 'approval.denied'));
});

test('deny: approval whose run is not waiting -> denied, enqueued false, run untouched', async () => {
  const { mock, http } = await freshMock();
  const runId = Array.from(mock.store.values('approvals')).find((a) => a.approval_id === A.pendingOther)!.run_id!;
  const runBefore = mock.store.get('runs', runId);
  const res = await http.post(denyPath(A.pendingOther)).set(AS.operator).send({});
  assert.is(res.status, 200);
  assert.is(res.body.enqueued, false);
  assert.is(res.body.approval.status, 'denied');
  assert.is(res.body.approval.decision_reason, null);
  assert.is(mock.store.get('runs', runId), runBefore);
});

test('deny: a run still waiting on another pending approval stays waiting, enqueued false', async () => {
  const { mock, http } = await freshMock();
  mock.store.apply((tx) => {
    const other = tx.filter('approvals', (a) => a.approval_id === A.pendingOther)[0];
    tx.put('approvals', { ...other, run_id: DEMO.runs.waitingApproval });
  });
  const res = await http.post(denyPath(A.pendingWaiting)).set(AS.operator).send({});
  assert.is(res.status, 200);
  assert.is(res.body.enqueued, false);
  assert.is(mock.store.get('runs', DEMO.runs.waitingApproval)!.status, 'waiting_approval');
  const second = await http.post(denyPath(A.pendingOther)).set(AS.operator).send({});
  assert.is(second.body.enqueued, true);
  assert.is(mock.store.get('runs', DEMO.runs.waitingApproval)!.status, 'queued');
});

test('deny: no body is accepted (every field is optional)', async () => {
  const { http } = await freshMock();
  const res = await http.post(denyPath(A.pendingWaiting)).set(AS.operator);
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.enqueued, true);
});

test('deny: approved, denied and cancelled approvals -> 409 approval_not_pending, nothing changes', async () => {
  for (const id of [A.approvedTest, A.denied, A.cancelled]) {
    const { mock, http } = await freshMock();
    const before = stateOf(mock);
    assertError(await http.post(denyPath(id)).set(AS.operator).send({}), 409, 'approval_not_pending');
    assert.is(stateOf(mock), before, id);
  }
});

test('deny: a second deny of the same approval -> 409 approval_not_pending', async () => {
  const { mock, http } = await freshMock();
  assert.is((await http.post(denyPath(A.pendingWaiting)).set(AS.operator).send({})).status, 200);
  const before = stateOf(mock);
  assertError(await http.post(denyPath(A.pendingWaiting)).set(AS.operator).send({}), 409, 'approval_not_pending');
  assert.is(stateOf(mock), before);
});

test('deny: pending but past expires_at -> 409 approval_expired and the stored status stays pending', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(await http.post(denyPath(A.pendingPastExpiry)).set(AS.operator).send({}), 409, 'approval_expired');
  assert.is(stateOf(mock), before);
  assert.is(Array.from(mock.store.values('approvals')).find((a) => a.approval_id === A.pendingPastExpiry)!.status, 'pending');
});

test('deny: expiry follows the mock clock (advance past expires_at -> approval_expired)', async () => {
  const { mock, http } = await freshMock();
  await mock.control.advanceClock(DAY);
  const before = stateOf(mock);
  assertError(await http.post(denyPath(A.pendingWaiting)).set(AS.operator).send({}), 409, 'approval_expired');
  assert.is(stateOf(mock), before);
  assert.is(mock.store.get('runs', DEMO.runs.waitingApproval)!.status, 'waiting_approval');
});

test('deny: an approval stored as expired -> 409 approval_expired (expired for every purpose)', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(await http.post(denyPath(A.expired)).set(AS.operator).send({}), 409, 'approval_expired');
  assert.is(stateOf(mock), before);
});

test('deny: a different binding_fingerprint -> 409 approval_binding_mismatch, nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(
    await http
      .post(denyPath(A.pendingWaiting))
      .set(AS.operator)
      .send({ binding_fingerprint: 'f'.repeat(64) }),
    409,
    'approval_binding_mismatch',
  );
  assertError(await http.post(denyPath(A.pendingWaiting)).set(AS.operator).send({ binding_fingerprint: '' }), 409, 'approval_binding_mismatch');
  assert.is(stateOf(mock), before);
});

test('deny: runtime_mode query matching -> 200; different -> 404 approval_not_found; unknown value -> 422', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(
    await http
      .post(`${denyPath(A.pendingWaiting)}?runtime_mode=test`)
      .set(AS.operator)
      .send({}),
    404,
    'approval_not_found',
  );
  assertInvalidAt(
    await http
      .post(`${denyPath(A.pendingWaiting)}?runtime_mode=prod`)
      .set(AS.operator)
      .send({}),
    ['query', 'runtime_mode'],
  );
  assert.is(stateOf(mock), before);
  assert.is(
    (
      await http
        .post(`${denyPath(A.pendingWaiting)}?runtime_mode=live`)
        .set(AS.operator)
        .send({})
    ).status,
    200,
  );
});

test('deny: unknown approval, bad body types -> 404 / 422, nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(await http.post(denyPath('apr_nope')).set(AS.operator).send({}), 404, 'approval_not_found');
  assertError(await http.post(denyPath(A.pendingWaiting, DEMO.projects.sales)).set(AS.operator).send({}), 404, 'approval_not_found');
  assertInvalidAt(await http.post(denyPath(A.pendingWaiting)).set(AS.operator).send({ reason: 1 }), ['body', 'reason']);
  assertInvalidAt(await http.post(denyPath(A.pendingWaiting)).set(AS.operator).send({ binding_fingerprint: 7 }), ['body', 'binding_fingerprint']);
  // A JSON string is not an object (model_attributes_type); JSON null would be "no body" (the defaults), as in FastAPI.
  const stringBody = await http.post(denyPath(A.pendingWaiting)).set(AS.operator).set('Content-Type', 'application/json').send('"deny"');
  assert.is(stringBody.status, 422);
  assert.equal(stringBody.body.detail[0].loc, ['body']);
  assert.is(stringBody.body.detail[0].type, 'model_attributes_type');
  assert.is(stateOf(mock), before);
});

test('deny: authority per actor (viewer/read-only 403, other workspace 404, no credentials 401), nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  for (const [actor, status, reason] of refusals('operator', false)) {
    assertError(await http.post(denyPath(A.pendingWaiting)).set(AS[actor]).send({}), status, reason);
  }
  assert.is(stateOf(mock), before);
  assert.is((await http.post(denyPath(A.pendingWaiting)).set(AS.owner).send({})).status, 200);
});

test('deny: an approval of an archived project -> 409 project_archived, nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(await http.post(denyPath('apr_legacy', DEMO.projects.legacy)).set(AS.operator).send({}), 409, 'project_archived');
  assert.is(stateOf(mock), before);
});

test('deny: an approval is expired exactly at expires_at (and still pending one millisecond before)', async () => {
  for (const [offset, status] of [
    [-1, 'pending'],
    [0, 'expired'],
  ] as const) {
    const { mock, http } = await freshMock();
    const a = (await http.get(`/api/v3/projects/${P}/approvals/${A.pendingWaiting}`).set(AS.viewer)).body;
    await mock.control.advanceClock(Date.parse(a.expires_at) - Date.parse(DEMO.now) + offset);
    assert.is((await http.get(`/api/v3/projects/${P}/approvals/${A.pendingWaiting}`).set(AS.viewer)).body.status, status);
    const listed = await http.get(`/api/v3/projects/${P}/approvals?status=${status}`).set(AS.viewer);
    assert.ok(
      listed.body.items.some((x: { approval_id: string }) => x.approval_id === A.pendingWaiting),
      status,
    );
    const deny = await http.post(denyPath(A.pendingWaiting)).set(AS.operator).send({});
    if (status === 'pending') assert.is(deny.status, 200, JSON.stringify(deny.body));
    else assertError(deny, 409, 'approval_expired');
  }
});

test.run();
