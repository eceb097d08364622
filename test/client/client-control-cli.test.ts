// The typed client's control part (`mock.client.control`) against the built CLI in another process: health, clock, faults,
// journal, coverage, state, fixtures, desired state, runs, the project views and the simulation.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient, ControlError } from 'project-runtime-mock/client';
import { startCli } from '../helpers/cli.js';
import { cliClient } from '../helpers/client.js';
import { DEMO } from '../helpers/demo.js';
import { demoFixture } from '../../src/fixtures.js';

const P = DEMO.projects.support;
const mock = cliClient(test);

test('control: health, clock, faults, journal, coverage', async () => {
  const health = await mock.client.control.health();
  assert.equal(health, { status: 'ok', now: DEMO.now });
  assert.equal(await mock.client.control.setClock('2027-01-01T00:00:00.000Z'), {
    now: '2027-01-01T00:00:00.000Z',
    frozen_at: '2027-01-01T00:00:00.000Z',
    offset_ms: 0,
  });
  assert.is((await mock.client.control.advanceClock(60_000)).now, '2027-01-01T00:01:00.000Z');
  assert.is((await mock.client.control.clock()).now, '2027-01-01T00:01:00.000Z');

  const fault = await mock.client.control.addFault({ method: 'GET', path: `/api/v3/projects/${P}/jobs`, status: 503, body: { down: true }, times: 1 });
  assert.equal(
    { ...fault, id: 'f' },
    { id: 'f', method: 'GET', path: `/api/v3/projects/${P}/jobs`, status: 503, body: { down: true }, times: 1, remaining: 1, hits: 0, matched: 0 },
  );
  assert.equal(
    (await mock.client.control.faults()).map((f) => f.id),
    [fault.id],
  );
  const hit = await mock.client.listJobs(P);
  assert.is(hit.response.status, 503);
  assert.equal(await mock.client.control.faults(), []);
  await mock.client.control.addFault({ method: '*', path: '/api/v3/**', delay_ms: 1 });
  assert.is(await mock.client.control.clearFaults(), 1);

  await mock.client.listUsers(P);
  const journal = await mock.client.control.requests({ method: 'GET', status: '2xx', path: '/api/v3/**' });
  assert.equal(
    journal.map((e) => [e.method, e.operation, e.status]),
    [['GET', 'listUsers', 200]],
  );
  assert.ok((await mock.client.control.clearRequests()) >= 2);
  assert.equal(await mock.client.control.requests(), []);

  const coverage = await mock.client.control.coverage();
  assert.is(coverage.operations.length, 20);
  assert.ok(coverage.summary.never_called.includes('deleteProject'));
});

test('control: state export and import, fixtures, desired state, releases, runs; refusals throw ControlError', async () => {
  const snapshot = await mock.client.control.exportState();
  await mock.client.cancelRun(P, DEMO.runs.waitingApproval);
  const restored = await mock.client.control.importState(snapshot);
  assert.is(restored.restored, true);
  assert.is((await mock.client.getRun(P, DEMO.runs.waitingApproval)).data?.status, 'waiting_approval');

  const loaded = await mock.client.control.loadFixtures({ now: '2026-01-01T00:00:00.000Z', workspaces: [{ id: DEMO.workspaces.acmeSupport, name: 'Only' }] });
  assert.equal({ loaded: loaded.loaded, workspaces: loaded.counts.workspaces, projects: loaded.counts.projects }, { loaded: true, workspaces: 1, projects: 0 });
  let refused: unknown;
  try {
    await mock.client.control.loadFixtures({ runs: [{ id: 'not-a-uuid' }] as never });
  } catch (err) {
    refused = err;
  }
  assert.instance(refused, ControlError);
  assert.is((refused as ControlError).status, 422);
  // The loaded fixture is what reset returns to; loading the demo again brings the rest of this file's world back.
  await mock.client.control.setClock(DEMO.now);
  await mock.client.control.reset();
  assert.is((await mock.client.control.health()).now, '2026-01-01T00:00:00.000Z');
  await mock.client.control.loadFixtures(demoFixture() as never);
  assert.is((await mock.client.control.health()).now, DEMO.now);

  const applied = await mock.client.control.applyDesiredState(P, { mutation: { type: 'skill.upsert', skill_id: 'typed', display_name: 'Typed' } as never });
  assert.is(applied.committed, true);
  assert.is(applied.head.generation, applied.previous_head.generation + 1);
  const release = await mock.client.control.compileRelease(P, { target: 'candidate' });
  assert.equal(release.targets, ['candidate']);
  assert.is(release.document.schema_version, 'svc.project-release/v3');

  const run = await mock.client.control.createRun(P, { status: 'running', request_metadata: { source: 'typed' } });
  assert.equal([run.status, run.surface, run.request_metadata?.source], ['running', 'api', 'typed']);
  const done = await mock.client.control.transitionRun(P, run.id, { to: 'succeeded', result: { output: 'ok' } });
  assert.equal([done.status, done.result?.output], ['succeeded', 'ok']);
  try {
    await mock.client.control.transitionRun(P, run.id, { to: 'running' });
    assert.unreachable('an illegal transition is refused');
  } catch (err) {
    assert.instance(err, ControlError);
    assert.is(((err as ControlError).body as { detail: { reason_code: string } }).detail.reason_code, 'illegal_transition');
  }
});

test('control: the project views in pages and one journal entry (what the inspector page reads)', async () => {
  await mock.client.control.reset();
  const projects = await mock.client.control.projects({ limit: 2 });
  assert.is(projects.items.length, 2);
  assert.type(projects.next_cursor, 'string');
  const rest = await mock.client.control.projects({ limit: 10, cursor: projects.next_cursor! });
  assert.equal(rest.next_cursor, null);
  assert.ok([...projects.items, ...rest.items].some((p) => p.id === P));
  const overview = await mock.client.control.projectOverview(P);
  assert.equal(overview.targets, { live: DEMO.releases.gen3Live, candidate: DEMO.releases.gen4Candidate });
  const waiting = await mock.client.control.runs(P, { status: 'waiting_approval' });
  assert.equal(
    waiting.items.map((r) => r.id),
    [DEMO.runs.waitingApproval],
  );
  const run = await mock.client.control.run(P, DEMO.runs.waitingApproval);
  assert.equal(
    run.approvals.map((a) => a.approval_id),
    [DEMO.approvals.pendingWaiting],
  );
  assert.equal(
    (await mock.client.control.approvals(P, { status: 'denied' })).items.map((a) => a.approval_id),
    [DEMO.approvals.denied],
  );
  assert.is((await mock.client.control.users(P, { limit: 5 })).items.length, 5);
  assert.ok((await mock.client.control.jobs(P)).items.length > 0);
  assert.is((await mock.client.control.releases(P, { limit: 1 })).items[0].id, DEMO.releases.gen4Candidate);

  await mock.client.getRun(P, DEMO.runs.failedApi);
  const [last] = await mock.client.control.requests({ limit: 1, summary: true });
  assert.equal([last.path, last.status, 'request' in last], [`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`, 200, false]);
  const entry = await mock.client.control.journalEntry(last.id);
  assert.equal([entry.id, (entry as { request?: { headers: Record<string, unknown> } }).request?.headers.authorization], [last.id, '[redacted]']);
  try {
    await mock.client.control.journalEntry(last.id + 1000);
    assert.unreachable('a missing entry is refused');
  } catch (err) {
    assert.is((err as ControlError).status, 404);
  }
});

test('the simulation through the client against the CLI: settings, behaviours, step, run', async () => {
  const own = await startCli(['--memory', '--port', '0']);
  try {
    const sim = createClient({ baseUrl: own.url, token: DEMO.tokens.owner });
    assert.is((await sim.control.setSimulation({ mode: 'step' })).mode, 'step');
    const behaviours = await sim.control.setBehaviours({
      projects: [{ project_id: P, queue_wait_ms: 10, steps: [{ name: 'only', step_type: 'model', duration_ms: 20 }] }],
    });
    assert.is(behaviours.projects?.[0].steps?.[0].name, 'only');
    const chat = await sim.chatWebhook(DEMO.connections.chatBinding, { update_id: 777001, message: { from: { id: 5 }, text: 'hi' } }, DEMO.chatSecret);
    const runId = chat.data!.run_id;
    assert.is((await sim.getRun(P, runId)).data?.status, 'queued');
    assert.ok(
      (await sim.control.simulation()).pending.some((e) => e.run_id === runId && e.kind === 'run.start'),
      'its start is pending',
    );
    // In step mode the clock moving fires nothing; run executes up to a time (queue 10 ms, then the 20 ms step).
    const done = await sim.control.runSimulation({ until: '2026-11-20T12:00:00.030Z' });
    assert.is(done.now, '2026-11-20T12:00:00.030Z');
    assert.ok(done.executed >= 2, `${done.executed} events executed`);
    const run = (await sim.getRun(P, runId)).data;
    assert.equal([run?.status, (run?.steps ?? []).map((st) => [st.name, st.status])], ['succeeded', [['only', 'succeeded']]]);
    assert.is(
      (await sim.control.simulation()).pending.some((e) => e.run_id === runId),
      false,
    );
    const step = await sim.control.stepSimulation();
    assert.ok(step.executed === null || typeof step.executed.kind === 'string');
    assert.type(step.pending_count, 'number');
  } finally {
    await own.stop();
  }
});

test.run();
