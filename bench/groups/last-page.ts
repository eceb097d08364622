// Groups e0/e: the first page against the last page (reached by walking the cursor) of 100,000 app users.
import { AUTH, compare, latency, rps } from '../lib/load.js';
import { PROJECT, writeFixture } from '../lib/data.js';
import { bad, fmt, report } from '../lib/report.js';
import { mockServer } from '../lib/servers.js';

export async function lastPage() {
  const n = 100_000;
  const mock = await mockServer('--memory', '--fixtures', writeFixture('fixture-users.json', { users: n }));
  const list = `/api/v3/projects/${PROJECT}/users?limit=200`;
  let cursor: string | null = null;
  let last: string;
  let pages = 0;
  do {
    const path: string = cursor ? `${list}&cursor=${encodeURIComponent(cursor)}` : list;
    const page = (await (await fetch(mock.url + path, { headers: AUTH })).json()) as { next_cursor: string | null };
    last = path;
    cursor = page.next_cursor;
    pages++;
  } while (cursor);
  const { base, subject } = await compare({ url: mock.url, path: list, headers: AUTH }, { url: mock.url, path: last, headers: AUTH });
  const items = ((await (await fetch(mock.url + last, { headers: AUTH })).json()) as { items: unknown[] }).items.length;
  const ratio = rps(base) / rps(subject);
  const latRatio = latency(subject) / latency(base);
  report({
    id: 'e0',
    what: `first page of ${fmt(n)} app users, limit 200 (req/s)`,
    value: fmt(rps(base)) + bad(base),
    baseline: '',
    ratio: '',
    target: 'baseline',
    met: null,
  });
  report({
    id: 'e',
    what: `last page (page ${pages}, ${items} items) of the same walk (req/s)`,
    value: fmt(rps(subject)) + bad(subject),
    baseline: fmt(rps(base)),
    ratio: `${fmt(ratio, 2)} x (throughput first/last)`,
    target: '<= 1.2 x',
    met: ratio <= 1.2,
    note: `mean latency ${fmt(latency(subject), 2)} ms vs ${fmt(latency(base), 2)} ms (x ${fmt(latRatio, 2)})`,
  });
  await mock.stop();
}
