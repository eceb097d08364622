// Recipe (uvu): a fresh in-memory mock per test driven with mock.fetch (in process, no socket), the journal and the
// coverage report; imports the package by its name.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, demoFixture } from 'project-runtime-mock';

const PROJECT = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const AUTH = { authorization: 'Bearer demo-owner-token' };
const JSON_BODY = { 'content-type': 'application/json' };

// A fresh instance per test costs well under a millisecond: the demo's compiled state is shared (built once, or by the build).
const fresh = () => createApp({ storage: 'memory', fixtures: demoFixture() });
const post = (mock, path, body, headers = {}) => mock.fetch(path, { method: 'POST', headers: { ...JSON_BODY, ...headers }, body: JSON.stringify(body) });

test('a run driven to waiting_approval can be denied, which re-enqueues it', async () => {
  const mock = await fresh();
  const run = await (await post(mock, `/_mock/projects/${PROJECT}/runs`, { status: 'running' })).json();
  const parked = await (await post(mock, `/_mock/projects/${PROJECT}/runs/${run.id}/transition`, { to: 'waiting_approval' })).json();
  const deny = await post(mock, `/api/v3/projects/${PROJECT}/approvals/${parked.approval.approval_id}/deny`, {}, AUTH);
  assert.is(deny.status, 200);
  assert.is((await deny.json()).enqueued, true);
});

test('an illegal transition is 409', async () => {
  const mock = await fresh();
  const run = await mock.control.createRun(PROJECT, { status: 'succeeded' });
  const res = await post(mock, `/_mock/projects/${PROJECT}/runs/${run.id}/transition`, { to: 'running' });
  assert.is(res.status, 409);
  assert.is((await res.json()).detail.reason_code, 'illegal_transition');
});

test('the journal filters by path glob and status', async () => {
  const mock = await fresh();
  await mock.fetch(`/api/v3/projects/${PROJECT}/runs/00000000-0000-4000-8000-000000000000`, { headers: AUTH });
  const res = await mock.fetch(`/_mock/requests?${new URLSearchParams({ path: '/api/v3/projects/*/runs/*', status: '404' })}`);
  const { items } = await res.json();
  assert.is(items.length, 1);
  assert.is(items[0].operation, 'getRun');
});

test('the coverage report shows what the suite has not exercised', async () => {
  const mock = await fresh();
  await mock.fetch(`/api/v3/projects/${PROJECT}/jobs`, { headers: AUTH });
  const jobs = mock.control.coverage().operations.find((o) => o.operation === 'listJobs');
  assert.equal(jobs.exercised.statuses, [200]);
  assert.ok(jobs.missing.statuses.includes(401));
});

test.run();
