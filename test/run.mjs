// Runs every uvu suite (test/**/*.test.ts) and closes with the "N passed, N failed" line CI reads; no test ran = failure.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pattern = process.argv[2] ?? '\\.test\\.ts$';
const child = spawn(process.execPath, ['--import', 'tsx', 'node_modules/uvu/bin.js', 'test', pattern], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, FORCE_COLOR: '0' },
});
let out = '';
child.stdout.on('data', (chunk) => {
  out += chunk;
  process.stdout.write(chunk);
});
child.on('close', (code) => {
  // eslint-disable-next-line no-control-regex
  const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
  const num = (label) => Number(/\s*(\d+)\s*$/.exec(plain.split('\n').find((l) => l.trim().startsWith(`${label}:`)) ?? '')?.[1] ?? 0);
  const total = num('Total');
  const passed = num('Passed');
  const skipped = num('Skipped');
  const failed = total - passed - skipped;
  process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  if (total === 0) process.stdout.write('no test ran: failing the run\n');
  process.exit(code !== 0 || failed > 0 || total === 0 ? 1 : 0);
});
