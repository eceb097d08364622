// A shared sandbox's expiry on PostgreSQL when instances report its last request out of order: an older report that
// arrives after a newer one never moves the last request back, so the sandbox does not expire early.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { dropCreated, needsPostgres, DATABASE_URL } from '../helpers/postgres.js';
import { apps, create, instances } from '../helpers/postgres-sandboxes.js';

needsPostgres();
const stores: ReturnType<typeof postgresStorage>[] = [];
test.after(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close().catch(() => {})));
  await Promise.all(apps.splice(0).map((m) => m.close().catch(() => {})));
  await dropCreated();
});

const TTL = 60_000;

test('out of order: a newer report then an older one; the sandbox lives until the newer one plus its ttl, not a moment less', async () => {
  const { live, schema } = await instances(1);
  const sb = await create(live[0], { ttl_ms: TTL });
  // Two other instances on the same schema report the sandbox's last request.
  const [b, c] = [0, 1].map(() => postgresStorage({ connectionString: DATABASE_URL, schema }));
  stores.push(b, c);
  const [sb1, sb2] = [b.sharedSandboxes(), c.sharedSandboxes()];
  const created = (await sb1.find(sb.id, 0))!;
  assert.is(created.ttlMs, TTL);
  const start = created.lastMs;
  const newer = start + 50_000;
  const older = start + 10_000;
  await sb1.touch(sb.id, newer);
  await sb2.touch(sb.id, older); // arrives last, carries the older time
  // Every instance reads the newer last request.
  assert.is((await sb2.find(sb.id, 0))!.lastMs, newer);
  assert.is((await sb1.find(sb.id, 0))!.lastMs, newer);
  // Alive one moment before newer + ttl (past older + ttl, where it would have ended had the older report won).
  assert.ok(older + TTL < newer + TTL - 1);
  assert.is((await sb2.find(sb.id, newer + TTL - 1))?.id, sb.id);
  assert.equal(
    (await sb2.list(newer + TTL - 1)).map((r) => r.id),
    [sb.id],
  );
  assert.equal(await sb2.sweep(older + TTL), [], 'a sweep at the older report plus ttl removes nothing');
  // Gone at exactly newer + ttl.
  assert.is(await sb1.find(sb.id, newer + TTL), null);
  assert.equal(await sb1.list(newer + TTL), []);
  assert.equal(await sb1.sweep(newer + TTL), [sb.id]);
  assert.is(await sb2.find(sb.id, 0), null);
});

test.run();
