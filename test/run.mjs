// Runs every uvu suite (test/**/*.test.ts), then the README recipes in examples/ (node:test and uvu), and closes with the
// "N passed, N failed" line CI reads; no test ran = failure.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pattern = process.argv[2] ?? '\\.test\\.ts$';

/** Runs one command; resolves with its exit code and plain (colourless) output, printed once it ends. */
function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => {
      process.stdout.write(out);
      // eslint-disable-next-line no-control-regex
      resolve({ code, plain: out.replace(/\x1b\[[0-9;]*m/g, '') });
    });
  });
}

/**
 * Splits the suites into one uvu process per core (the machine has two), largest files first, so
 * the suites that spawn the CLI do not all queue behind each other.
 */
function shardPatterns(shards) {
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const files = readdirSync(dir)
    .filter((f) => new RegExp(pattern).test(f))
    .map((f) => ({ name: f, weight: statSync(dir + f).size * (/^(property|crash-safety|durability|cli|concurrency)\./.test(f) ? 4 : 1) }))
    .sort((a, b) => b.weight - a.weight);
  const groups = Array.from({ length: shards }, () => ({ weight: 0, names: [] }));
  for (const f of files) {
    const g = groups.reduce((min, x) => (x.weight < min.weight ? x : min));
    g.weight += f.weight;
    g.names.push(f.name.replace(/[.]/g, '\\.'));
  }
  return groups.filter((g) => g.names.length > 0).map((g) => `^(${g.names.join('|')})$`);
}

/** uvu's summary: Total / Passed / Skipped lines. */
function uvuCounts(plain) {
  const num = (label) => Number(/\s*(\d+)\s*$/.exec(plain.split('\n').find((l) => l.trim().startsWith(`${label}:`)) ?? '')?.[1] ?? 0);
  const total = num('Total');
  const passed = num('Passed');
  const skipped = num('Skipped');
  return { total, passed, skipped, failed: total - passed - skipped };
}

/** node:test's TAP summary: `# tests N`, `# pass N`, `# fail N`, ... */
function tapCounts(plain) {
  const num = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(plain)?.[1] ?? 0);
  const total = num('tests');
  const passed = num('pass');
  const skipped = num('skipped') + num('todo');
  return { total, passed, skipped, failed: total - passed - skipped };
}

const shards = shardPatterns(Math.max(1, Math.min(2, availableParallelism())));
const suites = [
  ...(shards.length ? shards : [pattern]).map((p) => [['--import', 'tsx', 'node_modules/uvu/bin.js', 'test', p], uvuCounts]),
  // The recipes import the built package (dist/), as a user would; `npm test` builds it first (pretest).
  [['--test', '--test-reporter=tap', 'examples/node-test.test.mjs'], tapCounts],
  [['node_modules/uvu/bin.js', 'examples', 'uvu\\.test\\.mjs$'], uvuCounts],
];
// A pattern given on the command line narrows the run to the matching uvu suites.
if (process.argv[2] !== undefined) suites.length = Math.max(shards.length, 1);

const sum = { total: 0, passed: 0, skipped: 0, failed: 0 };
let bad = false;
const results = await Promise.all(suites.map(([args]) => run(args)));
results.forEach(({ code, plain }, i) => {
  const c = suites[i][1](plain);
  for (const k of Object.keys(sum)) sum[k] += c[k];
  if (code !== 0 || c.failed > 0 || c.total === 0) bad = true;
});
process.stdout.write(`\n${sum.passed} passed, ${sum.failed} failed${sum.skipped ? `, ${sum.skipped} skipped` : ''}\n`);
if (sum.total === 0) process.stdout.write('no test ran: failing the run\n');
process.exit(bad || sum.failed > 0 || sum.total === 0 ? 1 : 0);
