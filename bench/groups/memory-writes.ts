// Groups c0/c: bare Koa + koa-body POST, against cancels of queued runs in memory mode (a pool reset between batches).
import { runId, writeFixture, writeWork } from '../lib/data.js';
import { AUTH, JSON_POST, POOL, POOL_BATCH, cancelLoad, cancelPaths, compare, poolCancels, rps, runPath } from '../lib/load.js';
import { bad, fmt, report } from '../lib/report.js';
import { bareKoa, mockServer } from '../lib/servers.js';

export async function memoryWrites() {
  // A pool of queued runs, each cancelled once per batch, then POST /_mock/reset (untimed) brings them all back.
  const mock = await mockServer('--memory', '--fixtures', writeFixture('fixture-pool.json', { runs: POOL }));
  const first = await fetch(`${mock.url}${runPath(runId(0))}/cancel`, { method: 'POST', headers: { ...AUTH, ...JSON_POST }, body: '{"reason":"bench"}' });
  const bare = await bareKoa(writeWork('cancelled.json', await first.text()));
  const { base, subject, acked } = await compare(
    { ...cancelLoad(bare.url, cancelPaths().next), headers: JSON_POST, batch: { size: POOL_BATCH } },
    poolCancels(mock.url),
  );
  const ratio = rps(subject) / rps(base);
  report({ id: 'c0', what: 'bare Koa + koa-body POST (req/s)', value: fmt(rps(base)) + bad(base), baseline: '', ratio: '', target: 'baseline', met: null });
  report({
    id: 'c',
    what: 'cancel of a queued run, memory (req/s)',
    value: fmt(rps(subject)) + bad(subject),
    baseline: fmt(rps(base)),
    ratio: `${fmt(ratio, 2)} x c0`,
    target: '>= 0.8 x c0',
    met: ratio >= 0.8 && subject.bad === 0,
    note: `${acked} cancels in batches of ${POOL_BATCH}, the pool of ${POOL} queued runs reset between batches (untimed)`,
  });
  await Promise.all([mock.stop(), bare.stop()]);
}
