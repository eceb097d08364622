// Eight concurrent workers on one CLI server, each in its own sandbox: every kind of write, a reset, a clock move, a
// fault and its simulation; each sees only its own state, journal and coverage.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient, type MockClient } from 'project-runtime-mock/client';
import { startCli, type RunningCli } from '../helpers/cli.js';
import { DEMO } from '../helpers/demo.js';

const P = DEMO.projects.support;
const WORKERS = 8;
const HOUR = 60 * 60 * 1000;
let cli: RunningCli;

test.before(async () => {
  cli = await startCli(['--memory', '--port', '0', '--simulation', 'off']);
});
test.after(async () => {
  await cli?.stop();
});

/** One worker: its own sandbox, then everything a test suite does, interleaved with the others. */
async function worker(root: MockClient, i: number) {
  const sb = await root.control.createSandbox({ name: `worker-${i}`, seed: `w${i}`, simulation: { mode: 'step' } });
  const start = Date.parse(`2030-0${1 + (i % 9)}-01T00:00:00Z`);
  // Writes of every kind: a cancel, a deny, a budget, a retry, a user deletion, a run made by control.
  assert.is((await sb.cancelRun(P, DEMO.runs.waitingApproval)).data?.status, 'cancelled');
  // A reset in the middle returns this sandbox (only) to how it was created: the demo at its own start time.
  await sb.control.advanceClock(HOUR);
  await sb.control.reset();
  assert.is((await sb.getRun(P, DEMO.runs.waitingApproval)).data?.status, 'waiting_approval');
  assert.is((await sb.control.clock()).now, DEMO.now, 'reset returns to the clock it was created with');
  const denied = await sb.denyApproval(P, DEMO.approvals.pendingOther, { reason: `worker ${i}` });
  assert.is(denied.data?.approval.status, 'denied');
  assert.is((await sb.setBudget(P, { project_daily_usd: 10 + i })).response.status, 200);
  assert.is((await sb.retryRun(P, DEMO.runs.failedBackground)).response.status, 201);
  const created = await sb.control.createRun(P, { status: 'queued', simulate: true });
  await sb.control.setClock(new Date(start).toISOString());
  // A fault that answers the next jobs read only.
  await sb.control.addFault({ method: 'GET', path: '/api/v3/projects/*/jobs', status: 503, times: 1 });
  assert.is((await sb.listJobs(P)).response.status, 503);
  assert.is((await sb.listJobs(P)).response.status, 200);
  // Its simulation runs its own queue to the end, on its own clock, moved by i hours first.
  await sb.control.advanceClock(i * HOUR);
  const ran = await sb.control.runSimulation({ idle: true });
  assert.ok(ran.executed > 0, `worker ${i} executed its events`);
  const run = (await sb.getRun(P, created.id)).data!;
  assert.ok(['succeeded', 'failed', 'waiting_approval'].includes(run.status), run.status);
  return { i, sb, createdId: created.id, clockAtLeast: start + i * HOUR };
}

test('8 workers in 8 sandboxes of one CLI server: each sees only its own state, journal and coverage', async () => {
  const root = createClient({ baseUrl: cli.url, token: DEMO.tokens.owner });
  const results = await Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(root, i)));
  const createdIds = new Set(results.map((r) => r.createdId));
  assert.is(createdIds.size, WORKERS, 'each worker made its own run');
  for (const { i, sb, createdId, clockAtLeast } of results) {
    // State: its own budget, its own runs (none of the others'), its own deny reason.
    const budget = (await sb.control.projectOverview(P)).budget as { limits: { project_daily_usd: number } };
    assert.is(budget.limits.project_daily_usd, 10 + i);
    for (const other of createdIds) assert.is((await sb.getRun(P, other)).response.status, other === createdId ? 200 : 404);
    assert.is((await sb.getApproval(P, DEMO.approvals.pendingOther)).data?.decision_reason, `worker ${i}`);
    // Clock: its own.
    assert.ok(Date.parse((await sb.control.clock()).now) >= clockAtLeast);
    // Journal: only its own requests since its reset, each once, the fault's 503 once.
    const journal = await sb.control.requests({ path: '/api/v3/**' });
    const statuses = journal.filter((e) => e.operation === 'listJobs').map((e) => e.status);
    assert.equal(statuses, [503, 200]);
    assert.equal(
      journal.filter((e) => e.operation === 'denyApproval').map((e) => e.status),
      [200],
    );
    assert.is(journal.filter((e) => e.operation === 'cancelRun').length, 0, 'the cancel was before its reset');
    // Coverage: counts its own requests only (the fault's answer is not counted).
    const coverage = await sb.control.coverage();
    const count = (op: string) => coverage.operations.find((o) => o.operation === op)!.requests;
    assert.equal([count('listJobs'), count('denyApproval'), count('setBudget'), count('retryRun')], [1, 1, 1, 1]);
  }
  // The default mock saw none of it.
  assert.is((await root.getRun(P, DEMO.runs.waitingApproval)).data?.status, 'waiting_approval');
  assert.equal(
    (await root.control.requests({ path: '/api/v3/**' })).map((e) => e.operation),
    ['getRun'],
    'only the read just made',
  );
  assert.is((await root.control.sandboxes()).items.length, WORKERS);
});

test.run();
