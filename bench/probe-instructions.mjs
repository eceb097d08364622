// Instructions and cache misses per GET run detail, counted by valgrind's cachegrind in the CLI server: a figure no
// noise on the machine moves, for telling apart changes a few percent apart that req/s cannot (rows sb3, b, sh).
// Usage: npm run build && node bench/probe-instructions.mjs root|sandbox [sandboxes=100] [build dir=.]   (needs valgrind)
// Two runs a side (1,000 and 5,000 measured requests after the same warm-up), in parallel; the difference of their
// counts over 4,000 is the cost of one request, the start-up and warm-up cancelling out.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const [kind = 'root', k = '100', dir = '.'] = process.argv.slice(2);
const root = resolve(dir) + '/';
const autocannon = createRequire(root + 'package.json')('autocannon');
const RUN_PATH = '/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/runs/391206e3-21b8-4eae-b109-2fe71e9c7b14';
const HEADERS = { authorization: 'Bearer demo-owner-token' };
const WARM = 4000;
// Counted as in caches of 48 KB (first level) and 2 MB (last level). PROBE_LL=size,ways,line models another last level:
// this machine's L2, 512 KB a core (`524288,8,64`), counts what a request reads past it, from the shared L3 or memory.
const CACHES = ['--D1=49152,12,64', `--LL=${process.env.PROBE_LL ?? '2097152,16,64'}`];
const EVENTS = ['Ir', 'I1mr', 'ILmr', 'Dr', 'D1mr', 'DLmr', 'Dw', 'D1mw', 'DLmw', 'IrCompiler'];
const COMPILER = /compiler::|maglev::|Zone|_Rb_tree|LiveRange/;

async function counts(measured) {
  const out = `/tmp/prm-probe-instructions-${process.pid}-${measured}`;
  const cli = [root + 'dist/cli.js', '--memory', '--simulation', 'off', '--port', '0', '--max-sandboxes', '2000'];
  const child = spawn('valgrind', ['--tool=cachegrind', '--smc-check=all-non-file', `--cachegrind-out-file=${out}`, ...CACHES, process.execPath, ...cli], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise((ok, fail) => {
    const seen = (d) => {
      const m = /http:\/\/[\d.]+:\d+/.exec(String(d));
      if (m) ok(m[0]);
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', (code) => fail(new Error(`valgrind exited ${code} (is it installed?)`)));
  });
  const ids = [];
  for (let i = 0; i < Number(k); i++) {
    const res = await fetch(`${url}/_mock/sandboxes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    ids.push((await res.json()).id);
  }
  const load = (sandboxes) => (sandboxes ? ids.map((id) => ({ path: `/sandboxes/${id}${RUN_PATH}` })) : [{ path: RUN_PATH }]);
  // The same warm-up in every run (both kinds), then the measured kind.
  for (const sandboxes of [false, true]) await autocannon({ url, connections: 10, amount: WARM, headers: HEADERS, requests: load(sandboxes) });
  const r = await autocannon({ url, connections: 10, amount: measured, headers: HEADERS, requests: load(kind === 'sandbox') });
  if (r.non2xx || r.errors) throw new Error(`${r.non2xx} answers not 2xx, ${r.errors} errors`);
  child.kill('SIGTERM');
  await new Promise((ok) => child.on('exit', ok));
  const text = readFileSync(out, 'utf8');
  rmSync(out);
  const summary = text
    .match(/^summary: (.*)$/m)[1]
    .split(' ')
    .map(Number);
  // The optimizing compiler's own work, which valgrind's slowness spreads into the measured requests (apart, below).
  let compiler = 0;
  let inCompiler = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('fn=')) inCompiler = COMPILER.test(line);
    else if (inCompiler && /^\d/.test(line)) compiler += Number(line.split(' ')[1] ?? 0);
  }
  return [...summary, compiler];
}

const [small, large] = await Promise.all([counts(1000), counts(5000)]);
const per = Object.fromEntries(EVENTS.map((e, i) => [e, Math.round(((large[i] - small[i]) / 4000) * 10) / 10]));
per.IrRunning = Math.round((per.Ir - per.IrCompiler) * 10) / 10;
console.log(JSON.stringify({ kind, sandboxes: Number(k), perRequest: per }));
