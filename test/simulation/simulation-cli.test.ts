// The simulation in the built CLI: auto by default, --simulation, --speed and --traffic (the living demo of npm start),
// a long run's summary line, and a sped-up clock that stops while the server is down.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliToExit, startCli, type RunningCli } from '../helpers/cli.js';
import { DEMO } from '../helpers/demo.js';
import { HOUR, P, SECRET, owner } from '../helpers/simulation.js';

type Json = Record<string, any>;
const call = async (cli: RunningCli, path: string, init: RequestInit = {}): Promise<Json> => {
  const res = await fetch(cli.url + path, { ...init, headers: { 'content-type': 'application/json', ...owner, ...(init.headers as Record<string, string>) } });
  const body = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body as Json;
};
const waitFor = async (what: string, check: () => Promise<boolean>) => {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

test('cli: the simulation is auto by default; the demo clock stays frozen until moved, then the demo behaviour plays out', async () => {
  const cli = await startCli(['--port', '0', '--memory']);
  try {
    const sim = await call(cli, '/_mock/simulation');
    assert.equal([sim.mode, sim.clock, sim.speed, sim.now], ['auto', 'frozen', 1, DEMO.now]);
    assert.ok(
      sim.pending.some((e: Json) => e.kind === 'job.fire'),
      'the active jobs are scheduled',
    );
    // The demo's outcome is drawn (19 in 20 succeed) from an unseeded generator here: pin it, keep everything else.
    const behaviours = structuredClone(sim.behaviours);
    const support = behaviours.projects.find((b: Json) => b.project_id === P);
    support.outcome = { status: 'succeeded' };
    await call(cli, '/_mock/simulation/behaviours', { method: 'PUT', body: JSON.stringify(behaviours) });
    const hook = await call(cli, `/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`, {
      method: 'POST',
      headers: SECRET,
      body: JSON.stringify({ update_id: 42, message: { from: { id: 7 }, text: 'Refund please' } }),
    });
    assert.is((await call(cli, `/api/v3/projects/${P}/runs/${hook.run_id}`)).status, 'queued');
    await call(cli, '/_mock/clock', { method: 'POST', body: JSON.stringify({ advance_ms: HOUR }) });
    const run = await call(cli, `/api/v3/projects/${P}/runs/${hook.run_id}`);
    // The demo's support-bot: faq lookup, triage, a refund behind an approval decided after 10 minutes, the reply.
    assert.is(run.status, 'succeeded');
    assert.equal(
      run.steps.map((s: Json) => s.name),
      ['faq lookup', 'triage', 'approval: crm.issue_refund', 'crm.issue_refund', 'support-bot reply'],
    );
    assert.equal([run.timing.queue_wait_ms, run.timing.approval_wait_ms, run.timing.active_ms], [1500, 600_000, 7000]);
    assert.is(run.cost_usd, 0.0046);
  } finally {
    assert.is(await cli.stop(), 0);
  }
});

test('cli: --speed and --traffic make the demo live: synthetic chat users, runs and approvals appear as real time passes', async () => {
  const cli = await startCli(['--port', '0', '--memory', '--speed', '600', '--traffic', '120']);
  try {
    const sim = await call(cli, '/_mock/simulation');
    assert.equal([sim.mode, sim.clock, sim.speed], ['auto', 'running', 600]);
    assert.equal(sim.traffic, [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 120, senders: 20 }]);
    await waitFor('a simulated chat user and an approval', async () => {
      const users = (await call(cli, `/api/v3/projects/${P}/users?limit=200`)).items;
      const approvals = (await call(cli, `/api/v3/projects/${P}/approvals?limit=200`)).items;
      return users.some((u: Json) => String(u.external_user_id).startsWith('sim-')) && approvals.some((a: Json) => a.tool_id === 'crm.issue_refund');
    });
    assert.ok(Date.parse((await call(cli, '/_mock/clock')).now) > Date.parse(DEMO.now), 'the clock runs');
  } finally {
    assert.is(await cli.stop(), 0);
  }
});

test('cli: --simulation off; a long run prints one summary line; a sped-up clock stops while the server is down', async () => {
  const off = await startCli(['--port', '0', '--memory', '--simulation', 'off']);
  assert.is((await call(off, '/_mock/simulation')).mode, 'off');
  await off.stop();

  const file = join(mkdtempSync(join(tmpdir(), 'prm-sim-cli-')), 'db.json');
  const cli = await startCli(['--port', '0', '--data', file, '--traffic', '600']);
  const ran = await call(cli, '/_mock/simulation/run', { method: 'POST', body: JSON.stringify({ until: '2026-11-20T18:00:00.000Z' }) });
  assert.ok(ran.executed > 10_000, String(ran.executed));
  await cli.stop();
  assert.match(cli.stderr(), /simulation: [\d,]+ events in [\d.]+ s \([\d,]+\/s\), up to 2026-11-20T1/);

  const fast = await startCli(['--port', '0', '--data', file, '--speed', '1000']);
  await new Promise((r) => setTimeout(r, 300));
  await fast.stop();
  const again = await startCli(['--port', '0', '--data', file]);
  const clock = await call(again, '/_mock/clock');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await call(again, '/_mock/clock'), clock, 'restarted without --speed: the clock stays where the sped-up clock stopped');
  assert.ok(Date.parse(clock.now) > Date.parse('2026-11-20T18:00:00.000Z'), 'it ran while the server was up');
  await again.stop();
});

test('cli: bad simulation flags exit 2 with the usage', async () => {
  for (const args of [
    ['--simulation', 'sometimes'],
    ['--speed', '0'],
    ['--traffic', 'lots'],
  ]) {
    const { code, stderr } = await runCliToExit(['--port', '0', '--memory', ...args]);
    assert.is(code, 2, args.join(' '));
    assert.match(stderr, args[0]);
  }
});

test.run();
