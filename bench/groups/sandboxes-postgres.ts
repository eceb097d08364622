// Row sb5 of group sb: creating a sandbox of the demo through an instance on PostgreSQL (a registry row; the demo base
// stored once), over HTTP at one connection. Uses DATABASE_URL (a fresh database in it) or a private cluster.
import { fmt, median, report } from '../lib/report.js';
import { mockServer } from '../lib/servers.js';
import { database } from './postgres.js';
import { performance } from 'node:perf_hooks';
import { JSON_POST } from '../lib/load.js';

/** Per sandbox created over HTTP at `url` (one connection, one after another), its time in ms. */
export async function createOverHttp(url: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/_mock/sandboxes`, { method: 'POST', headers: JSON_POST, body: '{}' });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (res.status !== 201) throw new Error(`create ${res.status}`);
  }
  return times;
}

export async function sandboxesOnPostgres(): Promise<void> {
  const db = await database();
  const server = await mockServer('--database', db.url, '--simulation', 'off', '--reset');
  try {
    await createOverHttp(server.url, 50); // warm up (the first stores the demo base)
    const ms = median(await createOverHttp(server.url, 200));
    report({
      id: 'sb5',
      what: 'create a sandbox of the demo through a PostgreSQL instance over HTTP, one connection, median of 200',
      value: `${fmt(ms, 2)} ms`,
      baseline: '',
      ratio: '',
      target: '<= 20 ms',
      met: ms <= 20,
    });
  } finally {
    await server.stop();
    await db.drop();
  }
}
