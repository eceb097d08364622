// Group pg: instances on one PostgreSQL database against a memory-mode instance: GET run detail and cancels through one
// instance, then 1, 2 and 3 instances behind a round-robin client. Uses DATABASE_URL (a fresh database in it) or starts
// a private cluster with the server's durable defaults, and removes what it made.
import pg from 'pg';
import { CONNECTIONS, JSON_POST, AUTH, cancelLoad, cancelPaths, compare, rps, runPath, type Load } from '../lib/load.js';
import { RUN, runId, writeFixture } from '../lib/data.js';
import { bad, fmt, report } from '../lib/report.js';
import { mockServer, type Server } from '../lib/servers.js';
// @ts-expect-error: a plain ESM script without types
import { startCluster } from '../../scripts/pg-cluster.mjs';

const POOL = 2_000; // queued runs each write batch cancels once; a reset (untimed) brings them back
// autocannon builds requests ahead of time (one or more per connection, and per URL with several URLs): keep a margin
// so that a batch never asks for a run beyond the pool (a 404 would count as an error).
const SIZE = POOL - 4 * CONNECTIONS;

/**
 * A database for the group: a new one in `given`'s server (DATABASE_URL's by default; `tag` tells a second one apart), or
 * in a private cluster started for it; `drop` removes it (and the cluster).
 */
export async function database(tag = '', given = process.env.DATABASE_URL): Promise<{ url: string; drop: () => Promise<void> }> {
  const cluster = given ? null : await startCluster();
  const server = given ?? cluster.url;
  const name = `prm_bench_${process.pid}${tag}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      if (cluster) return cluster.stop();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Cancels of pool runs over `urls` (round-robin per connection), in batches with a pool reset through the first one. */
export function cancels(urls: string[]): Load {
  const paths = cancelPaths();
  const reset = async () => {
    // autocannon ends a batch on its count and closes its sockets: a cancel it sent last may still be on its way
    // through a slower instance. Let such stragglers land first, so that none lands after the reset (a 409 then).
    await new Promise((r) => setTimeout(r, 250));
    const res = await fetch(`${urls[0]}/_mock/reset`, { method: 'POST', headers: JSON_POST, body: '{}' });
    if (res.status !== 200) throw new Error(`/_mock/reset answered ${res.status}`);
    paths.rewind();
  };
  return { ...cancelLoad(urls.length === 1 ? urls[0] : '', paths.next), url: urls, batch: { size: SIZE, before: reset } };
}
const reads = (urls: string[]): Load => ({ url: urls, path: runPath(RUN), headers: AUTH });

/** Mean time of one durable one-row commit: the floor under every group of writes. */
async function durableCommitMs(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('CREATE TABLE commit_probe (id int PRIMARY KEY, n int); INSERT INTO commit_probe VALUES (1, 0)'); // logged, unlike a temp table
    const t0 = performance.now();
    for (let i = 0; i < 50; i++) await c.query('UPDATE commit_probe SET n = n + 1 WHERE id = 1');
    return (performance.now() - t0) / 50;
  } finally {
    await c.end();
  }
}

export async function postgresGroup(): Promise<void> {
  const db = await database();
  const fixture = writeFixture('fixture-pool.json', { runs: POOL });
  const servers: Server[] = [];
  const start = async (...flags: string[]) => {
    const s = await mockServer(...flags);
    servers.push(s);
    return s;
  };
  try {
    const memory = await start('--memory', '--fixtures', fixture);
    // The first instance seeds the database. It runs alone first: others would spend the same 2 cores catching up.
    const first = await start('--database', db.url, '--fixtures', fixture, '--reset');
    const check = await fetch(`${first.url}${runPath(runId(0))}/cancel`, { method: 'POST', headers: { ...AUTH, ...JSON_POST }, body: '{"reason":"bench"}' });
    if (check.status !== 200) throw new Error(`a cancel through PostgreSQL answered ${check.status}`);

    const r = await compare(reads([memory.url]), reads([first.url]));
    report({
      id: 'pg0',
      what: 'GET run detail, memory-mode instance (req/s)',
      value: fmt(rps(r.base)) + bad(r.base),
      baseline: '',
      ratio: '',
      target: 'baseline',
      met: null,
    });
    const readRatio = rps(r.subject) / rps(r.base);
    report({
      id: 'pg1',
      what: 'GET run detail, 1 PostgreSQL instance (req/s)',
      value: fmt(rps(r.subject)) + bad(r.subject),
      baseline: fmt(rps(r.base)),
      ratio: `${fmt(readRatio, 2)} x pg0`,
      target: '>= 0.7 x pg0',
      met: readRatio >= 0.7 && r.subject.bad === 0,
    });

    const w = await compare(cancels([memory.url]), cancels([first.url]));
    report({
      id: 'pgw0',
      what: 'cancel of a queued run, memory-mode instance (req/s)',
      value: fmt(rps(w.base)) + bad(w.base),
      baseline: '',
      ratio: '',
      target: 'baseline',
      met: null,
    });
    const writeRatio = rps(w.subject) / rps(w.base);
    report({
      id: 'pgw1',
      what: 'cancel of a queued run, 1 PostgreSQL instance (req/s)',
      value: fmt(rps(w.subject)) + bad(w.subject),
      baseline: fmt(rps(w.base)),
      ratio: `${fmt(writeRatio, 2)} x pgw0`,
      target: '>= 0.25 x pgw0',
      met: writeRatio >= 0.25 && w.subject.bad === 0,
      note: `batches of ${SIZE} cancels, the pool of ${POOL} queued runs reset between batches (untimed)`,
    });
    await memory.stop();

    // The same database without waiting for the WAL flush at commit: what the disk's fsync costs the writes.
    const commitMs = await durableCommitMs(db.url);
    const nosync = new URL(db.url);
    nosync.searchParams.set('options', '-c synchronous_commit=off');
    const relaxed = await start('--database', nosync.toString(), '--fixtures', fixture);
    const nw = await compare(cancels([first.url]), cancels([relaxed.url]));
    report({
      id: 'pgw1a',
      what: 'cancel, 1 PostgreSQL instance, synchronous_commit=off (req/s)',
      value: fmt(rps(nw.subject)) + bad(nw.subject),
      baseline: fmt(rps(nw.base)),
      ratio: `${fmt(rps(nw.subject) / rps(nw.base), 2)} x durable`,
      target: 'reported',
      met: nw.subject.bad === 0,
      note: `a durable commit (WAL fsync) takes ${fmt(commitMs, 2)} ms on this server (mean of 50 one-row commits)`,
    });
    await relaxed.stop();

    // 1, 2 and 3 instances behind a round-robin client (autocannon spreads its connections over the URLs in turn).
    const more = await Promise.all([0, 1].map(() => start('--database', db.url, '--fixtures', fixture)));
    const sets = [[first.url], [first.url, more[0].url], [first.url, ...more.map((m) => m.url)]];
    for (const n of [2, 3]) {
      const s = await compare(reads(sets[0]), reads(sets[n - 1]));
      report({
        id: `pg${n}`,
        what: `GET run detail, ${n} PostgreSQL instances, round-robin (req/s)`,
        value: fmt(rps(s.subject)) + bad(s.subject),
        baseline: fmt(rps(s.base)),
        ratio: `${fmt(rps(s.subject) / rps(s.base), 2)} x 1 instance`,
        target: 'reported',
        met: s.subject.bad === 0,
      });
    }
    for (const n of [2, 3]) {
      const s = await compare(cancels(sets[0]), cancels(sets[n - 1]));
      report({
        id: `pgw${n}`,
        what: `cancel of a queued run, ${n} PostgreSQL instances, round-robin (req/s)`,
        value: fmt(rps(s.subject)) + bad(s.subject),
        baseline: fmt(rps(s.base)),
        ratio: `${fmt(rps(s.subject) / rps(s.base), 2)} x 1 instance`,
        target: 'reported',
        met: s.subject.bad === 0,
      });
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await db.drop();
  }
}
