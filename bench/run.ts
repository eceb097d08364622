// `npm run bench`: every measurement of issue 7 in one run, each subject interleaved with its baseline,
// printed as a table of figures and ratios against the targets and written to bench/results.json.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app.js';
import { demoFixture } from '../src/fixtures.js';
import { PROJECT, RUN, TOKEN, WORK, runId, writeFixture, writeJsonServerDb, writeWork } from './data.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = 3; // per measured round
const ROUNDS = 2; // rounds per side, alternating baseline and subject
const CONNECTIONS = 10;
const AUTH = { authorization: `Bearer ${TOKEN}` };
const JSON_POST = { 'content-type': 'application/json' };
const runPath = (id: string) => `/api/v3/projects/${PROJECT}/runs/${id}`;

// ---------- child servers ----------
interface Server {
  url: string;
  stop(): Promise<void>;
}
const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));

/** Spawns `node ...args` and resolves once stdout shows `ready` (default: the CLI's "listening on URL" line). */
function start(args: string[], opts: { ready?: RegExp; url?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Server> {
  const ready = opts.ready ?? /listening on (http:\/\/\S+)\n/;
  const proc = spawn(process.execPath, args, { cwd: opts.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
  children.add(proc);
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  let out = '';
  let err = '';
  proc.stderr!.on('data', (c) => (err += c));
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (c) => {
      out += c;
      const m = ready.exec(out);
      if (m) {
        proc.stdout!.removeAllListeners('data').resume();
        resolve({
          url: opts.url ?? m[1],
          stop: () => {
            proc.kill('SIGKILL');
            children.delete(proc);
            return exited;
          },
        });
      }
    });
    exited.then(() => reject(new Error(`${args.join(' ')} exited: ${err}`)));
  });
}

const mockServer = (...flags: string[]) => start(['dist/cli.js', '--port', '0', ...flags]);
const bareKoa = (jsonFile?: string) => start(['bench/servers/bare-koa.mjs', ...(jsonFile ? [jsonFile] : [])]);

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

async function jsonServer(db: string): Promise<Server> {
  const port = await freePort();
  // NODE_ENV=production turns off its file watcher (which would re-read the db after each of its own writes): its fastest mode.
  // It serves ./public statically, and in production mode that folder must exist: it runs in bench/.work with an empty one.
  mkdirSync(`${WORK}public`, { recursive: true });
  return start([`${ROOT}node_modules/json-server/lib/bin.js`, db, '--port', String(port)], {
    cwd: WORK,
    ready: /JSON Server started/,
    url: `http://127.0.0.1:${port}`,
    env: { NODE_ENV: 'production' },
  });
}

// ---------- load ----------
interface Load {
  url: string;
  path: string | (() => string);
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Send fixed batches of `size` requests (timed), calling `before` (untimed) ahead of each: a pool reset. */
  batch?: { size: number; before?: () => Promise<void> };
}
interface Side {
  ok: number; // 2xx responses
  bad: number; // non-2xx responses and socket errors
  seconds: number;
  latencySum: number; // mean latency x rounds
  rounds: number;
}

/** One autocannon run; `track.last` gets the time of the last response (autocannon's `amount` runs end on a 1 s tick). */
function cannon(load: Load, limit: { duration: number } | { amount: number }, track?: { last: number }) {
  const dynamic = typeof load.path === 'function';
  const request: autocannon.Request = {};
  if (dynamic) request.setupRequest = (req) => ({ ...req, path: (load.path as () => string)() });
  if (track) request.onResponse = () => void (track.last = performance.now());
  return autocannon({
    url: dynamic ? load.url : load.url + load.path,
    connections: CONNECTIONS,
    ...limit,
    method: load.method ?? 'GET',
    headers: load.headers,
    body: load.body,
    ...(dynamic || track ? { requests: [request] } : {}),
  });
}

async function hit(load: Load, seconds: number, into?: Side): Promise<Side> {
  const side = into ?? { ok: 0, bad: 0, seconds: 0, latencySum: 0, rounds: 0 };
  let spent = 0;
  let latencySum = 0;
  let batches = 0;
  do {
    await load.batch?.before?.();
    const track = { last: performance.now() };
    const t0 = track.last;
    const r = await cannon(load, load.batch ? { amount: load.batch.size } : { duration: seconds }, load.batch ? track : undefined);
    spent += load.batch ? (track.last - t0) / 1000 : r.duration;
    side.ok += r['2xx'];
    side.bad += r.non2xx + r.errors;
    latencySum += r.latency.average;
    batches++;
  } while (spent < seconds);
  side.seconds += spent;
  side.latencySum += latencySum / batches;
  side.rounds++;
  return side;
}

const rps = (s: Side) => s.ok / s.seconds;
const latency = (s: Side) => s.latencySum / s.rounds;

/** Warm-up (1 s each), then ROUNDS rounds per side in alternating order (B S, S B, ...). `acked` counts the subject's 2xx including warm-up. */
async function compare(base: Load, subject: Load) {
  const warmBase = await hit(base, 1);
  const warmSubject = await hit(subject, 1);
  const b = { ok: 0, bad: 0, seconds: 0, latencySum: 0, rounds: 0 };
  const s = { ok: 0, bad: 0, seconds: 0, latencySum: 0, rounds: 0 };
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      await hit(base, SECONDS, b);
      await hit(subject, SECONDS, s);
    } else {
      await hit(subject, SECONDS, s);
      await hit(base, SECONDS, b);
    }
  }
  return { base: b, subject: s, acked: s.ok + warmSubject.ok, baseAcked: b.ok + warmBase.ok };
}

/** Paths that cancel pool runs first, first + 1, ... once each; `rewind` starts over (after a reset of the pool). */
function cancelPaths(first = 0) {
  let i = first;
  return { next: () => `${runPath(runId(i++))}/cancel`, rewind: () => void (i = first) };
}
const cancelLoad = (url: string, path: () => string): Load => ({ url, path, method: 'POST', headers: { ...AUTH, ...JSON_POST }, body: '{"reason":"bench"}' });

// ---------- results ----------
interface Row {
  id: string;
  what: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  met: boolean | null;
  note?: string;
}
const rows: Row[] = [];
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
function report(row: Row) {
  rows.push(row);
  process.stderr.write(`  (${row.id}) ${row.what}: ${row.value}${row.ratio ? `, ratio ${row.ratio}` : ''} ${row.met === null ? '' : row.met ? 'met' : 'MISSED'}${row.note ? ` (${row.note})` : ''}\n`);
}
const bad = (s: Side) => (s.bad ? ` [${s.bad} non-2xx/errors]` : '');

// ---------- measurements ----------
async function inProcess() {
  const fixture = demoFixture();
  const t0 = performance.now();
  await createApp({ storage: 'memory', fixtures: fixture });
  const cold = performance.now() - t0;
  const times: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const t = performance.now();
    await createApp({ storage: 'memory', fixtures: fixture });
    times.push(performance.now() - t);
  }
  const m = median(times);
  report({ id: 'f1', what: 'createApp + demo fixture (in-process), median of 1,000', value: `${fmt(m, 3)} ms`, baseline: '', ratio: '', target: '<= 2 ms', met: m <= 2, note: `first call ${fmt(cold, 1)} ms: fixture validated and compiled once per fixture object` });

  const mock = await createApp({ storage: 'memory', fixtures: fixture });
  const snap = mock.control.snapshot();
  const restores: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const t = performance.now();
    await mock.control.restore(snap);
    restores.push(performance.now() - t);
  }
  const r = median(restores);
  report({ id: 'f2', what: 'snapshot restore of the demo state, median of 1,000', value: `${fmt(r, 3)} ms`, baseline: '', ratio: '', target: '<= 1 ms', met: r <= 1 });
}

async function readThroughput() {
  const mock = await mockServer('--memory');
  const detail = await (await fetch(mock.url + runPath(RUN), { headers: AUTH })).text();
  const bare = await bareKoa(writeWork('run-detail.json', detail));
  const { base, subject } = await compare({ url: bare.url, path: runPath(RUN) }, { url: mock.url, path: runPath(RUN), headers: AUTH });
  const ratio = rps(subject) / rps(base);
  report({ id: 'a', what: 'bare Koa + @koa/router GET, same JSON (req/s)', value: fmt(rps(base)) + bad(base), baseline: '', ratio: '', target: 'baseline', met: null });
  report({ id: 'b', what: 'GET run detail, bearer auth, memory (req/s)', value: fmt(rps(subject)) + bad(subject), baseline: fmt(rps(base)), ratio: `${fmt(ratio, 2)} x a`, target: '>= 0.9 x a', met: ratio >= 0.9 });
  await Promise.all([mock.stop(), bare.stop()]);
}

async function memoryWrites() {
  // A pool of queued runs, each cancelled once per batch, then POST /_mock/reset (untimed) brings them all back.
  const pool = 2_000;
  const size = pool - 2 * CONNECTIONS; // autocannon builds one request per connection ahead of time
  const mock = await mockServer('--memory', '--fixtures', writeFixture('fixture-pool.json', { runs: pool }));
  const first = await fetch(`${mock.url}${runPath(runId(0))}/cancel`, { method: 'POST', headers: { ...AUTH, ...JSON_POST }, body: '{"reason":"bench"}' });
  const bare = await bareKoa(writeWork('cancelled.json', await first.text()));
  const paths = cancelPaths();
  const reset = async () => {
    const res = await fetch(`${mock.url}/_mock/reset`, { method: 'POST' });
    if (res.status !== 200) throw new Error(`/_mock/reset answered ${res.status}`);
    paths.rewind();
  };
  const { base, subject, acked } = await compare(
    { ...cancelLoad(bare.url, cancelPaths().next), headers: JSON_POST, batch: { size } },
    { ...cancelLoad(mock.url, paths.next), batch: { size, before: reset } },
  );
  const ratio = rps(subject) / rps(base);
  report({ id: 'c0', what: 'bare Koa + koa-body POST (req/s)', value: fmt(rps(base)) + bad(base), baseline: '', ratio: '', target: 'baseline', met: null });
  report({
    id: 'c',
    what: 'cancel of a queued run, memory (req/s)',
    value: fmt(rps(subject)) + bad(subject),
    baseline: fmt(rps(base)),
    ratio: `${fmt(ratio, 2)} x c0`,
    target: '>= 0.8 x c0',
    met: ratio >= 0.8 && subject.bad === 0,
    note: `${acked} cancels in batches of ${size}, the pool of ${pool} queued runs reset between batches (untimed)`,
  });
  await Promise.all([mock.stop(), bare.stop()]);
}

async function fileWrites(n: number): Promise<void> {
  const data = `${WORK}db-${n}.json`;
  rmSync(data, { force: true });
  rmSync(`${data}.lock`, { force: true });
  const mock = await mockServer('--data', data, '--fixtures', writeFixture(`fixture-${n}.json`, { runs: n }));
  const js = await jsonServer(writeJsonServerDb(`json-server-${n}.json`, n));
  const { base, subject, acked } = await compare(
    { url: js.url, path: '/runs', method: 'POST', headers: JSON_POST, body: '{"reason":"bench","status":"cancelled"}' },
    cancelLoad(mock.url, cancelPaths().next),
  );
  // Every acknowledged cancel must be in the file now (a cancel is answered only once its write is on disk).
  const onDisk = (JSON.parse(readFileSync(data, 'utf8')) as { state: { runs: { id: string; status: string }[] } }).state.runs.filter(
    (r) => r.id.startsWith('b0000001-') && r.status === 'cancelled',
  ).length;
  const ratio = rps(subject) / rps(base);
  const durable = onDisk >= acked;
  const k = `${n / 1000}k`;
  report({ id: `d0-${k}`, what: `json-server 1.0.0-beta.3 POST, ${k} records (req/s)`, value: fmt(rps(base), 1) + bad(base), baseline: '', ratio: '', target: 'baseline', met: null });
  report({
    id: `d-${k}`,
    what: `cancel on the JSON-file adapter, ${k} stored runs (req/s)`,
    value: fmt(rps(subject), 1) + bad(subject),
    baseline: fmt(rps(base), 1),
    ratio: base.ok ? `${fmt(ratio, 1)} x json-server` : `json-server: 0 done in ${fmt(base.seconds)} s`,
    target: n === 10_000 ? '>= 10 x json-server, every ack on disk' : 'every ack on disk (ratio reported)',
    met: (n === 10_000 ? ratio >= 10 : true) && durable && subject.bad === 0,
    note: `${acked} acknowledged, ${onDisk} on disk${durable ? '' : ': LOST WRITES'}`,
  });
  await Promise.all([mock.stop(), js.stop()]);
}

async function lastPage() {
  const n = 100_000;
  const mock = await mockServer('--memory', '--fixtures', writeFixture('fixture-users.json', { users: n }));
  const list = `/api/v3/projects/${PROJECT}/users?limit=200`;
  let cursor: string | null = null;
  let last = '';
  let pages = 0;
  do {
    const path: string = cursor ? `${list}&cursor=${encodeURIComponent(cursor)}` : list;
    const page = (await (await fetch(mock.url + path, { headers: AUTH })).json()) as { next_cursor: string | null };
    last = path;
    cursor = page.next_cursor;
    pages++;
  } while (cursor);
  const { base, subject } = await compare({ url: mock.url, path: list, headers: AUTH }, { url: mock.url, path: last, headers: AUTH });
  const items = ((await (await fetch(mock.url + last, { headers: AUTH })).json()) as { items: unknown[] }).items.length;
  const ratio = rps(base) / rps(subject);
  const latRatio = latency(subject) / latency(base);
  report({ id: 'e0', what: `first page of ${fmt(n)} app users, limit 200 (req/s)`, value: fmt(rps(base)) + bad(base), baseline: '', ratio: '', target: 'baseline', met: null });
  report({
    id: 'e',
    what: `last page (page ${pages}, ${items} items) of the same walk (req/s)`,
    value: fmt(rps(subject)) + bad(subject),
    baseline: fmt(rps(base)),
    ratio: `${fmt(ratio, 2)} x (throughput first/last)`,
    target: '<= 1.2 x',
    met: ratio <= 1.2,
    note: `mean latency ${fmt(latency(subject), 2)} ms vs ${fmt(latency(base), 2)} ms (x ${fmt(latRatio, 2)})`,
  });
  await mock.stop();
}

async function startTimes() {
  const once = async (launch: () => Promise<Server>, headers: Record<string, string> = {}) => {
    const t0 = performance.now();
    const server = await launch();
    const res = await fetch(server.url + runPath(RUN), { headers });
    await res.arrayBuffer();
    const ms = performance.now() - t0;
    await server.stop();
    if (res.status !== 200) throw new Error(`first response ${res.status}`);
    return ms;
  };
  const bare: number[] = [];
  const cli: number[] = [];
  await once(() => bareKoa()); // warm the file cache
  await once(() => mockServer('--memory'), AUTH);
  for (let i = 0; i < 15; i++) {
    bare.push(await once(() => bareKoa()));
    cli.push(await once(() => mockServer('--memory'), AUTH));
  }
  const ratio = median(cli) / median(bare);
  report({ id: 'g0', what: 'bare Koa + koa-body: spawn to first response, median of 15', value: `${fmt(median(bare))} ms`, baseline: '', ratio: '', target: 'baseline', met: null });
  report({ id: 'g', what: 'CLI --memory (demo): spawn to first response, median of 15', value: `${fmt(median(cli))} ms`, baseline: `${fmt(median(bare))} ms`, ratio: `${fmt(ratio, 2)} x g0`, target: '<= 1.15 x g0', met: ratio <= 1.15 });
}

async function memory(dataFile: string) {
  const out = await new Promise<string>((resolve, reject) => {
    const proc = spawn(process.execPath, ['--expose-gc', 'bench/servers/rss.mjs', dataFile], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let s = '';
    proc.stdout.on('data', (c) => (s += c));
    proc.on('exit', (code) => (code === 0 ? resolve(s) : reject(new Error(`rss child exited ${code}`))));
  });
  const m = JSON.parse(out) as { rssBefore: number; rss: number; runs: number; runsJsonBytes: number };
  const MB = 1024 * 1024;
  const limit = 2 * m.runsJsonBytes + 60 * MB;
  report({
    id: 'h',
    what: `RSS with ${fmt(m.runs)} runs stored, after GC`,
    value: `${fmt(m.rss / MB)} MB`,
    baseline: `runs JSON ${fmt(m.runsJsonBytes / MB)} MB`,
    ratio: `limit ${fmt(limit / MB)} MB`,
    target: '<= 2 x JSON + 60 MB',
    met: m.rss <= limit,
    note: `${fmt(m.rssBefore / MB)} MB before loading (node + modules)`,
  });
}

function printTable() {
  const head = ['', 'measurement', 'figure', 'baseline', 'ratio', 'target', 'met'];
  const body = rows.map((r) => [r.id, r.what, r.value, r.baseline, r.ratio, r.target, r.met === null ? '' : r.met ? 'yes' : 'NO']);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  const out = [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)];
  const notes = rows.filter((r) => r.note).map((r) => `(${r.id}) ${r.note}`);
  process.stdout.write(`\n${out.join('\n')}\n\n${notes.join('\n')}\n`);
}

async function main() {
  const t0 = performance.now();
  const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}, ${process.platform}`;
  process.stderr.write(`bench on ${machine}; ${SECONDS} s x ${ROUNDS} rounds per side, ${CONNECTIONS} connections\n`);
  // `node --import tsx bench/run.ts c d` runs only some groups (h reuses the data file d leaves behind).
  const only = process.argv.slice(2);
  const want = (group: string) => only.length === 0 || only.includes(group);
  if (want('f')) await inProcess();
  if (want('ab')) await readThroughput();
  if (want('c')) await memoryWrites();
  if (want('e')) await lastPage();
  if (want('d')) await fileWrites(10_000);
  if (want('d')) await fileWrites(100_000);
  if (want('g')) await startTimes();
  if (want('h')) await memory(`${WORK}db-100000.json`);
  printTable();
  const file = fileURLToPath(new URL('./results.json', import.meta.url));
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), machine, seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, rows }, null, 2)}\n`);
  process.stdout.write(`\nwritten to bench/results.json in ${fmt((performance.now() - t0) / 1000)} s\n`);
  process.exit(0); // a missed target is reported, not an error
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
