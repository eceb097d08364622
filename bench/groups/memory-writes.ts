// Groups c0/c: bare Koa + koa-body POST, against cancels of queued runs in memory mode (a pool reset between batches).
import { runId, writeFixture, writeWork } from '../lib/data.js';
import { AUTH, CONNECTIONS, JSON_POST, cancelLoad, cancelPaths, compare, rps, runPath } from '../lib/load.js';
import { bad, fmt, report } from '../lib/report.js';
import { bareKoa, mockServer } from '../lib/servers.js';

export async function memoryWrites() {
  // A pool of queued runs, each cancelled once per batch, then POST /_mock/reset (untimed) brings them all back.
  const pool = 2_000;
  const size = pool - 2 * CONNECTIONS; // autocannon builds one request per connection ahead of time
  const mock = await mockServer('--memory', '--fixtures', writeFixture('fixture-pool.json', { runs: pool }));
  const first = await fetch(`${mock.url}${runPath(runId(0))}/cancel`, { method: 'POST', headers: { ...AUTH, ...JSON_POST }, body: '{"reason":"bench"}' });
  const bare = await bareKoa(writeWork('cancelled.json', await first.text()));
  const paths = cancelPaths();
  const reset = async () => {
    const res = await fetch(`${mock.url}/_mock/reset`, { method: 'POST' });
    if (res.status !== 200) throw new Error(`/_mock/reset answered ${res.status}`);
    paths.rewind();
  };
  const { base, subject, acked } = await compare(
    { ...cancelLoad(bare.url, cancelPaths().next), headers: JSON_POST, batch: { size } },
    { ...cancelLoad(mock.url, paths.next), batch: { size, before: reset } },
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
    note: `${acked} cancels in batches of ${size}, the pool of ${pool} queued runs reset between batches (untimed)`,
  });
  await Promise.all([mock.stop(), bare.stop()]);
}
