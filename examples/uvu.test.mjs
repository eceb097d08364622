// Recipe (uvu): a fresh in-memory mock per test via supertest, the journal and the coverage report; imports the built package.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import request from 'supertest';
import { createApp, demoFixture } from '../dist/index.js';

const PROJECT = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const AUTH = { Authorization: 'Bearer demo-owner-token' };

// A fresh instance per test costs a few milliseconds: the demo fixture is compiled once per process.
async function fresh() {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  return { mock, http: request(mock.callback()) };
}

test('a run driven to waiting_approval can be denied, which re-enqueues it', async () => {
  const { http } = await fresh();
  const run = (await http.post(`/_mock/projects/${PROJECT}/runs`).send({ status: 'running' })).body;
  const parked = (await http.post(`/_mock/projects/${PROJECT}/runs/${run.id}/transition`).send({ to: 'waiting_approval' })).body;
  const deny = await http.post(`/api/v3/projects/${PROJECT}/approvals/${parked.approval.approval_id}/deny`).set(AUTH).send({});
  assert.is(deny.status, 200);
  assert.is(deny.body.enqueued, true);
});

test('an illegal transition is 409', async () => {
  const { http } = await fresh();
  const run = (await http.post(`/_mock/projects/${PROJECT}/runs`).send({ status: 'succeeded' })).body;
  const res = await http.post(`/_mock/projects/${PROJECT}/runs/${run.id}/transition`).send({ to: 'running' });
  assert.is(res.status, 409);
  assert.is(res.body.detail.reason_code, 'illegal_transition');
});

test('the journal filters by path glob and status', async () => {
  const { http } = await fresh();
  await http.get(`/api/v3/projects/${PROJECT}/runs/00000000-0000-4000-8000-000000000000`).set(AUTH);
  const res = await http.get('/_mock/requests').query({ path: '/api/v3/projects/*/runs/*', status: '404' });
  assert.is(res.body.items.length, 1);
  assert.is(res.body.items[0].operation, 'getRun');
});

test('the coverage report shows what the suite has not exercised', async () => {
  const { mock, http } = await fresh();
  await http.get(`/api/v3/projects/${PROJECT}/jobs`).set(AUTH);
  const jobs = mock.control.coverage().operations.find((o) => o.operation === 'listJobs');
  assert.equal(jobs.exercised.statuses, [200]);
  assert.ok(jobs.missing.statuses.includes(401));
});

test.run();
