// Group pgsb: writes spread over 30 sandboxes on PostgreSQL, through 3 instances against 1 (PUT budget, round-robin over
// sandboxes and instances, so each sandbox is written from every instance). Conflicts and reruns come from /_mock/metrics.
import { AUTH, compare, JSON_POST, rps, type Load } from '../lib/load.js';
import { PROJECT } from '../lib/data.js';
import { bad, fmt, report } from '../lib/report.js';
import { mockServer, type Server } from '../lib/servers.js';
import { database } from './postgres.js';

const SANDBOXES = 30;

/** A sample's value in a Prometheus text (0 when absent). */
const sample = (text: string, line: string) =>
  Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`${line} `))
      ?.split(' ')[1] ?? 0,
  );

export async function sandboxWritesOnPostgres(): Promise<void> {
  const db = await database();
  const servers: Server[] = [];
  try {
    servers.push(await mockServer('--database', db.url, '--simulation', 'off', '--reset'));
    for (let i = 0; i < 2; i++) servers.push(await mockServer('--database', db.url, '--simulation', 'off'));
    const boxes: string[] = [];
    for (let i = 0; i < SANDBOXES; i++) {
      const res = await fetch(`${servers[i % 3].url}/_mock/sandboxes`, { method: 'POST', headers: JSON_POST, body: '{}' });
      if (res.status !== 201) throw new Error(`bench pgsb: a sandbox create answered ${res.status}`);
      boxes.push(((await res.json()) as { id: string }).id);
    }
    let next = 0;
    const writes = (urls: string[]): Load => ({
      url: urls,
      path: () => `/sandboxes/${boxes[next++ % SANDBOXES]}/api/v3/projects/${PROJECT}/budget`,
      method: 'PUT',
      headers: { ...AUTH, ...JSON_POST },
      body: '{"user_daily_usd":5}',
    });
    const s = await compare(writes([servers[0].url]), writes(servers.map((x) => x.url)));
    const metrics = await Promise.all(servers.map(async (x) => (await fetch(`${x.url}/_mock/metrics`)).text()));
    const sum = (line: string) => metrics.reduce((n, t) => n + sample(t, line), 0);
    report({
      id: 'pgsb1',
      what: `PUT budget over ${SANDBOXES} sandboxes, 1 PostgreSQL instance (req/s)`,
      value: fmt(rps(s.base)) + bad(s.base),
      baseline: '',
      ratio: '',
      target: 'baseline',
      met: null,
    });
    report({
      id: 'pgsb3',
      what: `PUT budget over ${SANDBOXES} sandboxes, 3 PostgreSQL instances, round-robin (req/s)`,
      value: fmt(rps(s.subject)) + bad(s.subject),
      baseline: fmt(rps(s.base)),
      ratio: `${fmt(rps(s.subject) / rps(s.base), 2)} x 1 instance`,
      target: 'reported (2 cores shared by the instances and the database)',
      met: s.subject.bad === 0,
      note: `each sandbox written from every instance: ${fmt(sum('prm_commit_conflicts_total{scope="sandbox"}'))} conflicts, ${fmt(sum('prm_commit_reruns_total{scope="sandbox"}'))} reruns, ${fmt(sum('prm_commit_conflicts_total{scope="default"}'))} at the default mock`,
    });
  } finally {
    await Promise.all(servers.map((x) => x.stop()));
    await db.drop();
  }
}
