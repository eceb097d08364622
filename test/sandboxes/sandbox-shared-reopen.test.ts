// A shared sandbox (PostgreSQL) an instance let go for idling and then opened again is let go again on its delete: each let-go is its own, not the first one's finished wait.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dropCreated, needsPostgres } from '../helpers/postgres.js';
import { apps, call, create, holds, instances, RUN, until } from '../helpers/postgres-sandboxes.js';

needsPostgres();
test.after(async () => {
  await Promise.all(apps.splice(0).map((m) => m.close().catch(() => {})));
  await dropCreated();
});

test('idle here, kept alive by another instance, opened again, then deleted: the reopened copy is let go', async () => {
  let now = Date.parse('2026-01-01T00:00:00Z');
  // A 2 s time to live: each instance sweeps once a second (real time) and reads the shared clock below.
  const {
    live: [a, b],
  } = await instances(2, { clock: () => now, sandboxes: { ttlMs: 2000 } });
  const sb = await create(b);
  assert.is((await call(a, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 200);
  assert.ok(holds(a, sb.id));
  // B serves it 1.5 s later (reported to the storage); at 2.1 s A's copy has idled its 2 s, the sandbox has not.
  now += 1500;
  assert.is((await call(b, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 200);
  now += 600;
  assert.ok(await until(() => !holds(a, sb.id), 5000), 'A lets its idle copy go at its next sweep');
  // A request through A opens it again; a delete through A must let that copy go too.
  assert.is((await call(a, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 200);
  assert.ok(holds(a, sb.id));
  const del = await call(a, 'DELETE', `/_mock/sandboxes/${sb.id}`);
  assert.equal([del.status, del.body], [200, { deleted: true, id: sb.id }]);
  assert.is(holds(a, sb.id), false);
  assert.is((await call(a, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 404);
});

test.run();
