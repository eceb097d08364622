// The runner (test/run.mjs) itself: every registered test counts (a crashed shard's, a file without test.run()),
// timeouts fail a hung test by name, the property settings are checked, and a missing requirement skips (or, in CI, fails).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/cli.js';
import { DEFAULT_PROPERTY_RUNS, DEFAULT_RUN_TIMEOUT_MS, DEFAULT_TEST_TIMEOUT_MS } from './config.mjs';

const NEEDS = pathToFileURL(join(ROOT, 'test/helpers/needs.ts')).href;
const FIXTURES: Record<string, string> = {
  // 2 pass, 1 fails
  'basic.test.mjs': `import { test } from 'uvu';
test('ok 1', () => {});
test('ok 2', async () => {});
test('fails', () => { throw new Error('one is not two'); });
test.run();`,
  // 2 registered, never run
  'norun.test.mjs': `import { test, suite } from 'uvu';
test('forgotten 1', () => {});
const s = suite('forgotten suite');
s('forgotten 2', () => {});`,
  // the first fails by the per-test timeout, the second still runs
  'hang.test.mjs': `import { test } from 'uvu';
test('hangs forever', () => new Promise(() => {}));
test('after the hang', () => {});
test.run();`,
  // 2 skipped for a missing service
  'needs.test.mjs': `import { test } from 'uvu';
import { needs } from '${NEEDS}';
needs('imaginary-db', false, 'set IMAGINARY_DB_URL');
test('needs 1', () => {});
test('needs 2', () => {});
test.run();`,
  'crash.test.mjs': `import { test } from 'uvu';
test('before the crash', () => {});
test('crashes the process', () => new Promise(() => setTimeout(() => { throw new Error('uncaught'); }, 5)));
test('never reached', () => {});
test.run();`,
  'spin.test.mjs': `import { test } from 'uvu';
test('spins without yielding', () => { const end = Date.now() + 30000; while (Date.now() < end); });
test('after the spin', () => {});
test.run();`,
  // suites in folders, found however deep; a file that is not a suite (a helper) is never run, whatever the pattern
  'store/disk/deep.test.mjs': `import { test } from 'uvu';
test('deep 1', () => {});
test.run();`,
  'store/near.test.mjs': `import { test } from 'uvu';
test('near 1', () => {});
test('near 2', () => {});
test.run();`,
  'store/helper.mjs': `throw new Error('a helper is not a suite');`,
  // rewrites a file of the built package's folder (TEST_DIST_DIR here) while the run goes on
  'rebuild.test.mjs': `import { test } from 'uvu';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
test('rebuilds', () => writeFileSync(join(process.env.TEST_DIST_DIR, 'index.js'), 'rebuilt ' + Date.now()));
test.run();`,
  // leaves a file in the temporary folder and says which folder that was; fails when PROBE_FAIL is set
  'tmp.test.mjs': `import { test } from 'uvu';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
test('leaves a file behind', () => {
  writeFileSync(join(mkdtempSync(join(tmpdir(), 'left-')), 'x'), 'x');
  writeFileSync(process.env.PROBE_OUT, tmpdir());
  if (process.env.PROBE_FAIL) throw new Error('asked to fail');
});
test.run();`,
};

const dir = mkdtempSync(join(tmpdir(), 'runner-test-'));
for (const [name, text] of Object.entries(FIXTURES)) {
  mkdirSync(dirname(join(dir, name)), { recursive: true });
  writeFileSync(join(dir, name), text);
}
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs test/run.mjs on the fixtures matching `pattern`, with a clean environment plus `env`. */
function runner(pattern: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string; last: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'CI' && !/^(PROPERTY_|TEST_)/.test(k)));
  const child = spawn(process.execPath, ['test/run.mjs', pattern], {
    cwd: ROOT,
    env: { ...clean, TEST_DIR: dir, TEST_SHARDS: '1', TEST_TIMEOUT_MS: '1000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, last: out.trimEnd().split('\n').at(-1) ?? '' })));
}

test('runner: failures, a file without test.run(), a timed-out test and a skipped requirement all count', async () => {
  const r = await runner('^(basic|norun|hang|needs)\\.');
  assert.is(r.last, '3 passed, 4 failed, 2 skipped', r.out);
  assert.is(r.code, 1);
  assert.match(r.out, '1 test(s) of ' + dir + '/norun.test.mjs never run (no test.run())');
  assert.match(r.out, /test "hangs forever" timed out after 1000 ms \(TEST_TIMEOUT_MS\)/);
  assert.match(r.out, /✘ .*basic\.test\.mjs › "fails": one is not two/);
  assert.match(r.out, /needs\.test\.mjs skipped: needs imaginary-db \(set IMAGINARY_DB_URL\)/);
  assert.match(r.out, /property seed -?\d+/);
});

test('runner: under CI a skipped requirement fails, unless TEST_ALLOW_SKIP names it', async () => {
  const ci = await runner('^needs\\.', { CI: 'true' });
  assert.is(ci.last, '0 passed, 2 failed', ci.out);
  assert.is(ci.code, 1);
  assert.match(ci.out, 'required under CI');
  const allowed = await runner('^needs\\.', { CI: 'true', TEST_ALLOW_SKIP: 'other, imaginary-db' });
  assert.is(allowed.last, '0 passed, 0 failed, 2 skipped', allowed.out);
  assert.is(allowed.code, 1, 'no test ran');
});

test('runner: a crashed shard keeps its unfinished tests as failures and names the test it was running', async () => {
  const r = await runner('^crash\\.');
  assert.is(r.last, '1 passed, 2 failed, 2 of the failed never finished', r.out);
  assert.is(r.code, 1);
  assert.match(r.out, /shard crashed \(exit code \d+\) while running .*crash\.test\.mjs › "crashes the process"/);
});

test('runner: a test that blocks the event loop is killed past its timeout, by name', async () => {
  const r = await runner('^spin\\.');
  assert.is(r.last, '0 passed, 2 failed, 1 of the failed never finished', r.out);
  assert.match(r.out, /✘ .*spin\.test\.mjs › "spins without yielding": hung for \d+ s without yielding to its timeout: shard killed/);
});

test('runner: the run timeout stops everything and names the running test', async () => {
  // Long enough for the worker to start on a loaded machine (it must be inside the hanging test when the deadline comes).
  const r = await runner('^hang\\.', { TEST_TIMEOUT_MS: '60000', TEST_RUN_TIMEOUT_MS: '6000' });
  assert.is(r.last, '0 passed, 2 failed, 1 of the failed never finished', r.out);
  assert.match(r.out, /run timeout \(6000 ms, TEST_RUN_TIMEOUT_MS\) while running .*hang\.test\.mjs › "hangs forever"/);
});

test('runner: suites in folders run; the pattern matches the path under the folder or the file name; helpers never run', async () => {
  const folder = await runner('^store/');
  assert.is(folder.last, '3 passed, 0 failed', folder.out);
  const deeper = await runner('^store/disk/');
  assert.is(deeper.last, '1 passed, 0 failed', deeper.out);
  assert.match(deeper.out, `${dir}/store/disk/deep.test.mjs`);
  const byName = await runner('^(near|basic)\\.');
  assert.is(byName.last, '4 passed, 1 failed', byName.out);
  const helper = await runner('helper');
  assert.is(helper.last, '0 passed, 0 failed', helper.out);
});

test('runner: no test at all fails the run', async () => {
  const r = await runner('^nothing-matches$');
  assert.is(r.code, 1);
  assert.match(r.out, 'no test ran: failing the run');
  assert.is(r.last, '0 passed, 0 failed');
});

test('runner: property settings are checked before anything runs; CI never runs fewer cases than the default', async () => {
  for (const [env, message] of [
    [{ PROPERTY_RUNS: '0' }, 'PROPERTY_RUNS=0: expected a whole number of at least 1'],
    [{ PROPERTY_RUNS: '5', CI: '1' }, 'PROPERTY_RUNS=5 is below the default 80: CI never runs fewer property cases'],
    [{ PROPERTY_SEED: 'x' }, 'PROPERTY_SEED=x: expected a 32-bit integer'],
    [{ TEST_TIMEOUT_MS: '-1' }, 'TEST_TIMEOUT_MS=-1: expected a whole number of at least 1'],
  ] as const) {
    const r = await runner('^basic\\.', env);
    assert.is(r.code, 1, JSON.stringify(env));
    assert.match(r.out, message);
    assert.is(r.last, '0 passed, 0 failed (not run: invalid settings)');
  }
  const more = await runner('^basic\\.', { PROPERTY_RUNS: '120', CI: '1', PROPERTY_SEED: '-7' });
  assert.match(more.out, 'property seed -7, 120 cases per property (replay: PROPERTY_SEED=-7)');
  assert.is(more.last, '2 passed, 1 failed');
});

test('runner: docs/testing.md documents every setting with the defaults the runner uses', () => {
  const docs = readFileSync(join(ROOT, 'docs/testing.md'), 'utf8');
  const rows: [string, string][] = [
    ['PROPERTY_RUNS', `\`${DEFAULT_PROPERTY_RUNS}\``],
    ['PROPERTY_SEED', 'random'],
    ['TEST_TIMEOUT_MS', `\`${DEFAULT_TEST_TIMEOUT_MS}\``],
    ['TEST_RUN_TIMEOUT_MS', `\`${DEFAULT_RUN_TIMEOUT_MS}\``],
    ['TEST_SHARDS', 'cores, at most 2'],
    ['TEST_ALLOW_SKIP', 'none'],
    ['TEST_DIR', '`test`'],
    ['CI', 'unset'],
  ];
  for (const [name, fallback] of rows) assert.ok(docs.includes(`| \`${name}\` | ${fallback} |`), `${name} (${fallback}) missing from the table`);
  // And nothing else is read from the environment by the runner's settings.
  const config = readFileSync(join(ROOT, 'test/runner/config.mjs'), 'utf8');
  const read = new Set([...config.matchAll(/env(?:\.|\[')([A-Z_]+)/g), ...config.matchAll(/whole\(env, '([A-Z_]+)'/g)].map((m) => m[1]));
  for (const name of read)
    assert.ok(
      rows.some(([n]) => n === name),
      `${name} is read but not documented`,
    );
});

test("runner: a suite's temporary files go under a folder of the run's, removed when the run passes and kept (named) when it fails", async () => {
  const probe = join(dir, 'probe.txt');
  const passed = await runner('^tmp\\.', { PROBE_OUT: probe });
  assert.is(passed.last, '1 passed, 0 failed', passed.out);
  const used = readFileSync(probe, 'utf8');
  assert.is(dirname(used), tmpdir(), 'a folder directly under the system temporary folder');
  assert.match(used.slice(tmpdir().length), /^\/prm-test-run-/);
  assert.not.ok(existsSync(used), 'removed with what the suite left in it');
  assert.not.match(passed.out, 'temporary files kept');

  const failed = await runner('^tmp\\.', { PROBE_OUT: probe, PROBE_FAIL: '1' });
  assert.is(failed.last, '0 passed, 1 failed', failed.out);
  const kept = readFileSync(probe, 'utf8');
  assert.is.not(kept, used, 'each run has its own');
  assert.match(failed.out, `temporary files kept in ${kept}\n`);
  assert.equal(readdirSync(kept).filter((n) => n.startsWith('left-')).length, 1);
  rmSync(kept, { recursive: true, force: true });
});

test('runner: a suite that rewrites the built package while others run fails the run, naming the files', async () => {
  const dist = join(dir, 'dist');
  mkdirSync(dist, { recursive: true });
  writeFileSync(join(dist, 'index.js'), 'built');
  writeFileSync(join(dist, 'other.js'), 'built');
  const r = await runner('^rebuild\\.', { TEST_DIST_DIR: dist });
  assert.is(r.last, '1 passed, 1 failed', r.out);
  assert.is(r.code, 1);
  assert.match(r.out, 'dist/ changed during the run (index.js): a suite rebuilt the package under the others');
  const untouched = await runner('^store/near\\.', { TEST_DIST_DIR: dist });
  assert.is(untouched.last, '2 passed, 0 failed', untouched.out);
});

test.run();
