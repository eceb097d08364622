// Group prior: today's build against the commit of the last full run before the work on speed (5e4f0b1), on the rows
// that must be no worse than they were then: cancels in memory, a GET and cancels through one PostgreSQL instance, and
// loading a 1M-run data file (its wall time follows the machine's speed and load far more than the code's).
// The rows' own baselines (bare Koa, the memory instance) got faster since, so only an A/B in one run tells drift from noise.
// The cancel rows get the EDGE pace: their target is 1.0 x, equal code, where 2 rounds land a tenth either way.
import { statSync } from 'node:fs';
import { RUN, writeFixture } from '../lib/data.js';
import { dataFile, freshStart, timedStart } from '../lib/data-file.js';
import { ab, pair } from '../lib/ab.js';
import { AUTH, EDGE, POOL, POOL_BATCH, poolCancels, rps, runPath } from '../lib/load.js';
import { pinnedCli } from '../lib/pinned.js';
import { bad, fmt, report, reportThroughput } from '../lib/report.js';
import { mockServer, type Server } from '../lib/servers.js';
import { cancels, database } from './postgres.js';

/** The commit `npm run bench` measured in full last before the work on speed began (2026-11-26, end of the day). */
export const PRIOR = '5e4f0b1';

const say = (line: string) => process.stderr.write(`  prior: ${line}\n`);

/** c-p: cancels of queued runs in memory, in batches with a pool reset between (row c's load). */
async function memoryCancels() {
  say(`cancels in memory, ${PRIOR} against today's build`);
  const [before, now, stop] = await pair(PRIOR, '--memory', '--fixtures', writeFixture('fixture-pool.json', { runs: POOL }));
  try {
    const r = await ab(before, now, poolCancels(before.url), poolCancels(now.url), EDGE);
    reportThroughput(
      { id: 'c-p0', what: `cancel of a queued run, memory, on commit ${PRIOR} (req/s)`, rps: rps(r.base), bad: bad(r.base) },
      { id: 'c-p', what: `cancel of a queued run, memory, against commit ${PRIOR} (req/s)`, rps: rps(r.subject), bad: bad(r.subject) },
      1.0,
      `${r.cpu}, resets aside; batches of ${POOL_BATCH} cancels`,
    );
  } finally {
    await stop();
  }
}

/** pg1-p and pgw1-p: each build's instance on a database of its own in one PostgreSQL server, seeded alike. */
async function postgres() {
  const first = await database('_prior');
  const second = await database('_today', first.url);
  const servers: Server[] = [];
  try {
    const fixture = writeFixture('fixture-pool.json', { runs: POOL });
    const before = await pinnedCli(PRIOR, '--database', first.url, '--fixtures', fixture, '--reset');
    servers.push(before);
    const now = await mockServer('--database', second.url, '--fixtures', fixture, '--reset');
    servers.push(now);
    say(`GET run detail on one PostgreSQL instance, ${PRIOR} against today's build`);
    const read = (s: Server) => ({ url: s.url, path: runPath(RUN), headers: AUTH });
    const r = await ab(before, now, read(before), read(now));
    reportThroughput(
      { id: 'pg1-p0', what: `GET run detail, 1 PostgreSQL instance, on commit ${PRIOR} (req/s)`, rps: rps(r.base), bad: bad(r.base) },
      { id: 'pg1-p', what: `GET run detail, 1 PostgreSQL instance, against commit ${PRIOR} (req/s)`, rps: rps(r.subject), bad: bad(r.subject) },
      1.0,
      r.cpu,
    );
    say(`cancels on one PostgreSQL instance, ${PRIOR} against today's build`);
    const w = await ab(before, now, cancels([before.url]), cancels([now.url]), EDGE);
    reportThroughput(
      { id: 'pgw1-p0', what: `cancel of a queued run, 1 PostgreSQL instance, on commit ${PRIOR} (req/s)`, rps: rps(w.base), bad: bad(w.base) },
      { id: 'pgw1-p', what: `cancel of a queued run, 1 PostgreSQL instance, against commit ${PRIOR} (req/s)`, rps: rps(w.subject), bad: bad(w.subject) },
      1.0,
      `${w.cpu}, resets aside`,
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await second.drop();
    await first.drop();
  }
}

/** l-1M-p: the CLI started on the 1M-run data file, the two builds in turn, twice each; the faster of each build's two. */
async function loads() {
  const file = await dataFile(1_000_000);
  const MB = 1024 * 1024;
  type Load = Awaited<ReturnType<typeof timedStart>>;
  const before: Load[] = [];
  const now: Load[] = [];
  for (let round = 0; round < 2; round++) {
    say(`loading ${fmt(statSync(file).size / MB)} MB of 1M runs, ${PRIOR} then today's build (round ${round + 1} of 2)`);
    before.push(await timedStart(() => pinnedCli(PRIOR, '--data', file), file));
    now.push(await timedStart(() => mockServer('--data', file), file));
  }
  freshStart(file);
  const best = (xs: Load[]) => xs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const [b, n] = [best(before), best(now)];
  const ratio = n.seconds / b.seconds;
  const line = (x: Load) => `${fmt(x.seconds, 1)} s (${fmt(x.cpu, 1)} s of CPU)`;
  report({
    id: 'l-1M-p0',
    what: `start the CLI on a data file of 1M runs on commit ${PRIOR}: until listening`,
    value: line(b),
    baseline: '',
    ratio: '',
    target: '',
    met: null,
  });
  report({
    id: 'l-1M-p',
    what: `start the CLI on a data file of 1M runs against commit ${PRIOR}: until listening`,
    value: line(n),
    baseline: `${fmt(b.seconds, 1)} s at ${PRIOR}`,
    ratio: `${fmt(ratio, 2)} x ${PRIOR}`,
    // Two loads a side on a shared machine: a tenth either way is noise here.
    target: `<= 1.1 x ${PRIOR}`,
    met: ratio <= 1.1,
    note: `each build's faster of two loads; CPU ${fmt(n.cpu / b.cpu, 2)} x`,
  });
}

export async function priorGroup() {
  await memoryCancels();
  await postgres();
  await loads();
}
