// Recipe (node:test): the client under test talks to the real base URL; mock.intercept answers it in process. One mock per
// file, snapshot/restore before each test, the clock, faults and the journal; imports the built package.
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
    assert.deepEqual(mock.control.requests().map((e) => [e.operation, e.status, e.request.body]), [['cancelRun', 200, { reason: 'no longer needed' }]]);
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
    await assert.rejects(client.getRun(PROJECT, '00000000-0000-4000-8000-000000000000'), (err) => err.status === 404 && err.data.detail.reason_code === 'run_not_found');
  });

  test('the state is back to the fixtures in every test', async () => {
    assert.equal(mock.control.requests().length, 0);
    assert.equal(mock.control.now(), '2026-11-20T12:00:00.000Z');
  });
});

// The simulation: runs, approvals, jobs and spend move by themselves as the mock clock moves (docs/simulation.md).
describe('the simulation with node:test', () => {
  const BINDING = 'e96b28d7-1310-499b-952e-bd5c21e77d85';
  const chat = (mock, updateId, text) =>
    mock.fetch(`/api/v3/connections/${BINDING}/chatapp/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-chatapp-secret-token': 'demo-chat-webhook-secret' },
      body: JSON.stringify({ update_id: updateId, message: { from: { id: 42 }, text } }),
    });
  const getRun = async (mock, id) => (await mock.fetch(`/api/v3/projects/${PROJECT}/runs/${id}`, { headers: AUTH })).json();

  test('a day later, the chat message has its answer and the nightly job has fired', async () => {
    const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'sim', simulation: { mode: 'auto' } });
    await mock.control.setBehaviours({
      projects: [{
        project_id: PROJECT,
        queue_wait_ms: 500,
        steps: [
          { name: 'lookup', step_type: 'tool', duration_ms: 800 },
          { name: 'reply', step_type: 'model', duration_ms: 2_000, cost_usd: 0.004, input_tokens: 900, output_tokens: 120 },
        ],
      }],
    });
    const { run_id } = await (await chat(mock, 1, 'Where is my order?')).json();
    assert.equal((await getRun(mock, run_id)).status, 'queued');

    await mock.control.advanceClock(24 * 60 * 60 * 1000); // every event due in that day happens, each at its own time

    const run = await getRun(mock, run_id);
    assert.equal(run.status, 'succeeded');
    assert.deepEqual(run.timing, { queue_wait_ms: 500, tool_ms: 800, model_ms: 2_000, skill_ms: 0, memory_ms: 0, approval_wait_ms: 0, active_ms: 2_800, end_to_end_ms: 3_300 });
    assert.equal(run.cost_usd, 0.004);
    const jobs = (await (await mock.fetch(`/api/v3/projects/${PROJECT}/jobs`, { headers: AUTH })).json()).items;
    // "0 6 * * *" in Europe/Berlin: it fired at 05:00Z on the 21st and is next due on the 22nd.
    assert.equal(jobs.find((j) => j.name === 'Nightly ticket digest').next_run_at, '2026-11-22T05:00:00.000Z');
  });

  test('step mode holds a run between two transitions', async () => {
    const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), simulation: { mode: 'step' } });
    // The demo's support-bot: faq lookup, triage, then a refund behind an approval.
    const run = await mock.control.createRun(PROJECT, { simulate: true, request_metadata: { agent_id: 'support-bot' } });
    assert.equal((await mock.control.stepSimulation()).executed.kind, 'run.start');
    assert.equal((await getRun(mock, run.id)).status, 'running');
    await mock.control.stepSimulation(); // faq lookup done, triage begins
    await mock.control.stepSimulation(); // triage done: the run now waits for the refund's approval
    const held = await getRun(mock, run.id);
    assert.equal(held.status, 'waiting_approval');
    // Held there: nothing moves until the next step, so the client's handling of a waiting run can be tested.
    const approvals = (await (await mock.fetch(`/api/v3/projects/${PROJECT}/approvals?status=pending`, { headers: AUTH })).json()).items;
    const mine = approvals.find((a) => a.run_id === run.id);
    const deny = await mock.fetch(`/api/v3/projects/${PROJECT}/approvals/${mine.approval_id}/deny`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"reason":"not without a receipt"}',
    });
    assert.equal((await deny.json()).enqueued, true);
    assert.equal((await getRun(mock, run.id)).status, 'queued'); // re-queued; the behaviour goes on after the denied step
  });
});
