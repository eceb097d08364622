// Generated data files for the storage groups: the demo state plus N queued runs, written as the JSON file adapter writes its snapshot.
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoFixture, stateFromFixture } from '../../src/fixtures.js';
import { COLLECTION_NAMES, DATA_FILE_FORMAT, DATA_FILE_VERSION } from '../../src/schemas/index.js';
import { queuedRun, WORK } from './data.js';
import { cpuSeconds, type Server } from './servers.js';

/**
 * `bench/.work/data-<n>.json`, reused when an earlier run wrote it (a `.done` marker says it is whole). A
 * copy per use keeps runs apart: the servers append to their own log beside it. Returns the file's path.
 */
export async function dataFile(runs: number): Promise<string> {
  mkdirSync(WORK, { recursive: true });
  const file = join(WORK, `data-${runs}.json`);
  const done = `${file}.done`;
  if (existsSync(done) && readFileSync(done, 'utf8') === String(DATA_FILE_VERSION)) return file;
  rmSync(done, { force: true });
  const state = stateFromFixture(demoFixture()) as unknown as Record<string, unknown[]>;
  const out = createWriteStream(file);
  const write = async (s: string) => {
    if (!out.write(s)) await new Promise<void>((r) => out.once('drain', () => r()));
  };
  await write(`{"format":"${DATA_FILE_FORMAT}","format_version":${DATA_FILE_VERSION},"seq":0,"log_id":"bench-${runs}","state":{\n`);
  await write(`"clock":${JSON.stringify(state.clock)},\n"settings":${JSON.stringify(state.settings)}`);
  for (const c of COLLECTION_NAMES) {
    const extra = c === 'runs' ? runs : 0;
    await write(`,\n"${c}":[`);
    let first = true;
    for (const r of state[c]) {
      await write(`${first ? '\n' : ',\n'}${JSON.stringify(r)}`);
      first = false;
    }
    // Complete records, as the mock writes them (every default present).
    for (let i = 0; i < extra; i++) {
      await write(`${first ? '\n' : ',\n'}${JSON.stringify({ ...queuedRun(i), trace_content_status: 'available' })}`);
      first = false;
    }
    await write(first ? ']' : '\n]');
  }
  await write('\n}}\n');
  await new Promise<void>((r) => out.end(r));
  writeFileSync(done, String(DATA_FILE_VERSION));
  return file;
}

/** Removes what a server left beside a data file (its log and lock), so the next one starts from the snapshot alone. */
export function freshStart(file: string): void {
  for (const extra of ['.log', '.lock']) rmSync(`${file}${extra}`, { force: true });
}

/**
 * One start on `file` until listening: wall seconds, CPU seconds (user + system, all threads: how much of the wall time
 * was work on a busy machine) and peak RSS in bytes. The server is stopped after.
 */
export async function timedStart(start: () => Promise<Server>, file: string): Promise<{ seconds: number; cpu: number; peak: number }> {
  freshStart(file);
  const t0 = performance.now();
  const server = await start();
  const seconds = (performance.now() - t0) / 1000;
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const peak = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  const cpu = cpuSeconds(server);
  await server.stop();
  return { seconds, cpu, peak };
}
