// Group h: a child loads the data file of 100k runs (left by group d) as the CLI does and reports its RSS after GC.
import { spawn } from 'node:child_process';
import { WORK } from '../lib/data.js';
import { fmt, report } from '../lib/report.js';
import { ROOT } from '../lib/servers.js';

export async function memory(dataFile = `${WORK}db-100000.json`) {
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
