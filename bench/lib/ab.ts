// A/B of today's build against an older commit's, on the same load in one run: both CLIs started with the same flags,
// the loads interleaved, each server's CPU per answered request beside the throughput (other load distorts it less).
import { PLAIN, compare, type Load, type Pace } from './load.js';
import { pinnedCli } from './pinned.js';
import { fmt } from './report.js';
import { cpuSeconds, mockServer, type Server } from './servers.js';

export const us = (n: number) => `${fmt(n, 1)} µs`;

/** Both builds' CLIs with the same flags (`commit`'s first, then today's), and a function that stops both. */
export async function pair(commit: string, ...flags: string[]): Promise<[Server, Server, () => Promise<void>]> {
  const [before, now] = await Promise.all([pinnedCli(commit, ...flags), mockServer(...flags)]);
  return [before, now, async () => void (await Promise.all([before.stop(), now.stop()]))];
}

/**
 * `load` on `server`, and the server's CPU seconds spent under it so far: user + system while the load runs (warm-up
 * included), not while a batch's untimed preparation (a pool reset) runs.
 */
function metered(server: Server, load: Load): { load: Load; spent: () => number } {
  let spent = 0;
  let mark = cpuSeconds(server);
  const prepare = load.batch?.before;
  if (!prepare) return { load, spent: () => spent + cpuSeconds(server) - mark };
  const before = async () => {
    spent += cpuSeconds(server) - mark;
    await prepare();
    mark = cpuSeconds(server);
  };
  return { load: { ...load, batch: { ...load.batch!, before } }, spent: () => spent + cpuSeconds(server) - mark };
}

/** compare() of the older build's load against today's (at `pace`), with each server's CPU per answered request. */
export async function ab(before: Server, now: Server, loadBefore: Load, loadNow: Load, pace: Pace = PLAIN) {
  const [b, n] = [metered(before, loadBefore), metered(now, loadNow)];
  const r = await compare(b.load, n.load, pace);
  const [cpuBefore, cpuNow] = [(b.spent() * 1e6) / r.baseAcked, (n.spent() * 1e6) / r.acked];
  return { ...r, cpu: `server CPU per answered request ${us(cpuNow)} against ${us(cpuBefore)} (${fmt(cpuNow / cpuBefore, 2)} x)` };
}
