// Runs every uvu suite under test/ in shards (test/runner/worker.mjs), then the README recipes in examples/,
// and closes with the "N passed, N failed" line CI reads. Every registered test counts: one that never finished
// (crashed shard, hook error, timeout) or was never run (a file without test.run()) is a failure, and no test = failure.
//
// test/ mirrors src/ by folder: the suites of src/<folder>/ are in test/<folder>/ (storage/, storage/postgres/,
// control/faults/, domain/desired-state/, sandboxes/, ...). Top-level src files and whole-package concerns have
// folders named for what they hold: app/ (app.ts, mock.ts, fixtures, errors, whole-app properties), cli/, validation/
// (validation.ts and pydantic/), package/ (dist/, the packed tarball, CJS, the import graph), docs/, container/,
// python/, runner/ (this runner and its tests). Shared helpers are in helpers/ (helpers/consumer/: the consumer's
// project); browser/ holds the docs' browser check and the screenshots it saves.
//
// `node test/run.mjs 'regex'` runs the suites (*.test.* files) whose path under test/ or whose file name matches:
// '^storage/' runs a folder, 'sandbox' every suite with that in its path.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allowedSkips, isCI, propertyRuns, propertySeed, runTimeoutMs, shardCount, testTimeoutMs } from './runner/config.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pattern = process.argv[2] ?? '\\.test\\.ts$';
// TEST_DIR runs the suites of another folder (the runner's own tests use it); it or a pattern leaves out the recipes.
const dir = (process.env.TEST_DIR ?? 'test').replace(/\/+$/, '');
const dirPath = resolve(root, dir);
const narrowed = process.argv[2] !== undefined || process.env.TEST_DIR !== undefined;

let config;
try {
  config = {
    shards: shardCount(availableParallelism()),
    runs: propertyRuns(),
    seed: propertySeed(),
    testTimeout: testTimeoutMs(),
    runTimeout: runTimeoutMs(),
    ci: isCI(),
    allowSkip: allowedSkips(),
  };
} catch (err) {
  process.stdout.write(`${err.message}\n\n0 passed, 0 failed (not run: invalid settings)\n`);
  process.exit(1);
}
// A test still running this long past its timeout blocks the event loop (its own timer cannot fire): kill its shard.
const hungGraceMs = Math.min(30_000, Math.max(2_000, config.testTimeout));
// Every suite's temporary files go under one folder of this run's (TMPDIR, which os.tmpdir() reads), removed when the
// run passes: a test that forgets its own leaves nothing behind. A failed run keeps it, and says where, to look into.
const scratch = mkdtempSync(join(tmpdir(), 'prm-test-run-'));
const env = { ...process.env, TMPDIR: scratch, FORCE_COLOR: '0', PROPERTY_RUNS: String(config.runs), PROPERTY_SEED: String(config.seed) };
const replay = `property seed ${config.seed}, ${config.runs} cases per property (replay: PROPERTY_SEED=${config.seed})`;
process.stdout.write(`${replay}; timeouts: ${config.testTimeout} ms per test, ${config.runTimeout} ms in all\n`);

/** The suite files (*.test.ts, *.test.mjs, ...) under test/, as paths relative to it; dot folders and node_modules left out. */
function suites(rel = '') {
  return readdirSync(join(dirPath, rel), { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.') && e.name !== 'node_modules')
    .flatMap((e) => {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) return suites(path);
      return /\.test\.[cm]?[jt]s$/.test(e.name) ? [path] : [];
    });
}

/** Splits the suites into one process per core (the machine has two), largest first, so CLI-spawning suites do not queue behind each other. */
function shards(count) {
  const match = new RegExp(pattern);
  const files = suites()
    .filter((f) => match.test(f) || match.test(basename(f)))
    .map((f) => ({
      name: `${dir}/${f}`,
      weight: statSync(join(dirPath, f)).size * (/^(property|crash-safety|durability|cli|concurrency)\./.test(basename(f)) ? 4 : 1),
    }))
    .sort((a, b) => b.weight - a.weight || (a.name < b.name ? -1 : 1));
  const groups = Array.from({ length: count }, () => ({ weight: 0, files: [] }));
  for (const f of files) {
    const g = groups.reduce((min, x) => (x.weight < min.weight ? x : min));
    g.weight += f.weight;
    g.files.push(f.name);
  }
  // The uvu recipe imports the built package (dist/), as a user would; `npm test` builds it first (pretest).
  if (!narrowed) groups.reduce((min, x) => (x.weight < min.weight ? x : min)).files.push('examples/uvu.test.mjs');
  return groups.filter((g) => g.files.length > 0).map((g) => g.files);
}

/** What one uvu shard reported on fd 3, and how it ended. */
function shardTally(events, exit, files) {
  const t = { passed: 0, failed: 0, skipped: 0, notes: [], unfinished: 0 };
  const queued = new Map();
  const ended = new Map();
  let running = null;
  for (const e of events) {
    if (e.t === 'start') running = e;
    if (e.t === 'end') running = null;
    if (e.t === 'queued') {
      queued.set(e.file, (queued.get(e.file) ?? 0) + e.count);
      t.skipped += e.skipped;
    } else if (e.t === 'end') {
      ended.set(e.file, (ended.get(e.file) ?? 0) + 1);
      if (e.ok) t.passed++;
      else t.failed++;
    } else if (e.t === 'load-error') {
      t.failed++;
      t.notes.push(`${e.file} failed to load`);
    } else if (e.t === 'no-run') {
      t.failed += e.count;
      t.notes.push(`${e.count} test(s) of ${e.file} never run (no test.run())`);
    } else if (e.t === 'needs-skip') {
      const required = config.ci && !config.allowSkip.has(e.need);
      if (required) t.failed += Math.max(e.count, 1);
      else t.skipped += e.count;
      t.notes.push(`${e.file} skipped: needs ${e.need} (${e.hint})${required ? ' — required under CI (TEST_ALLOW_SKIP lists exceptions)' : ''}`);
    } else if (e.t === 'hook-error') {
      // The hook's own error, so a failure seen only in CI can be understood from its log.
      t.notes.push(`${e.what} failed: ${String(e.error).split('\n').slice(0, 4).join(' | ')}`);
    }
  }
  for (const [file, n] of queued) t.unfinished += Math.max(0, n - (ended.get(file) ?? 0));
  const done = events.some((e) => e.t === 'done');
  const loaded = new Set(events.filter((e) => e.t === 'load').map((e) => e.file));
  const neverLoaded = files.filter((f) => !loaded.has(f));
  if (!done || exit.killed) {
    const why =
      exit.killed ??
      `shard crashed (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})${running ? ` while running ${running.file} › "${running.name}"` : ''}`;
    // Tests of files it never reached are unknown: each such file counts as one failure.
    t.notes.push(
      `${why}${t.unfinished ? `: ${t.unfinished} unfinished test(s) counted as failed` : ''}${neverLoaded.length ? `; never loaded: ${neverLoaded.join(', ')}` : ''}`,
    );
    t.failed += neverLoaded.length;
  } else if (exit.code !== 0 && t.failed === 0 && t.unfinished === 0) {
    t.failed++;
    t.notes.push(`shard exited with code ${exit.code} though every test passed`);
  } else if (t.unfinished) {
    t.notes.push(`${t.unfinished} test(s) never finished (a before hook failed)`);
  }
  t.failed += t.unfinished;
  return t;
}

/** Runs one shard; kills it when a test hangs past its timeout or the run's deadline passes. */
function runShard(files, deadline) {
  return new Promise((resolveShard) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/runner/worker.mjs', ...files], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env,
    });
    let out = '';
    let report = '';
    const events = [];
    let current = null; // { name, file, since }
    let killed = null;
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.stdio[3].on('data', (c) => {
      report += c;
      let nl;
      while ((nl = report.indexOf('\n')) >= 0) {
        const e = JSON.parse(report.slice(0, nl));
        report = report.slice(nl + 1);
        events.push(e);
        if (e.t === 'start') current = { ...e, since: Date.now() };
        if (e.t === 'end') current = null;
      }
    });
    const watchdog = setInterval(() => {
      const running = current ? `${current.file} › "${current.name}"` : 'between tests';
      let reason;
      if (Date.now() >= deadline) reason = `run timeout (${config.runTimeout} ms, TEST_RUN_TIMEOUT_MS)`;
      else if (current && Date.now() - current.since > config.testTimeout + hungGraceMs)
        reason = `hung for ${Math.round((Date.now() - current.since) / 1000)} s without yielding to its timeout`;
      if (reason) {
        killed = `${reason} while running ${running}: shard killed`;
        if (current) events.push({ t: 'end', file: current.file, name: current.name, ok: false, error: `${reason}: shard killed` });
        clearInterval(watchdog);
        child.kill('SIGKILL');
      }
    }, 1000);
    child.on('close', (code, signal) => {
      clearInterval(watchdog);
      process.stdout.write(out);
      const t = shardTally(events, { code, signal, killed }, files);
      for (const n of t.notes) process.stdout.write(`\n  ! ${n}\n`);
      const ends = events.filter((e) => e.t === 'end');
      resolveShard({ ...t, times: ends.filter((e) => e.ms !== undefined), failures: ends.filter((e) => !e.ok) });
    });
  });
}

/** The node:test recipes: TAP summary `# tests N`, `# pass N`, ... */
function runNodeTest(files, deadline) {
  const file = files.join(' ');
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=tap', ...files], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), Math.max(0, deadline - Date.now()));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      process.stdout.write(out);
      const num = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(out)?.[1] ?? 0);
      const t = { passed: num('pass'), failed: num('fail') + num('cancelled'), skipped: num('skipped') + num('todo'), notes: [], unfinished: 0, times: [] };
      if ((code !== 0 || signal) && t.failed === 0) {
        t.failed = 1;
        t.notes.push(`${file} ended with ${signal ?? `exit code ${code}`} before reporting a failure`);
      }
      for (const n of t.notes) process.stdout.write(`\n  ! ${n}\n`);
      resolveRun({ ...t, failures: [...out.matchAll(/^not ok \d+ - (.*)$/gm)].map((m) => ({ file, name: m[1], error: '' })) });
    });
  });
}

// The built package is read by many suites at once: one that rebuilt it mid-run (an npm step running the prepare
// script) would fail others at random. Its files' times are taken now and compared at the end.
const distDir = resolve(root, process.env.TEST_DIST_DIR ?? 'dist'); // TEST_DIST_DIR: the runner's own tests
const distTimes = () => {
  try {
    return Object.fromEntries(readdirSync(distDir).map((f) => [f, statSync(join(distDir, f)).mtimeMs]));
  } catch {
    return null;
  }
};
const distBefore = distTimes();

const deadline = Date.now() + config.runTimeout;
const results = await Promise.all([
  ...shards(config.shards).map((files) => runShard(files, deadline)),
  ...(narrowed
    ? []
    : [runNodeTest(['examples/node-test.test.mjs', 'examples/simulation.test.mjs', 'examples/embedding.test.mjs', 'examples/tutorial.test.mjs'], deadline)]),
]);

const sum = { passed: 0, failed: 0, skipped: 0, unfinished: 0 };
for (const r of results) for (const k of Object.keys(sum)) sum[k] += r[k];
const slowest = results
  .flatMap((r) => r.times)
  .filter((e) => e.ms >= 1000)
  .sort((a, b) => b.ms - a.ms)
  .slice(0, 3);
if (slowest.length) process.stdout.write(`\nslowest: ${slowest.map((e) => `${e.file} › "${e.name}" ${(e.ms / 1000).toFixed(1)} s`).join('; ')}\n`);
const distAfter = distTimes();
const rebuilt = distBefore && distAfter ? Object.keys({ ...distBefore, ...distAfter }).filter((f) => distBefore[f] !== distAfter[f]) : [];
if (rebuilt.length) {
  sum.failed++;
  results.push({
    notes: [
      `dist/ changed during the run (${rebuilt.slice(0, 3).join(', ')}${rebuilt.length > 3 ? ', ...' : ''}): a suite rebuilt the package under the others`,
    ],
    failures: [],
    times: [],
  });
}
const notes = results.flatMap((r) => r.notes);
const failures = results.flatMap((r) => r.failures);
if (failures.length) process.stdout.write(`failed:\n${failures.map((e) => `  ✘ ${e.file} › "${e.name}"${e.error ? `: ${e.error}` : ''}`).join('\n')}\n`);
if (sum.failed > 0) process.stdout.write(`${replay}\n`);
if (notes.length) process.stdout.write(`${notes.length} note(s):\n${notes.map((n) => `  - ${n}`).join('\n')}\n`);
const total = sum.passed + sum.failed;
if (total === 0) process.stdout.write('no test ran: failing the run\n');
const extra = [sum.skipped ? `${sum.skipped} skipped` : '', sum.unfinished ? `${sum.unfinished} of the failed never finished` : ''].filter(Boolean);
if (sum.failed > 0 || total === 0) process.stdout.write(`temporary files kept in ${scratch}\n`);
else rmSync(scratch, { recursive: true, force: true });
process.stdout.write(`\n${sum.passed} passed, ${sum.failed} failed${extra.length ? `, ${extra.join(', ')}` : ''}\n`);
process.exit(sum.failed > 0 || total === 0 ? 1 : 0);
