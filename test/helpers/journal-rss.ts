// Child of journal-bounds.test.ts: sends N hostile 1 MiB requests (token 422s, badly signed broker webhooks) and prints memory after GC.
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';

const n = Number(process.argv[2] ?? 1000);
const body = `{"x":[${Array(349_000).fill('{}').join(',')}]}`;
const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
const statuses = new Set<number>();
for (let i = 0; i < n; i++) {
  const broker = i % 2 === 1;
  const res = await mock.inject({
    method: 'POST',
    url: broker ? '/api/v3/webhooks/broker' : '/api/v3/auth/token',
    headers: { 'content-type': 'application/json', ...(broker ? { 'x-broker-hmac-sha256': '0'.repeat(64) } : {}) },
    payload: body,
  });
  statuses.add(res.statusCode);
}
(globalThis as { gc?: () => void }).gc?.();
const m = process.memoryUsage();
process.stdout.write(
  JSON.stringify({
    requests: n,
    statuses: [...statuses].sort(),
    rssMB: Math.round(m.rss / 1e6),
    heapMB: Math.round(m.heapUsed / 1e6),
    externalMB: Math.round(m.external / 1e6),
    journalBytes: mock.control.journal.bytes,
    entries: mock.control.journal.size,
  }),
);
