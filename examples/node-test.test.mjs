// Recipe (node:test): the client under test talks to the real base URL; mock.intercept answers it in process. One mock per
// file, snapshot/restore before each test, the clock, faults and the journal; imports the package by its name.
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp, demoFixture } from 'project-runtime-mock';
import { runsClient } from './runs-client.mjs';

const BASE_URL = 'https://api.example.test'; // what the client is configured with in production
const PROJECT = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const AUTH = { authorization: 'Bearer demo-owner-token' };
const client = runsClient({ baseUrl: BASE_URL, token: 'demo-owner-token' });

describe('project-runtime-mock with node:test', () => {
  let mock, intercepting, clean;

  before(async () => {
    mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'node-test' });
    intercepting = mock.intercept(BASE_URL); // global fetch, node:http and node:https (axios, got, ...)
    clean = mock.control.snapshot(); // cheap: restore it before every test
  });

  after(() => intercepting.restore()); // global fetch and http.request are exactly as before

  // The client report: fails the test when the client reused a token or code, or ignored a Retry-After.
  afterEach(() => mock.control.assertCleanClient());

  beforeEach(async () => {
    await mock.control.restore(clean);
    mock.control.clearRequests();
    mock.control.clearFaults();
  });

  test('a queued run can be cancelled', async () => {
    const run = await mock.control.createRun(PROJECT, { status: 'queued' });
    const cancelled = await client.cancelRun(PROJECT, run.id, 'no longer needed');
    assert.equal(cancelled.status, 'cancelled');
    assert.deepEqual(
      mock.control.requests().map((e) => [e.operation, e.status, e.request.body]),
      [['cancelRun', 200, { reason: 'no longer needed' }]],
    );
  });

  test('an approval expires when the clock moves past it', async () => {
    const run = await mock.control.createRun(PROJECT, { status: 'waiting_approval', approval: { expires_in_ms: 60_000 } });
    await mock.control.advanceClock(60_000);
    // mock.fetch: the same app, in process, for requests the client has no method for.
    const res = await mock.fetch(`/api/v3/projects/${PROJECT}/approvals/${run.approval.approval_id}`, { headers: AUTH });
    assert.equal((await res.json()).status, 'expired');
  });

  test('the client retries once after a 503, and the journal shows both tries', async () => {
    mock.control.addFault({ method: 'GET', path: '/api/v3/projects/*/jobs', status: 503, times: 1 });
    const jobs = await client.listJobs(PROJECT);
    assert.ok(Array.isArray(jobs.items));
    const [faulted, real] = mock.control.requests({ path: '/jobs' });
    assert.equal(faulted.fault.status, 503);
    assert.equal(real.status, 200);
    assert.equal(real.request.headers.authorization, '[redacted]');
  });

  test('a refusal reaches the client as the real service would send it', async () => {
    await assert.rejects(
      client.getRun(PROJECT, '00000000-0000-4000-8000-000000000000'),
      (err) => err.status === 404 && err.data.detail.reason_code === 'run_not_found',
    );
  });

  test('the state is back to the fixtures in every test', async () => {
    assert.equal(mock.control.requests().length, 0);
    assert.equal(mock.control.now(), '2026-11-20T12:00:00.000Z');
  });
});
