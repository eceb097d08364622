// Group conf: the full read-only conformance catalogue (the built CLI's `conformance` subcommand, process start included)
// against a local target, a second mock served by the built CLI; the bound is 30 s.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { PROJECT, TOKEN } from '../lib/data.js';
import { fmt, median, report } from '../lib/report.js';
import { mockServer, ROOT } from '../lib/servers.js';

function runCli(args: string[]): Promise<{ code: number | null; out: string }> {
  const proc = spawn(process.execPath, ['dist/cli.js', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (c) => (out += c));
  proc.stderr.resume();
  return new Promise((resolve) => proc.on('close', (code) => resolve({ code, out })));
}

export async function conformanceGroup() {
  const target = await mockServer('--memory', '--simulation', 'off');
  try {
    const times: number[] = [];
    let last = { code: null as number | null, out: '' };
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      last = await runCli(['conformance', '--target', target.url, '--token', TOKEN, '--admin-key', 'demo-admin-key', '--project', PROJECT]);
      times.push(performance.now() - t0);
    }
    const probes = /(\d+) probes/.exec(last.out)?.[1] ?? '?';
    const s = median(times) / 1000;
    report({
      id: 'conf1',
      what: `conformance: the full read-only catalogue (${probes} probes) against a local mock, CLI start to exit, median of 3`,
      value: `${fmt(s, 2)} s`,
      baseline: '',
      ratio: '',
      target: '<= 30 s',
      met: s <= 30 && last.code === 0,
      note: last.code === 0 ? undefined : `exit ${last.code}`,
    });
  } finally {
    await target.stop();
  }
}
