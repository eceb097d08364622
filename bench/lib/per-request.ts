// Per-request timing in process: sequential requests in batches, the sides alternating batch by batch, medians over batches.
import { performance } from 'node:perf_hooks';
import { median } from './report.js';

const BATCHES = 12; // per side, alternating
const turn = () => new Promise<void>((r) => setImmediate(r));

/** CPU time per request (µs) of each side in the last perRequest call, the median over batches: the process's user + system time, which other load does not inflate. */
export const cpuTimes: Record<string, number> = {};

/**
 * Mean time per request (µs) of `size` sequential requests, the median over batches; the sides alternate batch by batch.
 * A batch ends after one turn of the event loop: light-my-request finishes each response's fake socket write in a
 * setImmediate, and a side that never yields leaves that work to whatever runs next (the other side's batch).
 */
export async function perRequest(sides: Record<string, () => Promise<unknown>>, size: number): Promise<Record<string, number>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  for (const one of Object.values(sides)) for (let i = 0; i < size; i++) await one(); // warm-up
  for (let b = 0; b < BATCHES; b++) {
    const order = b % 2 ? Object.keys(sides).reverse() : Object.keys(sides);
    for (const name of order) {
      await turn();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < size; i++) await sides[name]();
      await turn();
      times[name].push(((performance.now() - t0) * 1000) / size);
      const c = process.cpuUsage(c0);
      cpu[name].push((c.user + c.system) / size);
    }
  }
  for (const [k, v] of Object.entries(cpu)) cpuTimes[k] = median(v);
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}
