// Groups s and l: writes cost what they change at any size (PUT budget at 50 connections, memory and JSON file,
// 1k vs 100k vs 1M stored runs; fdatasync'ed file writes vs memory and json-server; lone-write latency), and big loads.
import { statSync } from 'node:fs';
import { dataFile, freshStart, timedStart } from '../lib/data-file.js';
import { PROJECT, writeJsonServerDb } from '../lib/data.js';
import { AUTH, JSON_POST, compare, latency, rps, type Load } from '../lib/load.js';
import { bad, fmt, report } from '../lib/report.js';
import { jsonServer, mockServer, start, type Server } from '../lib/servers.js';

const WRITERS = 50;
const budgetLoad = (url: string, connections = WRITERS): Load => ({
  url,
  path: `/api/v3/projects/${PROJECT}/budget`,
  method: 'PUT',
  headers: { ...AUTH, ...JSON_POST },
  body: '{"user_daily_usd":5}',
  connections,
});
const k = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);

/** After loading a big state, V8 finishes collecting the garbage of the load in the background: let it, before measuring. */
const settle = async (runs: number) => new Promise((r) => setTimeout(r, runs >= 100_000 ? 5_000 : 0));

async function memoryServer(runs: number): Promise<Server> {
  const server = await start(['bench/servers/memory-on-data.mjs', await dataFile(runs)]);
  await settle(runs);
  return server;
}
async function fileServer(runs: number): Promise<Server> {
  const file = await dataFile(runs);
  freshStart(file);
  const server = await mockServer('--data', file);
  await settle(runs);
  return server;
}

/** PUT budget throughput with `big` stored runs against 1k, on one kind of storage. */
async function scaling(kind: 'memory' | 'JSON file', small: Server, big: Server, n: number, target: number) {
  const { base, subject } = await compare(budgetLoad(small.url), budgetLoad(big.url));
  const ratio = rps(subject) / rps(base);
  report({
    id: `s-${kind === 'memory' ? 'mem' : 'file'}-${k(n)}`,
    what: `PUT budget, ${WRITERS} connections, ${kind}, ${k(n)} stored runs (req/s)`,
    value: fmt(rps(subject)) + bad(subject),
    baseline: `${fmt(rps(base))} at 1k`,
    ratio: `${fmt(ratio, 2)} x 1k`,
    target: `>= ${target} x 1k`,
    met: ratio >= target && subject.bad === 0,
  });
}

export async function storageWrites(): Promise<void> {
  // Memory mode: 1k against 100k and 1M.
  let small = await memoryServer(1_000);
  for (const [n, target] of [
    [100_000, 0.8],
    [1_000_000, 0.7],
  ]) {
    const big = await memoryServer(n);
    await scaling('memory', small, big, n, target);
    await big.stop();
  }
  await small.stop();

  // The JSON file: 1k against 100k and 1M; then a lone writer's latency, 1M against 1k.
  small = await fileServer(1_000);
  for (const [n, target] of [
    [100_000, 0.8],
    [1_000_000, 0.7],
  ]) {
    const big = await fileServer(n);
    await scaling('JSON file', small, big, n, target);
    if (n === 1_000_000) {
      const { base, subject } = await compare(budgetLoad(small.url, 1), budgetLoad(big.url, 1));
      const ratio = latency(subject) / latency(base);
      report({
        id: 's-lone',
        what: 'lone PUT budget (1 connection), JSON file, 1M stored runs: mean latency',
        value: `${fmt(latency(subject), 2)} ms`,
        baseline: `${fmt(latency(base), 2)} ms at 1k`,
        ratio: `${fmt(ratio, 2)} x 1k`,
        target: '<= 2 x 1k',
        met: ratio <= 2 && subject.bad === 0,
      });
    }
    await big.stop();
  }
  await small.stop();

  // fdatasync'ed writes at 10k: against memory mode, and against json-server 1.x (POST on a db of 10k records).
  const file = await fileServer(10_000);
  const mem = await memoryServer(10_000);
  const vsMemory = await compare(budgetLoad(mem.url), budgetLoad(file.url));
  await mem.stop();
  // json-server rewrites its whole db on every write: at 50 connections it finishes none in 3 s, so both sides get 10 (as in d).
  const js = await jsonServer(writeJsonServerDb('json-server-10000.json', 10_000));
  const vsJs = await compare(
    { url: js.url, path: '/runs', method: 'POST', headers: JSON_POST, body: '{"reason":"bench","status":"cancelled"}', connections: 10 },
    budgetLoad(file.url, 10),
  );
  await Promise.all([js.stop(), file.stop()]);
  const r1 = rps(vsMemory.subject) / rps(vsMemory.base);
  report({
    id: 's-fsync',
    what: `PUT budget on the JSON file (fdatasync per group), 10k runs, ${WRITERS} connections (req/s)`,
    value: fmt(rps(vsMemory.subject)) + bad(vsMemory.subject),
    baseline: `${fmt(rps(vsMemory.base))} memory`,
    ratio: `${fmt(r1, 2)} x memory`,
    target: '>= 0.5 x memory',
    met: r1 >= 0.5 && vsMemory.subject.bad === 0,
  });
  const r2 = rps(vsJs.subject) / rps(vsJs.base);
  report({
    id: 's-js',
    what: 'PUT budget on the JSON file, 10k runs, against json-server 1.0.0-beta.3 POST, 10k records, 10 connections each (req/s)',
    value: fmt(rps(vsJs.subject)) + bad(vsJs.subject),
    baseline: `${fmt(rps(vsJs.base), 1)} json-server`,
    ratio: vsJs.base.ok ? `${fmt(r2)} x json-server` : 'json-server: none done',
    target: '>= 100 x json-server',
    met: (vsJs.base.ok === 0 || r2 >= 100) && vsJs.subject.bad === 0,
  });
}

/** Starts the CLI on a data file of `runs` runs: time to "listening", and the peak RSS from /proc. */
async function load(runs: number, target: number | null) {
  const file = await dataFile(runs);
  const bytes = statSync(file).size;
  const { seconds, cpu, peak } = await timedStart(() => mockServer('--data', file), file);
  const MB = 1024 * 1024;
  const ratio = peak / bytes;
  report({
    id: `l-${k(runs)}`,
    what: `start the CLI on a data file of ${k(runs)} runs (${fmt(bytes / MB)} MB): until listening`,
    value: `${fmt(seconds, 1)} s`,
    baseline: '',
    ratio: `peak RSS ${fmt(peak / MB)} MB = ${fmt(ratio, 2)} x file`,
    target: target === null ? 'loads; peak RSS <= 2.5 x file' : `<= ${target} s; peak RSS <= 2.5 x file`,
    met: (target === null || seconds <= target) && ratio <= 2.5,
    note: `${fmt(cpu, 1)} s of CPU (user + system, all threads) while loading`,
  });
}

export async function storageLoads(): Promise<void> {
  await load(1_000_000, 20);
  await load(2_000_000, null);
}
