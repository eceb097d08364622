// Group shadow: GET run detail on a mock that shadows every GET to a local target (a second mock from the same fixture)
// against one that does not. The shadow request is queued after the answer, bounded in rate and concurrency, so the
// mock's own throughput should barely move.
import { RUN, TOKEN } from '../lib/data.js';
import { AUTH, PRECISE, compare, rps, runPath } from '../lib/load.js';
import { bad, fmt, report } from '../lib/report.js';
import { mockServer } from '../lib/servers.js';

export async function shadowGroup() {
  const target = await mockServer('--memory', '--simulation', 'off');
  const plain = await mockServer('--memory', '--simulation', 'off');
  const shadowed = await mockServer('--memory', '--simulation', 'off', '--shadow', target.url, '--shadow-token', TOKEN);
  // Steady state, as in a long session: the first comparison builds the OpenAPI document it checks shapes against.
  await fetch(`${shadowed.url}${runPath(RUN)}`, { headers: AUTH });
  while ((await driftOf(shadowed.url)).compared < 1) await new Promise((r) => setTimeout(r, 50));
  // Shadow mode costs about 4 % here: at EDGE's 18 rounds a run fell under the 0.9 x target about one time in three.
  const { base, subject } = await compare(
    { url: plain.url, path: runPath(RUN), headers: AUTH },
    { url: shadowed.url, path: runPath(RUN), headers: AUTH, before: () => emptyBucket(shadowed.url) },
    PRECISE,
  );
  const drift = await driftOf(shadowed.url);
  if (drift.drifted !== 0) throw new Error(`bench shadow: the target from the same fixture drifted: ${JSON.stringify(drift)}`);
  const ratio = rps(subject) / rps(base);
  report({
    id: 'sh0',
    what: 'GET run detail, no shadow, memory (req/s)',
    value: fmt(rps(base)) + bad(base),
    baseline: '',
    ratio: '',
    target: 'baseline',
    met: null,
  });
  const dropped = drift.dropped.queue_full + drift.dropped.rate_limited;
  report({
    id: 'sh',
    what: `GET run detail with --shadow to a local mock (req/s; ${fmt(drift.compared)} compared, 0 drift, ${fmt(dropped)} over the bounds)`,
    value: fmt(rps(subject)) + bad(subject),
    baseline: fmt(rps(base)),
    ratio: `${fmt(ratio, 2)} x sh0`,
    target: '>= 0.9 x sh0',
    met: ratio >= 0.9,
  });
  await Promise.all([target.stop(), plain.stop(), shadowed.stop()]);
}

interface DriftCounts {
  compared: number;
  drifted: number;
  dropped: { queue_full: number; rate_limited: number; target_down: number };
}
const driftOf = async (url: string) => (await (await fetch(`${url}/_mock/drift`)).json()) as DriftCounts;

/**
 * Before each of the shadowed side's rounds (untimed): takes the rate's tokens that refilled while the other side ran and
 * waits for their comparisons. Under steady load the bucket is always empty and comparisons run at the rate (10 a
 * second); a round of 1 s that began with a full bucket would compare twice that many.
 */
async function emptyBucket(url: string) {
  const before = await driftOf(url);
  const sent = 12; // more than the bucket holds (10)
  for (let i = 0; i < sent; i++) await (await fetch(`${url}${runPath(RUN)}`, { headers: AUTH })).arrayBuffer();
  const after = await driftOf(url);
  const admitted = sent - (after.dropped.rate_limited - before.dropped.rate_limited) - (after.dropped.queue_full - before.dropped.queue_full);
  for (let i = 0; i < 250 && (await driftOf(url)).compared < before.compared + admitted; i++) await new Promise((r) => setTimeout(r, 20));
}
