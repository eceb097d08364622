// Recipe (node:test): the simulation moves runs, approvals, jobs and spend by themselves as the mock clock moves
// (docs/simulation.md); the README shows parts of it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp, demoFixture } from 'project-runtime-mock';

const PROJECT = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const AUTH = { authorization: 'Bearer demo-owner-token' };

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
      projects: [
        {
          project_id: PROJECT,
          queue_wait_ms: 500,
          steps: [
            { name: 'lookup', step_type: 'tool', duration_ms: 800 },
            { name: 'reply', step_type: 'model', duration_ms: 2_000, cost_usd: 0.004, input_tokens: 900, output_tokens: 120 },
          ],
        },
      ],
    });
    const { run_id } = await (await chat(mock, 1, 'Where is my order?')).json();
    assert.equal((await getRun(mock, run_id)).status, 'queued');

    await mock.control.advanceClock(24 * 60 * 60 * 1000); // every event due in that day happens, each at its own time

    const run = await getRun(mock, run_id);
    assert.equal(run.status, 'succeeded');
    assert.deepEqual(run.timing, {
      queue_wait_ms: 500,
      tool_ms: 800,
      model_ms: 2_000,
      skill_ms: 0,
      memory_ms: 0,
      approval_wait_ms: 0,
      active_ms: 2_800,
      end_to_end_ms: 3_300,
    });
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
