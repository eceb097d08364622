// Runs every uvu suite (test/**/*.test.ts), then the README recipes in examples/ (node:test and uvu), and closes with the
// "N passed, N failed" line CI reads; no test ran = failure.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pattern = process.argv[2] ?? '\\.test\\.ts$';

/** Runs one command, echoing its stdout; resolves with its exit code and plain (colourless) output. */
function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, FORCE_COLOR: '0' } });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    // eslint-disable-next-line no-control-regex
    child.on('close', (code) => resolve({ code, plain: out.replace(/\x1b\[[0-9;]*m/g, '') }));
  });
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

const suites = [
  [['--import', 'tsx', 'node_modules/uvu/bin.js', 'test', pattern], uvuCounts],
  // The recipes import the built package (dist/), as a user would; `npm test` builds it first (pretest).
  [['--test', '--test-reporter=tap', 'examples/node-test.test.mjs'], tapCounts],
  [['node_modules/uvu/bin.js', 'examples', 'uvu\\.test\\.mjs$'], uvuCounts],
];
// A pattern given on the command line narrows the run to the matching uvu suites.
if (process.argv[2] !== undefined) suites.length = 1;

const sum = { total: 0, passed: 0, skipped: 0, failed: 0 };
let bad = false;
for (const [args, counts] of suites) {
  const { code, plain } = await run(args);
  const c = counts(plain);
  for (const k of Object.keys(sum)) sum[k] += c[k];
  if (code !== 0 || c.failed > 0 || c.total === 0) bad = true;
}
process.stdout.write(`\n${sum.passed} passed, ${sum.failed} failed${sum.skipped ? `, ${sum.skipped} skipped` : ''}\n`);
if (sum.total === 0) process.stdout.write('no test ran: failing the run\n');
process.exit(bad || sum.failed > 0 || sum.total === 0 ? 1 : 0);
