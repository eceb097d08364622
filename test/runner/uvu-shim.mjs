// uvu's `suite` and `test`, as the worker (worker.mjs) hands them to the suites: registrations are held until
// run() (so a suite that never calls it is reported, not silently dropped or merged into the next file), each
// test runs its before/after-each hooks under one per-test timeout, and its start and end go to the runner.
import * as uvu from 'uvu';

export const exec = uvu.exec;
const runner = globalThis.__TEST_RUNNER__;

/** Rejects when `work` has not settled after the per-test timeout (the work itself cannot be stopped). */
function withTimeout(work, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${runner.timeoutMs} ms (TEST_TIMEOUT_MS)`)), runner.timeoutMs);
  });
  return Promise.race([Promise.resolve(work), limit]).finally(() => clearTimeout(timer));
}

function instrument(real, suiteName) {
  const held = { tests: [], only: [], skips: 0, before: [], after: [], bEach: [], aEach: [] };
  runner.suites.push({ name: suiteName, held });
  const t = (name, handler) => held.tests.push({ name, handler });
  t.only = (name, handler) => held.only.push({ name, handler });
  t.skip = () => void held.skips++;
  t.before = (fn) => void held.before.push(fn);
  t.before.each = (fn) => void held.bEach.push(fn);
  t.after = (fn) => void held.after.push(fn);
  t.after.each = (fn) => void held.aEach.push(fn);
  t.run = () => {
    const file = runner.currentFile;
    const { tests, only, skips, before, after, bEach, aEach } = held;
    Object.assign(held, { tests: [], only: [], skips: 0, before: [], after: [], bEach: [], aEach: [] });
    const all = [...tests, ...only];
    const missing = runner.missingNeed(file);
    if (missing) return runner.emit({ t: 'needs-skip', file, suite: suiteName, count: all.length, need: missing.name, hint: missing.hint });
    const label = (name) => `${suiteName ? `${suiteName} › ` : ''}${name}`;
    for (const hook of before) real.before(wrapHook(file, hook, `before hook of ${file}${suiteName ? ` › ${suiteName}` : ''}`));
    for (const hook of after) real.after(wrapHook(file, hook, `after hook of ${file}${suiteName ? ` › ${suiteName}` : ''}`));
    for (const x of tests) real(x.name, wrapTest(file, label(x.name), x.handler, bEach, aEach));
    for (const x of only) real.only(x.name, wrapTest(file, label(x.name), x.handler, bEach, aEach));
    for (let i = 0; i < skips; i++) real.skip();
    const running = only.length ? only.length : tests.length;
    runner.emit({ t: 'queued', file, suite: suiteName, count: running, skipped: all.length - running + skips });
    real.run();
  };
  return t;
}

function wrapHook(file, hook, what) {
  return async (state) => {
    try {
      await withTimeout(hook(state), what);
    } catch (err) {
      // uvu swallows a before-hook error (its runner returns from `finally`): say it, the runner fails the suite's tests.
      runner.emit({ t: 'hook-error', file, what, error: String(err?.stack ?? err) });
      throw err;
    }
  };
}

/** One test as uvu sees it: before-each hooks, the test, after-each hooks (also after a failure), like uvu's own order. */
function wrapTest(file, name, handler, bEach, aEach) {
  return async (state) => {
    runner.emit({ t: 'start', file, name });
    const started = performance.now();
    let ok = false;
    let error;
    try {
      await withTimeout(
        (async () => {
          try {
            for (const hook of bEach) await hook(state);
            await handler(state);
          } finally {
            for (const hook of aEach) await hook(state);
          }
        })(),
        `test "${name}"`,
      );
      ok = true;
    } catch (err) {
      error = String(err?.message ?? err)
        .split('\n')[0]
        .slice(0, 300);
      throw err;
    } finally {
      runner.emit({ t: 'end', file, name, ok, error, ms: Math.round(performance.now() - started) });
    }
  };
}

export const suite = (name = '', state = {}) => instrument(uvu.suite(name, state), name);
export const test = instrument(uvu.test, '');
