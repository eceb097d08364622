// A shared sandbox (PostgreSQL) as a create and a get show it: Retry-After rounds the wait up to whole seconds, the seed reaches an instance that opens the sandbox later, and expires_at counts a request this instance served but has not reported yet.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dropCreated, needsPostgres } from '../helpers/postgres.js';
import { apps, call, create, instances, P, RUN } from '../helpers/postgres-sandboxes.js';

needsPostgres();
test.after(async () => {
  await Promise.all(apps.splice(0).map((m) => m.close().catch(() => {})));
  await dropCreated();
});

const T0 = Date.parse('2030-01-01T00:00:00Z');
const TTL = 10_000;

test('sandbox limit on shared storage: 6.5 s until the only sandbox expires is Retry-After 7', async () => {
  let now = T0;
  const {
    live: [a],
  } = await instances(1, { clock: () => now, sandboxes: { max: 1 } });
  await create(a, { ttl_ms: TTL });
  now = T0 + 3_500;
  const refused = await call(a, 'POST', '/_mock/sandboxes', {});
  assert.equal([refused.status, refused.headers.get('retry-after')], [429, '7']);
});

test('a seeded sandbox mints the same ids on the instance that created it and on one that opens it later', async () => {
  const {
    live: [a, b],
  } = await instances(2);
  const runOf = async (app: (typeof apps)[number], id: string) => (await call(app, 'POST', `/sandboxes/${id}/_mock/projects/${P}/runs`, {})).body!.id as string;
  const first = await create(a, { seed: 'same' });
  const second = await create(a, { seed: 'same' });
  const onA = await runOf(a, first.id);
  // b has never held `second`: it opens it from the storage, with its seed.
  assert.is(await runOf(b, second.id), onA);
});

test('expires_at counts the last request served here, before it is reported to the storage', async () => {
  let now = T0;
  const {
    live: [a],
  } = await instances(1, { clock: () => now });
  const sb = await create(a, { ttl_ms: 60_000 });
  // 1 s later: less than a tenth of the time to live, so this request is not reported yet.
  now = T0 + 1_000;
  assert.is((await call(a, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 200);
  const shown = await call(a, 'GET', `/_mock/sandboxes/${sb.id}`);
  assert.is(shown.body!.expires_at, new Date(T0 + 1_000 + 60_000).toISOString());
});

test.run();
