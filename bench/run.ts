// `npm run bench`: every group in bench/groups/ in one run, each subject interleaved with its baseline, printed as a table of
// figures and ratios against the targets and written to bench/results.json. `node --import tsx bench/run.ts c d` runs some groups.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { GROUPS } from './groups/index.js';
import { CONNECTIONS, EDGE, PRECISE, ROUNDS, SECONDS } from './lib/load.js';
import { fmt, printTable, rows, type Row } from './lib/report.js';

/** What a child running one group (`--rows-of NAME`) ends its output with: its rows as JSON on one line. */
const ROWS = 'bench-rows:';

/** Runs a fresh group in a child process and takes its rows (its progress lines go to this stderr as they come). */
function inChild(name: string): void {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--rows-of', name], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith(ROWS));
  if (child.status !== 0 || !line) throw new Error(`bench group ${name} (in its own process) exited ${child.status}`);
  rows.push(...(JSON.parse(line.slice(ROWS.length)) as Row[]));
}

/** The child's side: one group, then its rows on stdout. */
async function rowsOf(name: string) {
  await GROUPS.find((g) => g.name === name)!.run();
  process.stdout.write(`\n${ROWS}${JSON.stringify(rows)}\n`);
  process.exit(0);
}

/** One line per group once it ran: its rows, the targets met and missed, and how long it took. */
function groupSummary(name: string, done: Row[], seconds: number): string {
  const scored = done.filter((r) => r.met !== null);
  const missed = scored.filter((r) => !r.met).map((r) => r.id);
  return `${name}: ${done.length} rows, ${scored.length - missed.length}/${scored.length} targets met${missed.length ? ` (missed: ${missed.join(', ')})` : ''} in ${fmt(seconds, 1)} s`;
}

async function main() {
  const t0 = performance.now();
  const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}, ${process.platform}`;
  const only = process.argv.slice(2);
  const unknown = only.filter((name) => !GROUPS.some((g) => g.name === name));
  if (unknown.length) throw new Error(`unknown group(s) ${unknown.join(', ')}; groups: ${GROUPS.map((g) => g.name).join(' ')}`);
  const groups = GROUPS.filter((g) => only.length === 0 || only.includes(g.name));
  process.stderr.write(
    `bench on ${machine}; ${SECONDS} s x ${ROUNDS} rounds per side (rows at the edge: ${EDGE.seconds} s x ${EDGE.rounds}; sh and sb3: ${PRECISE.seconds} s x ${PRECISE.rounds}), ${CONNECTIONS} connections; groups ${groups.map((g) => g.name).join(' ')}\n`,
  );
  for (const [i, group] of groups.entries()) {
    // Progress on a terminal: which group runs and how long the run has taken so far.
    if (process.stderr.isTTY)
      process.stderr.write(`[${i + 1}/${groups.length}] ${group.name}: ${group.what} (${fmt((performance.now() - t0) / 1000)} s so far)\n`);
    const g0 = performance.now();
    const first = rows.length;
    if (group.fresh && groups.length > 1) inChild(group.name);
    else await group.run();
    process.stderr.write(`${groupSummary(group.name, rows.slice(first), (performance.now() - g0) / 1000)}\n`);
  }
  printTable();
  const file = fileURLToPath(new URL('./results.json', import.meta.url));
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), machine, seconds: SECONDS, rounds: ROUNDS, edge: EDGE, connections: CONNECTIONS, rows }, null, 2)}\n`,
  );
  const scored = rows.filter((r) => r.met !== null);
  const missed = scored.filter((r) => !r.met).map((r) => r.id);
  process.stdout.write(
    `\nbench: ${groups.length} groups, ${rows.length} rows, ${scored.length - missed.length}/${scored.length} targets met${missed.length ? ` (missed: ${missed.join(', ')})` : ''} in ${fmt((performance.now() - t0) / 1000)} s; written to bench/results.json\n`,
  );
  process.exit(0); // a missed target is reported, not an error
}

(process.argv[2] === '--rows-of' ? rowsOf(process.argv[3]) : main()).catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
