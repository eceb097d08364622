// Retention of simulated history on disk and in the CLI: the marks survive a restart on the JSON file, a removal cut by
// kill -9 leaves a loadable file holding whole slices only, and --retain-days (7 by default for the living demo).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { JsonFileAdapter } from '../../src/storage/adapters.js';
import type { StateData } from '../../src/schemas/state.js';
import { runCliToExit, startCli, type RunningCli } from '../helpers/cli.js';
import { DEMO } from '../helpers/demo.js';
import { DAY, HOUR } from '../helpers/simulation.js';

type Json = Record<string, any>;
const NOW = Date.parse(DEMO.now);
const tmpFile = () => join(mkdtempSync(join(tmpdir(), 'prm-retention-')), 'db.json');
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stored = async (file: string) => (await new JsonFileAdapter(file, { report: {} }).read())!.state;

/** Every approval, trace, chat update and mark points at a run that exists: no removal was stored in part. */
function assertWhole(s: StateData) {
  const runs = new Set(s.runs.map((r) => r.id));
  for (const a of s.approvals) assert.ok(runs.has(a.run_id!), `approval ${a.id} of a missing run`);
  for (const t of s.traces) if (t.run_id) assert.ok(runs.has(t.run_id), `trace ${t.id} of a missing run`);
  for (const c of s.chat_updates) assert.ok(runs.has(c.run_id), `chat update ${c.key} of a missing run`);
  for (const m of s.simulated_runs) assert.ok(runs.has(m.run_id), `mark of a missing run ${m.run_id}`);
}

const endOf = (run: Json) => Date.parse([...run.events].reverse().find((e: Json) => /^run\.(succeeded|failed|cancelled)$/.test(e.type))?.at ?? 'x');

test('JSON file: the marks survive a restart, and runs marked before it go once their time comes', async () => {
  const file = tmpFile();
  const fixtures = structuredClone(demoFixture()) as Json;
  fixtures.simulation = {
    ...fixtures.simulation,
    seed: 'restart',
    retention_days: 1,
    traffic: [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 4 }],
  };
  const open = () => createApp({ storage: new JsonFileAdapter(file, { report: {} }), fixtures, simulation: { mode: 'auto' } });
  const first = await open();
  await first.control.runSimulation({ until: new Date(NOW + 1.5 * DAY).toISOString() });
  const before = first.control.exportState();
  assert.ok(before.simulated_runs.length > 100);
  await first.close();

  const again = await open();
  assert.equal(again.control.exportState().simulated_runs, before.simulated_runs, 'the marks were stored');
  const end = NOW + 4 * DAY;
  await again.control.runSimulation({ until: new Date(end).toISOString() });
  const after = again.control.exportState();
  assertWhole(after);
  const left = new Set(after.runs.map((r) => r.id));
  const earlier = before.runs.filter((r) => before.simulated_runs.some((m) => m.run_id === r.id));
  for (const r of earlier) assert.not.ok(left.has(r.id) && endOf(r) < end - DAY - HOUR, `run ${r.id} made before the restart is still there`);
  assert.ok(
    earlier.every((r) => !left.has(r.id)),
    'every run marked before the restart ended more than a day ago and went',
  );
  assert.ok(again.control.coverage().simulated.removed.runs >= earlier.length);
  await again.close();
  assertWhole(await stored(file));
});

test('kill -9 while retention removes: the data file loads, holds whole slices only, and a restart goes on removing', async () => {
  const file = tmpFile();
  // A simulated day every 2.2 s of real time, 20 messages a simulated hour: removal starts about 2.3 s in.
  const args = ['--port', '0', '--data', file, '--speed', '40000', '--traffic', '20', '--retain-days', '1'];
  for (let round = 0; round < 2; round++) {
    const cli: RunningCli = await startCli(args, 30_000);
    const sim = (await (await fetch(`${cli.url}/_mock/simulation`)).json()) as Json;
    assert.is(sim.retention_days, 1);
    // Until the running clock has removed a few slices (this round's), then at an arbitrary moment of the next ones.
    let removed = 0;
    for (let i = 0; i < 600 && removed < 3; i++) {
      await wait(100);
      removed = ((await (await fetch(`${cli.url}/_mock/coverage`)).json()) as Json).simulated.removed.slices;
    }
    assert.ok(removed >= 3, `only ${removed} slices were removed`);
    await wait(Math.floor(Math.random() * 400));
    await cli.stop('SIGKILL');
    const s = await stored(file);
    assertWhole(s);
    assert.ok(s.simulated_runs.length > 0);
    // The next round restarts on this file: it loads, and its own removals (counted afresh) go on from the stored marks.
  }
});

test("CLI: --retain-days is stored; else the fixture's; else 7 with --speed or --traffic, else 0; a bad value exits 2 naming the flag", async () => {
  const read = async (cli: RunningCli) => ((await (await fetch(`${cli.url}/_mock/simulation`)).json()) as Json).retention_days;
  const fixtureFile = join(mkdtempSync(join(tmpdir(), 'prm-retention-')), 'fixture.json');
  const fixture = structuredClone(demoFixture()) as Json;
  fixture.simulation = { ...fixture.simulation, retention_days: 2 };
  writeFileSync(fixtureFile, JSON.stringify(fixture));
  const plain = await startCli(['--port', '0', '--memory'], 30_000);
  const living = await startCli(['--port', '0', '--memory', '--traffic', '1'], 30_000);
  const given = await startCli(['--port', '0', '--memory', '--speed', '2', '--retain-days', '3'], 30_000);
  const fromFixture = await startCli(['--port', '0', '--memory', '--fixtures', fixtureFile, '--speed', '2'], 30_000);
  try {
    assert.equal([await read(plain), await read(living), await read(given), await read(fromFixture)], [0, 7, 3, 2]);
    const state = (await (await fetch(`${given.url}/_mock/state`)).json()) as Json;
    assert.is(state.simulation[0].retention_days, 3);
  } finally {
    await Promise.all([plain.stop(), living.stop(), given.stop(), fromFixture.stop()]);
  }
  for (const bad of ['-1', '1.5', 'week', '36501']) {
    const res = await runCliToExit(['--memory', `--retain-days=${bad}`]);
    assert.is(res.code, 2, bad);
    assert.match(res.stderr, `--retain-days must be a whole number of days from 0 to 36500, got ${bad}`);
  }
});

test.run();
