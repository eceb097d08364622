// Retention of simulated history: the setting (fixture, PUT, defaults, 422s), 60 days of the demo holding about the last
// 7 days of simulated runs, fixture/control/v3 records of every kind surviving, exactly which runs go, runs under way kept.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, type TestMock } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { DAY, HOUR, KNOWN, P, SECRET, chat, simFixture } from '../helpers/simulation.js';
import { demoFixture } from '../../src/fixtures.js';
import type { StateData } from '../../src/schemas/state.js';

type Json = Record<string, any>;
const NOW = Date.parse(DEMO.now);
const iso = (ms: number) => new Date(ms).toISOString();
const TRAFFIC = (perHour: number) => [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: perHour }];
const operator = { Authorization: `Bearer ${DEMO.tokens.operator}` };

/** The demo itself (its behaviours and jobs), in auto mode, with `simulation` added to its fixture. */
async function demo(simulation: Json, seed = 11): Promise<TestMock> {
  const f = structuredClone(demoFixture()) as Json;
  f.simulation = { ...f.simulation, ...simulation };
  return freshMock({ fixtures: f, seed, simulation: { mode: 'auto' } });
}

async function runUntil(m: TestMock, ms: number) {
  const res = await m.http.post('/_mock/simulation/run').send({ until: iso(ms) });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** When a run ended, read from its lifecycle events (null: not ended). */
function endOf(run: Json): number | null {
  if (!['succeeded', 'failed', 'cancelled'].includes(run.status)) return null;
  const end = [...run.events].reverse().find((e: Json) => ['run.succeeded', 'run.failed', 'run.cancelled'].includes(e.type));
  return Date.parse(end.at);
}

/** Every approval, trace and chat update points at a run that exists (a removal never leaves half a run). */
function assertWhole(s: StateData) {
  const runs = new Set(s.runs.map((r) => r.id));
  for (const a of s.approvals) assert.ok(runs.has(a.run_id!), `approval ${a.id} of a missing run`);
  for (const t of s.traces) if (t.run_id) assert.ok(runs.has(t.run_id), `trace ${t.id} of a missing run`);
  for (const c of s.chat_updates) assert.ok(runs.has(c.run_id), `chat update ${c.key} of a missing run`);
  for (const mark of s.simulated_runs) assert.ok(runs.has(mark.run_id), `mark of a missing run ${mark.run_id}`);
}

test('setting: fixture, PUT /_mock/simulation and createApp; 0 by default; bad values are 422 at their loc and change nothing', async () => {
  const plain = await freshMock();
  assert.is((await plain.http.get('/_mock/simulation')).body.retention_days, 0);
  const byOption = await freshMock({ simulation: { retentionDays: 5 } });
  assert.is((await byOption.http.get('/_mock/simulation')).body.retention_days, 5);
  const byFixture = await freshMock({ fixtures: simFixture({ retention_days: 3 }), simulation: { retentionDays: 5 } });
  assert.is((await byFixture.http.get('/_mock/simulation')).body.retention_days, 3, 'the fixture wins over the default');
  const put = await byFixture.http.put('/_mock/simulation').send({ retention_days: 0 });
  assert.equal([put.status, put.body.retention_days], [200, 0]);
  assert.is(byFixture.mock.control.exportState().simulation[0].retention_days, 0, 'stored with the settings');
  for (const bad of [-1, 1.5, 36_501, 'seven', null, [7]]) {
    const res = await byFixture.http.put('/_mock/simulation').send({ retention_days: bad });
    assert.is(res.status, 422, String(bad));
    assert.equal(res.body.detail[0].loc, ['body', 'retention_days']);
  }
  assert.is((await byFixture.http.get('/_mock/simulation')).body.retention_days, 0);
  assert.is((await byFixture.http.put('/_mock/simulation').send({ retention_days: 36_500 })).body.retention_days, 36_500);
  const badFixture = await byFixture.http.post('/_mock/fixtures').send(simFixture({ retention_days: -2 }));
  assert.is(badFixture.status, 422);
  assert.equal(badFixture.body.detail[0].loc.slice(-2), ['simulation', 'retention_days']);
});

test('60 days of the demo with 7 days of retention hold about the last 7 days of simulated runs; fixture, control and v3 records all stay', async () => {
  const m = await demo({ traffic: TRAFFIC(5), retention_days: 7 });
  const before = m.mock.control.exportState();
  assertWhole(before);
  // Records a test makes itself: a control run the simulation moves, a control run waiting on its approval, a v3 chat
  // message (its run, trace and the approval its gate opens) and a v3 retry of a failed fixture run.
  const simulated = await m.http.post(`/_mock/projects/${P}/runs`).send({ simulate: true });
  const waiting = await m.http.post(`/_mock/projects/${P}/runs`).send({ status: 'waiting_approval' });
  const retry = await m.http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`).set(operator).send({ reason: 'kept' });
  assert.equal([simulated.status, waiting.status, retry.status], [200, 200, 201]);
  const chatRun = await chat(m, 'keep me', 777);
  const mine = [simulated.body.id, waiting.body.id, retry.body.id, chatRun];

  const end = NOW + 60 * DAY;
  await runUntil(m, end);
  const s = m.mock.control.exportState();
  assertWhole(s);

  // Every fixture record of every kind is still there, unchanged where the simulation does not move it.
  for (const kind of ['runs', 'approvals', 'traces', 'memories', 'users', 'jobs', 'projects', 'releases', 'connections'] as const) {
    const ids = new Set((s[kind] as Json[]).map((r) => r.id));
    for (const r of before[kind] as Json[]) assert.ok(ids.has(r.id), `fixture ${kind} ${r.id} was removed`);
  }
  assert.equal(s.memories, before.memories);
  const runs = new Map(s.runs.map((r) => [r.id, r as Json]));
  for (const id of mine) assert.ok(runs.has(id), `run ${id} made by a test was removed`);
  assert.is(runs.get(chatRun)!.status, 'succeeded', 'the v3 chat run was moved along by the simulation, and kept');
  assert.ok(
    s.approvals.some((a) => a.run_id === chatRun),
    'the approval the simulation opened for a v3 run stays',
  );
  assert.ok(s.approvals.some((a) => a.run_id === waiting.body.id));
  assert.ok(s.traces.some((t) => t.run_id === chatRun));
  for (const id of mine)
    assert.not.ok(
      s.simulated_runs.some((x) => x.run_id === id),
      'no test-made run is marked',
    );

  // The band, from the behaviours' rates: 5 messages an hour over 7 days (and up to the hour removal gathers), a Poisson
  // count (4 standard deviations either side); the jobs: the digest daily (up to 3 attempts), the CSAT summary weekly,
  // lead scoring on weekdays, over at most 8 days.
  const kept = s.simulated_runs.map((x) => runs.get(x.run_id)!);
  const chats = kept.filter((r) => r.surface === 'chatapp').length;
  const jobs = kept.filter((r) => r.surface === 'background').length;
  const mean = 5 * 24 * 7;
  assert.ok(chats >= mean - 4 * Math.sqrt(mean) && chats <= mean + 5 + 4 * Math.sqrt(mean), `chat runs kept: ${chats}`);
  assert.ok(jobs >= 7 + 1 + 4 && jobs <= 8 * 3 + 2 + 6, `job runs kept: ${jobs}`);
  assert.is(chats + jobs, kept.length);
  // Nothing that ended more than 7 days (and the gathering hour) ago is left; nothing left ended earlier than 7 days
  // minus that hour, or it would have gone; the oldest kept run is about 7 days old.
  for (const r of kept) {
    const e = endOf(r);
    if (e !== null) assert.ok(e >= end - 7 * DAY - HOUR, `run ${r.id} ended ${iso(e)}, kept`);
  }
  const oldest = Math.min(...kept.map((r) => Date.parse(r.created_at)));
  assert.ok(oldest >= end - 7 * DAY - 2 * HOUR && oldest <= end - 7 * DAY + 6 * HOUR, `oldest kept run: ${iso(oldest)}`);

  // The coverage report counts the removals apart from v3 traffic: everything made minus what is left.
  const report = m.mock.control.coverage();
  const { removed, by_kind: made } = report.simulated;
  // Each traffic message, job firing and automatic retry made one run (the demo's project is live, its targets exist).
  assert.is(removed.runs + kept.length, made['traffic.message'] + made['job.fire'] + (made['job.retry'] ?? 0));
  // Each chat run has its trace, its chat update and the approval its refund gate opened; job runs have none.
  const removedChats = removed.traces;
  assert.equal([removed.chat_updates, removed.approvals], [removedChats, removedChats]);
  assert.ok(removedChats > 6000 && removedChats < removed.runs);
  assert.ok(removed.slices > 0 && removed.slices * 3 < removed.runs, 'removals are gathered, several runs to a transaction');
  // Removal is not client traffic: the v3 operations count only the two requests this test made (a retry, a message).
  assert.is(
    report.operations.reduce((n, o) => n + o.requests, 0),
    2,
  );
});

test('exactly which runs go: the same 10 days with 2 days of retention hold every simulated run of the run without it that ended in the last 2 days, and none that ended before', async () => {
  const all = await demo({ traffic: TRAFFIC(6) }, 5);
  const kept = await demo({ traffic: TRAFFIC(6), retention_days: 2 }, 5);
  const end = NOW + 10 * DAY;
  await runUntil(all, end);
  await runUntil(kept, end);
  const a = all.mock.control.exportState();
  const b = kept.mock.control.exportState();
  assertWhole(b);
  const inB = new Map(b.runs.map((r) => [r.id, r]));
  const marked = new Set(a.simulated_runs.map((x) => x.run_id));
  assert.ok(marked.size > 1000);
  let gone = 0;
  for (const r of a.runs) {
    const e = endOf(r);
    if (!marked.has(r.id) || e === null || e >= end - 2 * DAY) assert.equal(inB.get(r.id), r, `run ${r.id} should be kept as it is`);
    else if (e < end - 2 * DAY - HOUR) {
      assert.not.ok(inB.has(r.id), `run ${r.id} ended ${iso(e)}, still there`);
      gone++;
    }
  }
  const removed = kept.mock.control.coverage().simulated.removed;
  assert.ok(removed.runs >= gone && removed.runs <= gone + 6 * 2, `${removed.runs} removed, ${gone} sure to go`);
  assert.is(a.runs.length - b.runs.length, removed.runs);
  assert.is(a.approvals.length - b.approvals.length, removed.approvals);
  assert.is(a.traces.length - b.traces.length, removed.traces);
  assert.is(a.chat_updates.length - b.chat_updates.length, removed.chat_updates);
  const removedChats = a.runs.filter((r) => marked.has(r.id) && !inB.has(r.id) && r.surface === 'chatapp').length;
  assert.equal([removed.approvals, removed.traces, removed.chat_updates], [removedChats, removedChats, removedChats]);
  assert.is(a.simulated_runs.length - b.simulated_runs.length, removed.runs, 'the marks went with their runs');
  // Everything else is the same state: the simulation went exactly as without retention.
  assert.equal(b.budgets, a.budgets);
  assert.equal(b.jobs, a.jobs);
  assert.equal(b.simulation_events, a.simulation_events);

  assert.is(all.mock.control.coverage().simulated.removed.runs, 0, 'retention 0 keeps everything');
  // Turning retention on later removes what is already past it at the next clock move, marks and all.
  assert.is((await all.http.put('/_mock/simulation').send({ retention_days: 2 })).status, 200);
  await all.mock.control.advanceClock(1);
  const later = all.mock.control.exportState();
  assertWhole(later);
  // All that at once, in slices of at most 256 runs (one transaction each).
  const swept = all.mock.control.coverage().simulated.removed;
  assert.ok(swept.runs > 600);
  assert.is(swept.slices, Math.ceil(swept.runs / 256));
  for (const r of later.runs) {
    const e = endOf(r);
    if (marked.has(r.id) && e !== null) assert.ok(e > end + 1 - 2 * DAY, `run ${r.id} ended ${iso(e)}, kept`);
  }
});

test('a run still under way is kept however old it is, and goes once it has been over for the retention', async () => {
  // Every chat run waits for an approval nobody decides, expiring after 3 days; 1 day of retention.
  const steps = KNOWN.steps.map((s) => (s.approval ? { ...s, approval: { decision: 'none', expires_in_ms: 3 * DAY } } : s));
  const m = await freshMock({
    fixtures: simFixture({ traffic: TRAFFIC(2), retention_days: 1, behaviours: { projects: [{ project_id: P, ...KNOWN, steps }] } }),
    seed: 3,
    simulation: { mode: 'auto' },
  });
  await runUntil(m, NOW + 2.5 * DAY);
  let s = m.mock.control.exportState();
  const marked = new Set(s.simulated_runs.map((x) => x.run_id));
  const waiting = s.runs.filter((r) => r.surface === 'chatapp' && marked.has(r.id));
  // Every message's run is there and waiting, those made more than a day ago too.
  assert.is(waiting.length, m.mock.control.coverage().simulated.by_kind['traffic.message']);
  assert.ok(waiting.every((r) => r.status === 'waiting_approval'));
  assert.ok(waiting.filter((r) => Date.parse(r.created_at) < NOW + 1.4 * DAY).length > 10, 'many were made more than a day ago');

  await runUntil(m, NOW + 6 * DAY);
  s = m.mock.control.exportState();
  assertWhole(s);
  const ids = new Set(s.runs.map((r) => r.id));
  for (const r of waiting) {
    const expired = Date.parse(r.created_at) + 1000 + 200 + 1500 + 3 * DAY; // queue, recall, think, then the gate's expiry
    if (expired < NOW + 6 * DAY - DAY - HOUR) assert.not.ok(ids.has(r.id), `run ${r.id} expired ${iso(expired)}, still there`);
    if (expired >= NOW + 5 * DAY) assert.ok(ids.has(r.id), `run ${r.id} expired ${iso(expired)}, removed too early`);
  }
  assert.ok(m.mock.control.coverage().simulated.removed.runs > 0);
});

test('bounds: a job run is there until a day after it ended, and gone within the hour after; runs go at clock moves in auto mode only', async () => {
  // The digest fires first at its stored next_run_at (06:00 UTC on the 21st); its run follows KNOWN: 64.2 s from firing to success.
  const m = await freshMock({ fixtures: simFixture({ retention_days: 1 }), seed: 9, simulation: { mode: 'auto' } });
  const fired = Date.parse('2026-11-21T06:00:00.000Z');
  const ended = fired + 1000 + 200 + 1500 + 60_000 + 500 + 1000;
  await m.mock.control.setClock(iso(ended));
  const digest = () => m.mock.control.exportState().runs.find((r) => r.created_at === iso(fired) && r.request_metadata.job_name === 'Nightly ticket digest');
  const run = digest();
  assert.equal([run?.status, endOf(run!)], ['succeeded', ended]);
  assert.ok(
    m.mock.control.exportState().simulated_runs.some((x) => x.run_id === run!.id),
    'a job run is marked',
  );
  await m.mock.control.setClock(iso(ended + DAY - 1));
  assert.ok(digest(), 'kept until a day after it ended');
  // In step mode a clock move executes nothing and removes nothing.
  assert.is((await m.http.put('/_mock/simulation').send({ mode: 'step' })).status, 200);
  await m.mock.control.setClock(iso(ended + DAY + HOUR));
  assert.ok(digest(), 'step mode: the clock move removed it');
  // A step executes exactly one event and removes nothing either; run removes what fell due.
  assert.is((await m.http.post('/_mock/simulation/step')).status, 200);
  assert.ok(digest());
  // (The step moved the clock to the event it executed, past the hour.) Back in auto mode, the next clock move removes it.
  assert.ok(Date.parse(m.mock.control.now()) >= ended + DAY + HOUR);
  assert.is((await m.http.put('/_mock/simulation').send({ mode: 'auto' })).status, 200);
  assert.ok(digest());
  await m.mock.control.advanceClock(1);
  assert.not.ok(digest(), 'gone within the hour after');
  // With it went the lead scoring run of the 21st (fired at its stored next_run_at, 07:30, minutes long): two in one slice.
  assert.equal(m.mock.control.coverage().simulated.removed, { slices: 1, runs: 2, approvals: 1, traces: 0, chat_updates: 0 });
  assertWhole(m.mock.control.exportState());
});

test("a simulated run cancelled through v3 is still the simulation's: it goes a day after its cancel", async () => {
  const m = await freshMock({ fixtures: simFixture({ traffic: TRAFFIC(30), retention_days: 1 }), seed: 4, simulation: { mode: 'auto' } });
  await m.mock.control.advanceClock(10 * 60_000);
  const s = m.mock.control.exportState();
  const open = s.runs.filter((r) => s.simulated_runs.some((x) => x.run_id === r.id) && ['queued', 'running', 'waiting_approval'].includes(r.status));
  assert.ok(open.length > 0);
  const cancel = await m.http.post(`/api/v3/projects/${P}/runs/${open[0].id}/cancel`).set(operator).send({ reason: 'test' });
  assert.equal([cancel.status, cancel.body.status], [200, 'cancelled']);
  const cancelledAt = Date.parse(m.mock.control.now());
  const present = () => m.mock.control.exportState().runs.some((r) => r.id === open[0].id);
  await m.mock.control.setClock(iso(cancelledAt + DAY - 1));
  assert.ok(present(), 'kept for a day after its cancel');
  await m.mock.control.setClock(iso(cancelledAt + DAY + HOUR));
  assert.not.ok(present(), 'gone within the hour after');
  assertWhole(m.mock.control.exportState());
});

test('a v3 message on a binding with traffic is not marked; a mark holds only run_id, created_at and approvals', async () => {
  const m = await demo({ traffic: TRAFFIC(1), retention_days: 1 });
  const res = await m.http
    .post(`/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`)
    .set(SECRET)
    .send({ update_id: 99, message: { from: { id: 5 }, text: 'hi' } });
  assert.is(res.status, 200);
  await runUntil(m, NOW + 4 * DAY);
  const s = m.mock.control.exportState();
  assert.ok(s.runs.some((r) => r.id === res.body.run_id));
  assert.ok(s.simulated_runs.length > 0);
  assert.equal(
    Object.keys(s.simulated_runs[0])
      .filter((k) => k !== 'approvals')
      .sort(),
    ['created_at', 'run_id'],
  );
  assert.not.ok(s.simulated_runs.some((x) => x.run_id === res.body.run_id));
});

test.run();
