// One shard of the test run (started by test/run.mjs with `--import tsx`): loads the given suite files through
// the counting uvu shim, runs them with uvu, and reports each step as a JSON line on fd 3, written synchronously
// so that the runner still knows what was registered, what finished and what was running if this process dies.
import { register } from 'node:module';
import { writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { propertySeed, testTimeoutMs } from './config.mjs';

const REPORT_FD = 3;
const emit = (event) => writeSync(REPORT_FD, `${JSON.stringify(event)}\n`);
const missing = new Map(); // file -> { name, hint } of a requirement it declared missing

const runner = {
  currentFile: '',
  timeoutMs: testTimeoutMs(),
  suites: [],
  emit,
  /** Called by test/helpers/needs.ts: the current file's tests are skipped (and fail the run under CI). */
  needsMissing(name, hint) {
    if (!missing.has(runner.currentFile)) missing.set(runner.currentFile, { name, hint });
  },
  missingNeed: (file) => missing.get(file),
};
globalThis.__TEST_RUNNER__ = runner;
globalThis.UVU_DEFER = 1; // uvu queues suites for exec() instead of running each on its own

register('./hooks.mjs', import.meta.url);
const fc = (await import('fast-check')).default;
// Every property of the run draws from this seed (fast-check's failure report adds the path to the case).
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: propertySeed() });
const { exec } = await import('./uvu-shim.mjs');

const root = process.cwd();
let index = 0;
for (const file of process.argv.slice(2)) {
  runner.currentFile = file;
  globalThis.UVU_INDEX = index++;
  globalThis.UVU_QUEUE.push([file]);
  emit({ t: 'load', file });
  try {
    await import(pathToFileURL(resolve(root, file)).href);
  } catch (err) {
    console.error(`\n${file} failed to load:\n${err?.stack ?? err}`);
    emit({ t: 'load-error', file, error: String(err?.message ?? err) });
  }
  // Tests registered but never handed to uvu: the file forgot `test.run()` (or `suite.run()`).
  for (const s of runner.suites) {
    const count = s.held.tests.length + s.held.only.length;
    if (count > 0) {
      console.error(
        `\n${file}: ${count} test(s)${s.name ? ` of suite "${s.name}"` : ''} registered but never run: call ${s.name ? 'the suite' : 'test'}.run() at the end of the file`,
      );
      emit({ t: 'no-run', file, suite: s.name, count });
    }
    Object.assign(s.held, { tests: [], only: [], skips: 0, before: [], after: [], bEach: [], aEach: [] });
  }
}

await exec();
emit({ t: 'done' });
// Exit now: a timed-out test may still hold sockets or timers that would keep the shard alive.
process.exit(process.exitCode ?? 0);
