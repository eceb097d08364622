// Groups d0/d: json-server POST on a db of N records, against cancels on the JSON-file adapter with N stored runs; every ack must be on disk.
import { rmSync } from 'node:fs';
import { JsonFileAdapter } from '../../src/storage/index.js';
import { WORK, writeFixture, writeJsonServerDb } from '../lib/data.js';
import { JSON_POST, cancelLoad, cancelPaths, compare, rps } from '../lib/load.js';
import { bad, fmt, report } from '../lib/report.js';
import { jsonServer, mockServer } from '../lib/servers.js';

export async function fileWrites(n: number): Promise<void> {
  const data = `${WORK}db-${n}.json`;
  rmSync(data, { force: true });
  rmSync(`${data}.lock`, { force: true });
  const mock = await mockServer('--data', data, '--fixtures', writeFixture(`fixture-${n}.json`, { runs: n }));
  const js = await jsonServer(writeJsonServerDb(`json-server-${n}.json`, n));
  // A small pool runs out within the timed rounds (the cancels are fast): then it is cancelled in fixed batches of
  // half the pool, brought back by an untimed POST /_mock/reset before each, and the last batch is checked on disk.
  const paths = cancelPaths();
  const batched = n <= 20_000;
  const size = n / 2;
  const reset = async () => {
    const res = await fetch(`${mock.url}/_mock/reset`, { method: 'POST', headers: JSON_POST, body: '{}' });
    if (res.status !== 200) throw new Error(`/_mock/reset answered ${res.status}`);
    paths.rewind();
  };
  const { base, subject, acked } = await compare(
    { url: js.url, path: '/runs', method: 'POST', headers: JSON_POST, body: '{"reason":"bench","status":"cancelled"}' },
    { ...cancelLoad(mock.url, paths.next), ...(batched ? { batch: { size, before: reset } } : {}) },
  );
  // Every acknowledged cancel must be in the file now (a cancel is answered only once its write is on disk).
  const stored = await new JsonFileAdapter(data, { report: {} }).read(); // the snapshot and its log, as a restart loads them
  const onDisk = (stored!.state.runs as { id: string; status: string }[]).filter((r) => r.id.startsWith('b0000001-') && r.status === 'cancelled').length;
  const ratio = rps(subject) / rps(base);
  // Batched: every batch is answered 2xx in full (bad is 0), so the last one acknowledged `size` cancels since its reset.
  const mustBeOnDisk = batched ? size : acked;
  const durable = onDisk >= mustBeOnDisk;
  const k = `${n / 1000}k`;
  report({
    id: `d0-${k}`,
    what: `json-server 1.0.0-beta.3 POST, ${k} records (req/s)`,
    value: fmt(rps(base), 1) + bad(base),
    baseline: '',
    ratio: '',
    target: 'baseline',
    met: null,
  });
  report({
    id: `d-${k}`,
    what: `cancel on the JSON-file adapter, ${k} stored runs (req/s)`,
    value: fmt(rps(subject), 1) + bad(subject),
    baseline: fmt(rps(base), 1),
    ratio: base.ok ? `${fmt(ratio, 1)} x json-server` : `json-server: 0 done in ${fmt(base.seconds)} s`,
    target: n === 10_000 ? '>= 10 x json-server, every ack on disk' : 'every ack on disk (ratio reported)',
    met: (n === 10_000 ? ratio >= 10 : true) && durable && subject.bad === 0,
    note: batched
      ? `${acked} acknowledged in batches of ${size} (pool reset between batches, untimed); the last batch: ${mustBeOnDisk} acknowledged, ${onDisk} on disk${durable ? '' : ': LOST WRITES'}`
      : `${acked} acknowledged, ${onDisk} on disk${durable ? '' : ': LOST WRITES'}`,
  });
  await Promise.all([mock.stop(), js.stop()]);
}
