// The coverage gate: mock.control.assertCoverage and `project-runtime-mock coverage` (threshold, requirements, JUnit,
// Markdown), each gap with control calls that, pasted, provoke it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AssertionError } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import type { Gap } from '../../src/control/coverage-gate.js';
import { DEMO } from '../helpers/demo.js';
import { CLI, startCli } from '../helpers/cli.js';

const P = DEMO.projects.support;
const cancel = (mock: MockApp, runId: string) =>
  mock.fetch(`/api/v3/projects/${P}/runs/${runId}/cancel`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${DEMO.tokens.operator}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
const demo = () => createApp({ storage: 'memory', fixtures: demoFixture() });

function thrown(fn: () => unknown): AssertionError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, AssertionError);
    return err as AssertionError;
  }
  throw new Error('expected an AssertionError');
}

test('assertCoverage: a requirement never met throws, naming it with calls that, pasted and followed, meet it', async () => {
  const mock = await demo();
  assert.is((await cancel(mock, DEMO.runs.waitingApproval)).status, 200);
  const err = thrown(() => mock.control.assertCoverage({ require: ['cancelRun:200', 'cancelRun:409:run_not_cancellable'] }));
  const gaps = err.actual as Gap[];
  assert.equal(
    gaps.map((g) => g.what),
    ['cancelRun:409:run_not_cancellable'],
  );
  assert.match(err.message, 'cancelRun never answered status 409');
  assert.match(err.message, "mock.control.transitionRun(PROJECT, run.id, { to: 'succeeded' })");
  // Paste the calls: they make a terminal run; cancelling it then answers 409 run_not_cancellable.
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
  const run = await new AsyncFunction('mock', 'PROJECT', `${gaps[0].calls.join('\n')}\nreturn run;`)(mock, P);
  const res = await cancel(mock, run.id);
  assert.equal([res.status, ((await res.json()) as { detail: { reason_code: string } }).detail.reason_code], [409, 'run_not_cancellable']);
  const ok = mock.control.assertCoverage({ require: ['cancelRun:200', 'cancelRun:409:run_not_cancellable'] });
  assert.equal([ok.ok, ok.gaps], [true, []]);
});

test('assertCoverage: a threshold over the coverage throws with hints; at or under it passes; bad options are TypeErrors', async () => {
  const mock = await demo();
  await cancel(mock, DEMO.runs.failedApi);
  const percent = mock.control.coverage().summary.percent;
  assert.ok(percent > 0 && percent < 100);
  const err = thrown(() => mock.control.assertCoverage({ failUnder: percent + 0.1 }));
  const gaps = err.actual as Gap[];
  assert.is(gaps[0].what, 'threshold');
  assert.match(gaps[0].message, `coverage ${percent}% is under ${percent + 0.1}%`);
  assert.match(gaps[0].message, 'never called: POST /api/v3/auth/token');
  assert.ok(gaps.length > 1 && gaps.length <= 11, 'hints for the first missing reason codes');
  assert.ok(
    gaps.slice(1).every((g) => g.what.startsWith('cancelRun:')),
    'hints come from the operations called',
  );
  assert.is(mock.control.assertCoverage({ failUnder: percent }).ok, true);
  for (const bad of [{ failUnder: 101 }, { require: ['nope:200'] }, { require: ['cancelRun:4xx'] }]) {
    try {
      mock.control.assertCoverage(bad);
      assert.unreachable(JSON.stringify(bad));
    } catch (e) {
      assert.instance(e, TypeError);
    }
  }
});

test('coverage command: prints a table, writes JUnit and Markdown, exits 1 on an unmet requirement or threshold, 0 when met, 2 on misuse', async () => {
  const cli = await startCli(['--memory', '--port', '0', '--simulation', 'off']);
  const dir = mkdtempSync(join(tmpdir(), 'coverage-gate-'));
  try {
    await fetch(`${cli.url}/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`, { headers: { Authorization: `Bearer ${DEMO.tokens.owner}` } });
    const junit = join(dir, 'coverage.xml');
    const md = join(dir, 'coverage.md');
    const run = (...args: string[]) => spawnSync(process.execPath, [CLI, 'coverage', '--url', cli.url, ...args], { encoding: 'utf8' });
    const failed = run('--fail-under', '50', '--require', 'getRun:200', '--require', 'cancelRun:409:run_not_cancellable', '--junit', junit, '--markdown', md);
    assert.is(failed.status, 1, failed.stderr);
    assert.match(failed.stdout, /^getRun\s+[1-9]\d*\s+1\/5\s+0\/\d+\s+0\/0$/m);
    assert.match(failed.stdout, /^cancelRun\s+0\s+0\/7/m);
    assert.match(failed.stdout, 'mock.control.transitionRun(PROJECT, run.id');
    assert.match(failed.stdout, /failed \(2 unmet\)$/m);
    const xml = readFileSync(junit, 'utf8');
    assert.match(xml, 'tests="3" failures="2"');
    assert.match(xml, '<testcase classname="coverage" name="getRun:200"/>');
    assert.match(xml, /name="cancelRun:409:run_not_cancellable"><failure message="cancelRun never answered status 409/);
    const text = readFileSync(md, 'utf8');
    assert.match(text, /^## Coverage: [\d.]+% \(failed\)$/m);
    assert.match(text, /^\| `getRun` \| [1-9]\d* \| 1\/5 \| 0\/\d+ \| 0\/0 \|$/m);
    const passed = run('--require', 'getRun:200');
    assert.is(passed.status, 0, passed.stdout);
    assert.match(passed.stdout, /passed$/m);
    const misuse = run('--require', 'getRun');
    assert.is(misuse.status, 2);
    assert.match(misuse.stderr, 'should be OPERATION:STATUS[:REASON]');
  } finally {
    await cli.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
