// Test-run settings read from the environment, shared by the runner (test/run.mjs) and the suites: property
// case counts, the fast-check seed, timeouts. Invalid values are refused with a message, never guessed.

/** Cases per property when PROPERTY_RUNS is not set; CI never runs fewer. */
export const DEFAULT_PROPERTY_RUNS = 80;
/** A single test (and each of its hooks) fails after this long. */
export const DEFAULT_TEST_TIMEOUT_MS = 60_000;
/** The whole run is stopped after this long; unfinished tests fail with their names. */
export const DEFAULT_RUN_TIMEOUT_MS = 15 * 60_000;

/** CI is set by every CI service; `CI=false` or `CI=0` means not CI. */
export const isCI = (env = process.env) => env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';

function whole(env, name, fallback, min) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name}=${raw}: expected a whole number of at least ${min}`);
  return n;
}

/** Cases per property: PROPERTY_RUNS (at least 1), never below the default when CI is set. */
export function propertyRuns(env = process.env) {
  const n = whole(env, 'PROPERTY_RUNS', DEFAULT_PROPERTY_RUNS, 1);
  if (isCI(env) && n < DEFAULT_PROPERTY_RUNS) {
    throw new Error(`PROPERTY_RUNS=${env.PROPERTY_RUNS} is below the default ${DEFAULT_PROPERTY_RUNS}: CI never runs fewer property cases (unset it)`);
  }
  return n;
}

/** The fast-check seed: PROPERTY_SEED to replay a run, else a fresh one (the runner prints it). */
export function propertySeed(env = process.env) {
  const raw = env.PROPERTY_SEED;
  if (raw === undefined || raw === '') return (Math.random() * 2 ** 31) | 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 31) throw new Error(`PROPERTY_SEED=${raw}: expected a 32-bit integer (as printed by a previous run)`);
  return n;
}

/** Worker processes: TEST_SHARDS, else one per core up to two (the suites spawn servers of their own). */
export const shardCount = (cores, env = process.env) => whole(env, 'TEST_SHARDS', Math.max(1, Math.min(2, cores)), 1);
export const testTimeoutMs = (env = process.env) => whole(env, 'TEST_TIMEOUT_MS', DEFAULT_TEST_TIMEOUT_MS, 1);
export const runTimeoutMs = (env = process.env) => whole(env, 'TEST_RUN_TIMEOUT_MS', DEFAULT_RUN_TIMEOUT_MS, 1);

/** Requirements (see test/helpers/needs.ts) that CI may skip: TEST_ALLOW_SKIP=postgres,chromium. */
export const allowedSkips = (env = process.env) =>
  new Set(
    (env.TEST_ALLOW_SKIP ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
