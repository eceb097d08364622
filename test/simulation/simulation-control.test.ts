// The simulation's control surface: modes (off by default embedded), step, run {until|idle}, the event bound, behaviours, fixtures, reset and snapshots.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { DAY, HOUR, KNOWN, P, advance, at, chat, getRun, owner, simFixture, simMock } from '../helpers/simulation.js';
import { stateFromFixture, FixtureError } from '../../src/fixtures.js';
import { createClient } from '../../src/client/index.js';

const NOW = DEMO.now;

test('embedded default: mode off; a chat run stays queued however far the clock moves, and nothing is scheduled', async () => {
  const m = await freshMock();
  const before = m.mock.control.exportState();
  const id = await chat(m);
  await advance(m, DAY);
  assert.is((await getRun(m, id)).status, 'queued');
  const sim = (await m.http.get('/_mock/simulation')).body;
  assert.equal([sim.mode, sim.pending_count, sim.pending], ['off', 0, []]);
  const after = m.mock.control.exportState();
  assert.equal([after.simulation_events, after.user_spend], [[], []]);
  // The demo's behaviours are in its settings record, untouched: no mode, no seed drawn.
  assert.equal(after.simulation, before.simulation);
  assert.equal(Object.keys(after.simulation[0]).sort(), ['behaviours', 'clock', 'id', 'traffic']);
});

test('step mode: a test holds the run between two transitions; each step executes exactly one event and the clock jumps to it', async () => {
  const m = await simMock({ mode: 'step' });
  const id = await chat(m);
  await advance(m, HOUR);
  assert.is((await getRun(m, id)).status, 'queued', 'in step mode a clock move fires nothing');
  const now = Date.parse(NOW) + HOUR;
  // The run's start was due at +1 s: already past, so the clock stays where it is.
  const first = await m.http.post('/_mock/simulation/step');
  assert.is(first.status, 200);
  assert.equal(first.body.executed, { at: at(NOW, 1000), kind: 'run.start', project_id: P, run_id: id });
  assert.is(first.body.now, new Date(now).toISOString());
  const held = await getRun(m, id);
  assert.is(held.status, 'running');
  assert.equal(
    held.steps.map((s) => [s.name, s.status]),
    [['recall', 'running']],
  );
  await m.mock.control.setClock(NOW);
  const second = await m.mock.control.stepSimulation();
  assert.equal(second.executed, { at: at(NOW, 1200), kind: 'step.finish', project_id: P, run_id: id });
  assert.is(second.now, at(NOW, 1200), 'the clock jumped to the event');
  assert.equal(
    (await getRun(m, id)).steps.map((s) => [s.name, s.status]),
    [
      ['recall', 'succeeded'],
      ['think', 'running'],
    ],
  );
});

test('step with nothing pending answers executed: null', async () => {
  const m = await freshMock();
  const res = await m.http.post('/_mock/simulation/step');
  assert.equal([res.status, res.body.executed, res.body.pending_count], [200, null, 0]);
});

test('run {until}: every event due by then, each stamped with its own time; the clock then reads until', async () => {
  const m = await simMock({ mode: 'step' });
  const id = await chat(m);
  const res = await m.http.post('/_mock/simulation/run').send({ until: at(NOW, 2000) });
  assert.is(res.status, 200);
  assert.equal([res.body.executed, res.body.by_kind, res.body.now], [2, { 'run.start': 1, 'step.finish': 1 }, at(NOW, 2000)]);
  const run = await getRun(m, id);
  assert.equal(
    run.events.map((e) => [e.type, e.at]),
    [
      ['run.started', at(NOW, 1000)],
      ['step.started', at(NOW, 1000)],
      ['step.succeeded', at(NOW, 1200)],
      ['step.started', at(NOW, 1200)],
    ],
  );
  assert.is((await m.http.get('/_mock/clock')).body.now, at(NOW, 2000));
  const early = await m.http.post('/_mock/simulation/run').send({ until: NOW });
  assert.equal([early.status, early.body.detail[0].loc], [422, ['body', 'until']]);
  for (const body of [{}, { until: at(NOW, 5000), idle: true }]) {
    const bad = await m.http.post('/_mock/simulation/run').send(body);
    assert.equal([bad.status, bad.body.detail[0].loc], [422, ['body']]);
  }
});

test("run {idle}: until no run has work left (jobs and traffic do not count); the clock reads the last event's time", async () => {
  const m = await simMock({ mode: 'step' });
  const id = await chat(m);
  const res = await m.mock.control.runSimulation({ idle: true });
  assert.is((await getRun(m, id)).status, 'succeeded');
  assert.is(res.now, at(NOW, 64_200));
  assert.ok(res.pending_count > 0, 'jobs and budget resets stay pending');
  assert.ok((await m.mock.control.simulation()).pending.every((e) => !e.run_id));
});

test('more events than the bound: run and clock moves are refused with 422 and change nothing', async () => {
  const m = await simMock({}, { simulation: { mode: 'auto', maxEvents: 5 } });
  await chat(m);
  await chat(m);
  const before = stateOf(m.mock);
  const run = await m.http.post('/_mock/simulation/run').send({ until: at(NOW, HOUR) });
  assert.is(run.status, 422);
  assert.equal(run.body.detail[0].loc, ['body', 'until']);
  assert.match(run.body.detail[0].msg, /more than 5 simulated events/);
  assert.is(stateOf(m.mock), before);
  const clock = await m.http.post('/_mock/clock').send({ advance_ms: HOUR });
  assert.equal([clock.status, clock.body.detail[0].loc], [422, ['body', 'advance_ms']]);
  assert.is(stateOf(m.mock), before);
  assert.is((await m.http.post('/_mock/simulation/run').send({ until: at(NOW, 1200) })).status, 200, 'a smaller step is fine');
});

test('PUT behaviours: validated with loc; runs queued afterwards follow the new behaviour', async () => {
  const m = await simMock();
  const cases: [object, (string | number)[]][] = [
    [{ projects: [{ project_id: P, steps: [{ name: 'x', step_type: 'model', duration_ms: -1 }] }] }, ['body', 'projects', 0, 'steps', 0, 'duration_ms']],
    [{ projects: [{ project_id: P, steps: [{ name: 'x', step_type: 'dance', duration_ms: 1 }] }] }, ['body', 'projects', 0, 'steps', 0, 'step_type']],
    [{ projects: [{ project_id: '2b0c7a43-51a8-4e5f-9d3c-0f6f7f3e1a01' }] }, ['body', 'projects', 0, 'project_id']],
    [{ default: { steps: [{ name: 'x', step_type: 'model', duration_ms: 1, approval: {} }] } }, ['body', 'default', 'steps', 0, 'approval']],
    [{ default: { outcome: { probabilities: { succeeded: 0, failed: 0 } } } }, ['body', 'default', 'outcome', 'probabilities']],
  ];
  const before = stateOf(m.mock);
  for (const [body, loc] of cases) {
    const res = await m.http.put('/_mock/simulation/behaviours').send(body);
    assert.is(res.status, 422, JSON.stringify(body));
    assert.equal(res.body.detail[0].loc, loc);
  }
  assert.is(stateOf(m.mock), before);
  const quick = { project_id: P, queue_wait_ms: 5, steps: [{ name: 'only', step_type: 'skill', duration_ms: 7, cost_usd: 0.5 }] };
  const ok = await m.http.put('/_mock/simulation/behaviours').send({ projects: [quick] });
  assert.is(ok.status, 200);
  assert.equal((await m.http.get('/_mock/simulation')).body.behaviours.projects[0].steps[0].name, 'only');
  const id = await chat(m);
  await advance(m, 12);
  const run = await getRun(m, id);
  assert.equal([run.status, run.timing.skill_ms, run.timing.end_to_end_ms, run.cost_usd], ['succeeded', 7, 12, 0.5]);
});

test('PUT /_mock/simulation: off -> auto schedules the active jobs; a bad mode or traffic binding is a 422', async () => {
  const m = await freshMock({ seed: 3 });
  assert.is((await m.http.put('/_mock/simulation').send({ mode: 'sometimes' })).status, 422);
  const traffic = await m.http.put('/_mock/simulation').send({ traffic: [{ binding_id: DEMO.connections.crm, messages_per_hour: 5 }] });
  assert.equal([traffic.status, traffic.body.detail[0].loc], [422, ['body', 'traffic', 0, 'binding_id']]);
  const on = await m.http.put('/_mock/simulation').send({ mode: 'auto', speed: 60 });
  assert.equal([on.status, on.body.mode, on.body.speed], [200, 'auto', 60]);
  const jobs = on.body.pending.filter((e: { kind: string }) => e.kind === 'job.fire').map((e: { job_id: string }) => e.job_id);
  const active = [...m.mock.store.values('jobs')].filter((j) => j.status === 'active').map((j) => j.id);
  assert.equal(jobs.sort(), active.sort());
});

test('coverage: simulated transitions are reported apart from client traffic', async () => {
  const m = await simMock();
  await chat(m);
  await advance(m, HOUR);
  const report = (await m.http.get('/_mock/coverage')).body;
  assert.is(report.simulated.events, 6);
  assert.equal(report.simulated.by_kind, { 'approval.decide': 1, 'run.start': 1, 'step.finish': 4 });
  assert.ok(report.simulated.transitions.includes('run: queued -> running'));
  assert.ok(report.simulated.transitions.includes('approval: pending -> approved'));
  const webhook = report.operations.find((o: { operation: string }) => o.operation === 'chatWebhook');
  assert.equal(webhook.exercised.transitions, ['run: none -> queued', 'user: none -> active']);
  assert.not.ok(report.operations.some((o: { exercised: { transitions: string[] } }) => o.exercised.transitions.includes('run: queued -> running')));
});

test('fixtures: the simulation key is validated with path-named errors, references included', async () => {
  const problems = (f: unknown) => {
    try {
      stateFromFixture(f);
      return [];
    } catch (err) {
      return (err as FixtureError).problems;
    }
  };
  assert.ok(problems(simFixture({ mode: 'sometimes' })).some((p) => p.startsWith('simulation.mode: ')));
  const badStep = simFixture({ behaviours: { projects: [{ project_id: P, steps: [{ name: 'x', step_type: 'model' }] }] } });
  assert.ok(problems(badStep).includes('simulation.behaviours.projects[0].steps[0].duration_ms: Field required'), problems(badStep).join('\n'));
  const unknown = simFixture({ behaviours: { projects: [{ project_id: '2b0c7a43-51a8-4e5f-9d3c-0f6f7f3e1a01' }] } });
  assert.equal(problems(unknown), ['simulation.behaviours.projects[0].project_id: unknown project']);
  assert.equal(problems(simFixture({ traffic: [{ binding_id: DEMO.connections.crm, messages_per_hour: 1 }] })), [
    'simulation.traffic[0].binding_id: connection binding of kind oauth, not chatapp',
  ]);
  const badCron = simFixture({}, (f) => ((f.jobs as { schedule: unknown }[])[0].schedule = { cron: '61 * * * *', timezone: 'UTC' }));
  assert.ok(problems(badCron)[0].startsWith('jobs[0].schedule.cron: '), problems(badCron).join());
  const badZone = simFixture({}, (f) => ((f.jobs as { schedule: unknown }[])[0].schedule = { cron: '0 6 * * *', timezone: 'Mars/Olympus' }));
  assert.ok(problems(badZone)[0].startsWith('jobs[0].schedule.timezone: '), problems(badZone).join());
  const http = (await freshMock()).http;
  const res = await http.post('/_mock/fixtures').send(badStep);
  assert.equal([res.status, res.body.detail[0].loc], [422, ['body', 'simulation', 'behaviours', 'projects', 0, 'steps', 0, 'duration_ms']]);
});

test("reset restores the fixture's simulation; snapshots and PUT /_mock/state carry the pending events", async () => {
  const m = await simMock({ mode: 'step' });
  await m.http.put('/_mock/simulation').send({ mode: 'auto' });
  await m.http.put('/_mock/simulation/behaviours').send({ default: { queue_wait_ms: 3 } });
  const id = await chat(m);
  const snap = m.mock.control.snapshot();
  const exported = (await m.http.get('/_mock/state')).body;
  await advance(m, HOUR);
  assert.is((await getRun(m, id)).status, 'succeeded');
  await m.mock.control.restore(snap);
  assert.is((await getRun(m, id)).status, 'queued');
  assert.ok(
    (await m.mock.control.simulation()).pending.some((e) => e.run_id === id),
    'the restored run start is pending again',
  );
  await advance(m, HOUR);
  assert.is((await getRun(m, id)).status, 'succeeded', 'and fires after a restore');
  assert.is((await m.http.put('/_mock/state').send(exported)).status, 200);
  assert.is((await getRun(m, id)).status, 'queued');
  await m.mock.control.runSimulation({ idle: true });
  assert.is((await getRun(m, id)).status, 'succeeded');
  await m.http.post('/_mock/reset');
  const sim = (await m.http.get('/_mock/simulation')).body;
  assert.equal([sim.mode, sim.behaviours.default, sim.behaviours.projects[0].queue_wait_ms], ['step', {}, KNOWN.queue_wait_ms]);
  assert.is((await m.http.get(`/api/v3/projects/${P}/runs/${id}`).set(owner)).status, 404);
});

test('the control routes are in the OpenAPI document', async () => {
  const { http } = await freshMock();
  const doc = (await http.get('/openapi.json')).body;
  for (const [path, method] of [
    ['/_mock/simulation', 'get'],
    ['/_mock/simulation', 'put'],
    ['/_mock/simulation/step', 'post'],
    ['/_mock/simulation/run', 'post'],
    ['/_mock/simulation/behaviours', 'put'],
  ]) {
    assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
  }
});

test('the typed client drives the simulation: settings, behaviours, step and run', async () => {
  const m = await simMock({ mode: 'step' });
  const client = createClient({ baseUrl: 'http://localhost', fetch: (req) => m.mock.fetch(req), token: DEMO.tokens.owner });
  const behaviours = await client.control.setBehaviours({
    projects: [{ project_id: P, queue_wait_ms: 10, steps: [{ name: 'only', step_type: 'model', duration_ms: 20 }] }],
  });
  assert.is(behaviours.projects?.[0].steps?.[0].name, 'only');
  const id = await chat(m);
  const step = await client.control.stepSimulation();
  assert.equal(step.executed, { at: at(NOW, 10), kind: 'run.start', project_id: P, run_id: id });
  const run = await client.control.runSimulation({ idle: true });
  assert.equal([run.executed, run.by_kind, run.now], [1, { 'step.finish': 1 }, at(NOW, 30)]);
  assert.equal((await client.control.setSimulation({ mode: 'off' })).mode, 'off');
  assert.is(
    (await client.control.simulation()).pending.some((e) => e.run_id === id),
    false,
  );
});

test.run();
