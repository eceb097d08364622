// CPU per request of the server process (utime + stime from /proc) for PUT budget at 50 connections on 10k runs, in
// memory mode or on the JSON file (both through createApp): a figure a busy machine disturbs far less than req/s.
// Usage: npm run build && node bench/probe-cpu.mjs mem|file [requests]   (needs bench/.work/data-10000.json: run group s once)
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import autocannon from 'autocannon';

const [kind = 'mem', n = '8000'] = process.argv.slice(2);
const root = new URL('..', import.meta.url).pathname;
const data = `/tmp/prm-probe-${kind}-${process.pid}.json`;
copyFileSync(`${root}bench/.work/data-10000.json`, data);
const server = `
import { createServer } from 'node:http';
const { createApp } = await import('${root}dist/app.js');
const { JsonFileAdapter, MemoryAdapter } = await import('${root}dist/storage/adapters.js');
const file = new JsonFileAdapter('${data}', { report: {} });
let storage = file;
if ('${kind}' === 'mem') { storage = new MemoryAdapter(); await storage.write(await file.read()); }
const mock = await createApp({ storage });
const server = createServer(mock.callback());
server.keepAliveTimeout = 5000;
process.on('SIGINT', async () => { await mock.close(); process.exit(0); });
server.listen(0, '127.0.0.1', () => process.stdout.write('listening on http://127.0.0.1:' + server.address().port + '\\n'));`;
const child = spawn(
  process.execPath,
  [...(process.env.PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROF}`] : []), '--input-type=module', '-e', server],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const url = await new Promise((resolve) =>
  child.stdout.on('data', (d) => {
    const m = /listening on (\S+)/.exec(String(d));
    if (m) resolve(m[1]);
  }),
);
const cpuMs = () => {
  const s = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(s[11]) + Number(s[12])) * 10;
};
const load = {
  url: `${url}/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/budget`,
  method: 'PUT',
  connections: 50,
  headers: { authorization: 'Bearer demo-owner-token', 'content-type': 'application/json' },
  body: '{"user_daily_usd":5}',
};
await autocannon({ ...load, amount: 2000 }); // warm-up
const c0 = cpuMs();
const t0 = performance.now();
const r = await autocannon({ ...load, amount: Number(n) });
const ms = cpuMs() - c0;
console.log(
  `${kind}: ${((ms / r['2xx']) * 1000).toFixed(0)} us CPU/request, ${r['2xx']} ok, ${r.non2xx} bad, ${((r['2xx'] / (performance.now() - t0)) * 1000).toFixed(0)} req/s`,
);
child.kill('SIGINT');
await new Promise((resolve) => child.on('exit', resolve));
for (const f of [data, `${data}.log`, `${data}.lock`]) rmSync(f, { force: true });
