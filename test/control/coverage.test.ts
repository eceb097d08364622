// Behaviour of the coverage report: the 20-operation table, exercised vs missing statuses, reason codes and transitions; reset clears it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { OPERATIONS } from '../../src/control/operations.js';
import { V3_OPERATIONS } from '../../src/document/operations.js';
import { transitionMatches, type OperationCoverage } from '../../src/control/coverage.js';
import { signBrokerPayload } from '../../src/client-helpers.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const UUID = '00000000-0000-4000-8000-000000000000';

const entry = (ops: OperationCoverage[], name: string) => ops.find((o) => o.operation === name)!;

test('table: the 20 operations, each name exactly what its route reports', async () => {
  assert.is(OPERATIONS.length, 20);
  assert.is(new Set(OPERATIONS.map((o) => o.operation)).size, 20);
  const { mock, http } = await freshMock();
  for (const op of OPERATIONS) {
    const path = op.path.replace(/\{[a-z_]+\}/g, UUID);
    await (http as unknown as Record<string, (p: string) => Promise<unknown>>)[op.method.toLowerCase()](path);
    assert.is(mock.control.requests().at(-1)!.operation, op.operation, `${op.method} ${op.path}`);
  }
});

test('table: method, path and statuses of each operation agree with the OpenAPI catalog', () => {
  for (const c of OPERATIONS) {
    const doc = V3_OPERATIONS.find((o) => o.operationId === c.operation);
    assert.ok(doc, c.operation);
    assert.is(doc!.method.toUpperCase(), c.method, c.operation);
    assert.is(doc!.path, c.path, c.operation);
    const documented = [...new Set([...doc!.success.map((x) => x.status), ...doc!.errors])].sort((a, b) => Number(a) - Number(b));
    assert.equal(
      [...c.statuses].sort((a, b) => a - b),
      documented,
      c.operation,
    );
  }
});

test('report: before any traffic everything is missing', async () => {
  const { mock } = await freshMock();
  const report = mock.control.coverage();
  assert.is(report.summary.operations.exercised, 0);
  assert.is(report.summary.never_called.length, 20);
  assert.is(report.summary.percent, 0);
  const cancel = entry(report.operations, 'cancelRun');
  assert.equal(cancel.exercised, { statuses: [], reason_codes: [], transitions: [] });
  assert.ok(cancel.missing.reason_codes.includes('run_not_cancellable'));
  assert.ok(cancel.missing.transitions.includes('run: waiting_approval -> cancelled'));
});

test('report: statuses and reason codes the traffic exercised move from missing to exercised', async () => {
  const { mock, http } = await freshMock();
  await http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`).set(owner);
  await http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`);
  await http.get(`/api/v3/projects/${P}/runs/${UUID}`).set(owner);
  await http.get(`/api/v3/projects/${P}/runs/not-a-uuid`).set(owner);
  const getRun = entry(mock.control.coverage().operations, 'getRun');
  assert.is(getRun.requests, 4);
  assert.equal(getRun.exercised.statuses, [200, 401, 404, 422]);
  assert.equal(getRun.exercised.reason_codes, ['authentication_required', 'run_not_found']);
  assert.equal(getRun.missing.statuses, [403]);
  assert.ok(getRun.missing.reason_codes.includes('token_expired'));
  assert.not.ok(getRun.missing.reason_codes.includes('run_not_found'));
});

test('report: state transitions are observed from the writes a request made', async () => {
  const { mock, http } = await freshMock();
  await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`).set(owner).send({});
  await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`).set(owner).send({});
  const cancel = entry(mock.control.coverage().operations, 'cancelRun');
  assert.ok(cancel.exercised.transitions.includes('run: waiting_approval -> cancelled'));
  assert.ok(cancel.exercised.transitions.includes('approval: pending -> cancelled'));
  assert.not.ok(cancel.missing.transitions.includes('run: waiting_approval -> cancelled'));
  assert.ok(cancel.missing.transitions.includes('run: queued -> cancelled'));
  assert.equal(cancel.exercised.statuses, [200, 409]);
  assert.equal(cancel.exercised.reason_codes, ['run_not_cancellable']);
});

test('report: retry and token exchange record creations', async () => {
  const { mock, http } = await freshMock();
  await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`).set(owner).send({});
  await http.post('/api/v3/auth/token').send({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier });
  const ops = mock.control.coverage().operations;
  assert.equal(entry(ops, 'retryRun').exercised.transitions, ['run: none -> queued']);
  assert.equal(entry(ops, 'retryRun').missing.transitions, []);
  assert.equal(entry(ops, 'exchangeToken').exercised.transitions, [
    'access_token: none -> active',
    'authorization_code: unused -> used',
    'refresh_token: none -> active',
  ]);
});

test('report: webhooks that read their body first still attribute their writes', async () => {
  const { mock, http } = await freshMock();
  await http
    .post(`/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`)
    .set('X-Chatapp-Secret-Token', DEMO.chatSecret)
    .send({ update_id: 991, message: { from: { id: 4242, display_name: 'New Person' }, text: 'hello' } });
  const crm = mock.store.get('connections', DEMO.connections.crm)!;
  const signed = signBrokerPayload(
    { event_id: 'evt-coverage-1', event_type: 'connection.error', connection_resource_id: crm.connection_resource_id, occurred_at: DEMO.now },
    DEMO.brokerSecret,
  );
  await http.post('/api/v3/webhooks/broker').set(signed.headers).send(signed.body);
  const ops = mock.control.coverage().operations;
  assert.ok(entry(ops, 'chatWebhook').exercised.transitions.includes('run: none -> queued'), JSON.stringify(entry(ops, 'chatWebhook').exercised));
  assert.ok(entry(ops, 'brokerWebhook').exercised.transitions.includes('connection: active -> error'), JSON.stringify(entry(ops, 'brokerWebhook').exercised));
});

test('report: concurrent requests keep their transitions apart', async () => {
  const { mock } = await freshMock();
  const server = mock.app.listen(0);
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v3/projects/${P}`;
  const post = (path: string) => fetch(base + path, { method: 'POST', headers: { ...owner, 'Content-Type': 'application/json' }, body: '{}' });
  await Promise.all([
    post(`/runs/${DEMO.runs.failedBackground}/retry`),
    post(`/approvals/${DEMO.approvals.pendingOther}/deny`),
    post(`/runs/${DEMO.runs.waitingApproval}/cancel`),
  ]);
  server.close();
  const ops = mock.control.coverage().operations;
  assert.equal(entry(ops, 'retryRun').exercised.transitions, ['run: none -> queued']);
  assert.equal(entry(ops, 'denyApproval').exercised.transitions, ['approval: pending -> denied']);
  assert.ok(entry(ops, 'cancelRun').exercised.transitions.every((t) => !t.includes('denied') && t !== 'run: none -> queued'));
});

test('report: control-surface writes are not counted as v3 coverage', async () => {
  const { mock, http } = await freshMock();
  const run = await http.post(`/_mock/projects/${P}/runs`).send({ status: 'running' });
  await http.post(`/_mock/projects/${P}/runs/${run.body.id}/transition`).send({ to: 'cancelled' });
  assert.is(mock.control.coverage().summary.operations.exercised, 0);
});

test('report: injected fault answers are not counted; delayed real handling is', async () => {
  const { mock, http } = await freshMock();
  mock.control.addFault({ method: 'GET', path: '/api/v3/projects/*/jobs', status: 503, times: 1 });
  await http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  assert.is(entry(mock.control.coverage().operations, 'listJobs').requests, 0);
  mock.control.addFault({ method: 'GET', path: '/api/v3/projects/*/jobs', delay_ms: 1, times: 1 });
  await http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  assert.equal(entry(mock.control.coverage().operations, 'listJobs').exercised.statuses, [200]);
});

test('report: GET /_mock/coverage equals control.coverage(); the summary counts', async () => {
  const { mock, http } = await freshMock();
  await http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  const res = await http.get('/_mock/coverage');
  assert.equal(res.body, JSON.parse(JSON.stringify(mock.control.coverage())));
  assert.is(res.body.summary.operations.exercised, 1);
  assert.is(res.body.summary.statuses.exercised, 1);
  assert.ok(res.body.summary.percent > 0);
  assert.not.ok(res.body.summary.never_called.includes('listJobs'));
});

test('report: reset clears it; snapshot/restore does not', async () => {
  const { mock, http } = await freshMock();
  const snap = mock.control.snapshot();
  await http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  await mock.control.restore(snap);
  assert.is(mock.control.coverage().summary.operations.exercised, 1);
  await http.post('/_mock/reset');
  assert.is(mock.control.coverage().summary.operations.exercised, 0);
});

test('transition patterns: `*` matches any status', () => {
  assert.ok(transitionMatches('connection: * -> active', 'connection: pending -> active'));
  assert.not.ok(transitionMatches('connection: * -> active', 'connection: active -> error'));
  assert.not.ok(transitionMatches('run: queued -> cancelled', 'run: running -> cancelled'));
});

test.run();
