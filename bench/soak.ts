// `npm run soak`: a bounded soak of the built CLI (dist/cli.js on a JSON data file): 100 connections of mixed reads,
// writes of every kind, control writes and hostile inputs (bench/lib/soak-mix.ts), with the mock clock moving, while the
// server's RSS is sampled. Progress on a TTY; one summary line (the samples go to bench/soak-results.json); exit 1 on
// any 5xx, socket error, crash or growing RSS.
//   node --import tsx bench/soak.ts [--minutes 15 | --seconds N] [--connections 100] [--creates-per-second 1] [--memory] [--simulation-off]
// The server runs as `npm start` runs it, the living demo (--speed 300 --traffic 10, so 7 days of retention): with the
// clock moving a day per second the traffic alone makes 240 runs a second, and retention must hold them to a week's.
// The mix's own runs are a client's data and stay; the simulation moves each on, to about 5 times its queued size, so
// they are made at 1 a second by default (4 with the simulation off): about the bytes a second they took before.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { start } from './lib/servers.js';
import { client, Limiter, nextAction } from './lib/soak-mix.js';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '100' },
    'creates-per-second': { type: 'string' },
    'sample-seconds': { type: 'string', default: '5' },
    'max-slope': { type: 'string', default: '1.5' }, // MB per minute over the second half
    memory: { type: 'boolean', default: false },
    'simulation-off': { type: 'boolean', default: false },
  },
});
const createsPerSecond = Number(args['creates-per-second'] ?? (args['simulation-off'] ? 4 : 1));
const seconds = Number(args.seconds ?? (args.minutes !== undefined ? Number(args.minutes) * 60 : (process.env.SOAK_SECONDS ?? 15 * 60)));
const connections = Number(args.connections);
const sampleMs = Number(args['sample-seconds']) * 1000;
const maxSlope = Number(args['max-slope']);
for (const [name, n] of Object.entries({ seconds, connections, sampleMs, maxSlope, creates: createsPerSecond })) {
  if (!Number.isFinite(n) || n <= 0) throw new Error(`soak: ${name} must be a positive number`);
}

/** The server's resident set in MB (Linux /proc; ps elsewhere). */
function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    if (kb) return Number(kb) / 1024;
  } catch {
    /* not Linux */
  }
  return (
    Number(
      execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
        .toString()
        .trim(),
    ) / 1024
  );
}

/** Least-squares slope of (t seconds, mb) in MB per minute. */
function slopePerMinute(points: { t: number; mb: number }[]): number {
  if (points.length < 2) return 0;
  const mt = points.reduce((s, p) => s + p.t, 0) / points.length;
  const mm = points.reduce((s, p) => s + p.mb, 0) / points.length;
  const num = points.reduce((s, p) => s + (p.t - mt) * (p.mb - mm), 0);
  const den = points.reduce((s, p) => s + (p.t - mt) ** 2, 0);
  return den === 0 ? 0 : (num / den) * 60;
}

/** The simulation's events, the runs retention removed and the simulated runs left, from the coverage report and the state. */
async function simulationFigures(send: ReturnType<typeof client>): Promise<string> {
  try {
    const coverage = JSON.parse((await send('GET', '/_mock/coverage')).body).simulated;
    const state = JSON.parse((await send('GET', '/_mock/state')).body);
    const fmt = (n: number) => n.toLocaleString('en');
    return `${fmt(coverage.events)} events, ${fmt(coverage.removed.runs)} runs removed in ${fmt(coverage.removed.slices)} slices, ${fmt(state.simulated_runs.length)} simulated and ${fmt(state.runs.length)} runs in all at the end`;
  } catch (err) {
    return `figures unavailable (${(err as Error).message})`;
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'prm-soak-'));
  // As `npm start` runs it (package.json), or with the simulation off for comparison.
  const living = args['simulation-off'] ? ['--simulation', 'off'] : ['--speed', '300', '--traffic', '10'];
  const server = await start(['dist/cli.js', '--port', '0', ...(args.memory ? ['--memory'] : ['--data', join(dir, 'db.json')]), ...living]);
  const pid = server.pid!;
  let died = false;
  void server.exited?.then(() => (died = true));
  const raw = client(server.url, connections);
  // Every 5xx is kept as an example (the first few): method, path and the start of the answer.
  const send: typeof raw = (method, path, headers, body) =>
    raw(method, path, headers, body).then((r) => {
      if (r.status >= 500 && examples.length < 6) examples.push(`${method} ${path.slice(0, 80)} -> ${r.status} ${r.body.slice(0, 160)}`);
      return r;
    });
  const creates = new Limiter(createsPerSecond);
  const examples: string[] = [];
  const counts = { requests: 0, c2: 0, c4: 0, c5: 0, other: 0, errors: 0 };
  const samples: { t: number; mb: number }[] = [];
  const t0 = Date.now();
  const deadline = t0 + seconds * 1000;
  const elapsed = () => (Date.now() - t0) / 1000;

  // The mock clock moves one day per second of soak (up to 20 years), so token, code and dedupe retentions come into play.
  const clock = setInterval(() => {
    if (elapsed() < 20 * 365)
      void send('POST', '/_mock/clock', { 'content-type': 'application/json' }, '{"advance_ms":86400000}').then(
        (r) => tally([r.status]),
        () => counts.errors++,
      );
  }, 1000);
  const tally = (statuses: number[]) => {
    for (const s of statuses) {
      counts.requests++;
      if (s >= 500) {
        counts.c5++;
      } else if (s >= 400) counts.c4++;
      else if (s >= 200 && s < 300) counts.c2++;
      else counts.other++;
    }
  };
  const sampler = setInterval(() => {
    if (died) return;
    samples.push({ t: elapsed(), mb: rssMb(pid) });
    if (process.stderr.isTTY) {
      const last = samples.at(-1)!;
      process.stderr.write(
        `\r[${Math.round(last.t)}/${seconds} s] ${counts.requests.toLocaleString('en')} requests (${Math.round(counts.requests / last.t)}/s), ${counts.c5} 5xx, ${counts.errors} errors, RSS ${last.mb.toFixed(0)} MB   `,
      );
    }
  }, sampleMs);
  samples.push({ t: 0, mb: rssMb(pid) });

  const worker = async () => {
    while (Date.now() < deadline && !died) {
      const action = nextAction();
      try {
        tally(await action(send, creates));
      } catch (err) {
        counts.errors++;
        if (examples.length < 5) examples.push(`${action.name}: ${(err as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  clearInterval(clock);
  // What the simulation did meanwhile: its events, the runs retention removed, and the runs it holds now.
  const simulated = died ? null : await simulationFigures(send);
  clearInterval(sampler);
  if (!died) samples.push({ t: elapsed(), mb: rssMb(pid) });
  if (process.stderr.isTTY) process.stderr.write('\n');
  const serverErr = server.stderr?.() ?? '';
  const crashed = died;
  if (crashed) process.stderr.write(`soak: the server died; its last output:\n${serverErr.slice(-4000)}\n`);
  await server.stop();
  rmSync(dir, { recursive: true, force: true });

  // Start is taken after a warm-up (a tenth of the run, at least one sample); the verdict looks at the second half.
  const at = (t: number) => samples.reduce((best, s) => (Math.abs(s.t - t) < Math.abs(best.t - t) ? s : best), samples[0]);
  const start0 = at(Math.max(seconds / 10, sampleMs / 1000));
  const middle = at(seconds / 2);
  const end = samples.at(-1)!;
  const slope = slopePerMinute(samples.filter((s) => s.t >= seconds / 2));
  const growing = slope > maxSlope && end.mb - middle.mb > 8;
  const failed = crashed || counts.c5 > 0 || counts.errors > 0 || growing;
  const rate = Math.round(counts.requests / elapsed());
  process.stdout.write(
    `soak: ${Math.round(elapsed())} s, ${connections} connections, ${counts.requests.toLocaleString('en')} requests (${rate}/s; 2xx ${counts.c2}, 4xx ${counts.c4}), ` +
      `${counts.c5} 5xx, ${counts.errors} socket errors, RSS start ${start0.mb.toFixed(0)} MB / middle ${middle.mb.toFixed(0)} MB / end ${end.mb.toFixed(0)} MB, ` +
      `slope ${slope >= 0 ? '+' : ''}${slope.toFixed(2)} MB/min over the second half (limit ${maxSlope}): ` +
      `${simulated ? `simulation: ${simulated}; ` : ''}` +
      `${failed ? `FAILED (${[crashed && 'server died', counts.c5 && '5xx', counts.errors && 'socket errors', growing && 'growing RSS'].filter(Boolean).join(', ')})` : 'ok'}` +
      `${examples.length ? `; e.g. ${examples.join('; ')}` : ''}\n`,
  );
  // The figures behind the line, for a closer look (git-ignored).
  writeFileSync(
    fileURLToPath(new URL('./soak-results.json', import.meta.url)),
    `${JSON.stringify({ date: new Date().toISOString(), seconds, connections, server: living, simulated, counts, failed, slope, samples, examples }, null, 2)}\n`,
  );
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
