// A sandbox's end is one instant on PostgreSQL, over three instances on one schema: a delete through one orders against
// requests through every one (never a 503, no 200 written after the delete's, no change set stored after it), a write
// held by a delay fault or a slow body answers 404, and a request in flight on one instance keeps the sandbox alive for all.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { postgresStorage } from '../../../src/storage/postgres/index.js';
import { DATABASE_URL, dropCreated, freshSchema, needsPostgres } from '../../helpers/postgres.js';
import { rows } from '../../helpers/postgres-sandboxes.js';
import {
  answeredAt,
  call,
  create,
  delayedWrite,
  gone,
  heldOnTwoDeletedOnThird,
  inFlightPastTtl,
  P,
  raceDelete,
  serve,
  slowBodyWrite,
  wait,
  type Served,
} from '../../helpers/sandbox-end.js';
import type { ChangeSetAdapter, SharedSandboxStorage, StorageAdapter } from '../../../src/storage/change-sets.js';

/**
 * PostgreSQL storage whose sandboxes' appends, while `hold` is set, return only when it is released, after they
 * committed: a write stored before a delete whose answer is still to come. `stored` resolves as such an append commits.
 */
function holdingStorage(schema: string) {
  const inner = postgresStorage({ connectionString: DATABASE_URL, schema });
  const held: { hold: Promise<void> | null; stored: () => void } = { hold: null, stored: () => {} };
  const bound = <T extends object>(target: T, own: Partial<T>): T =>
    new Proxy(target, {
      get: (t, key) => {
        if (key in own) return own[key as keyof T];
        const v: unknown = Reflect.get(t, key);
        // Bound to the target: its methods use private fields, which a proxy as `this` does not have.
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
      },
    });
  const holding = (adapter: ChangeSetAdapter) =>
    bound(adapter, {
      appendChangeSets: async (...args: Parameters<ChangeSetAdapter['appendChangeSets']>) => {
        await adapter.appendChangeSets(...args);
        const hold = held.hold;
        if (!hold) return;
        held.hold = null;
        held.stored();
        await hold;
      },
    });
  const shared = (s: SharedSandboxStorage) =>
    bound(s, {
      open: async (id, created) => {
        const o = await s.open(id, created);
        return { ...o, adapter: holding(o.adapter) };
      },
    });
  const storage = bound(inner as StorageAdapter, { sharedSandboxes: () => shared(inner.sharedSandboxes()) });
  return { storage, held };
}

needsPostgres();
const trio: Served[] = [];
let schema = '';
test.before(async () => {
  schema = freshSchema();
  for (let i = 0; i < 3; i++)
    trio.push(await serve(await createApp({ storage: postgresStorage({ connectionString: DATABASE_URL, schema }), fixtures: demoFixture() })));
});
test.after(async () => {
  for (const s of trio.splice(0)) await s.close().catch(() => {});
  await dropCreated();
});

test('a delete among 60 concurrent writes and reads over 3 instances (5 rounds): no 503, 200 only before the delete, nothing stored after', async () => {
  for (let round = 0; round < 5; round++) {
    const { id } = await raceDelete(trio, round);
    assert.is(await rows(schema, 'prm_sandboxes', 'id = $1', [id]), 0);
    assert.is(await rows(schema, 'prm_sandbox_changes', 'sandbox = $1', [id]), 0, 'no change set of the sandbox is stored after its delete');
  }
});

test('a write held by a delay fault answers 404 when the sandbox is deleted, through the same instance or another', async () => {
  await delayedWrite(trio[0], trio[0]);
  const id = await delayedWrite(trio[1], trio[2]);
  assert.is(await rows(schema, 'prm_sandbox_changes', 'sandbox = $1', [id]), 0);
});

test('a write whose body is still arriving answers 404 when the sandbox is deleted, through the same instance or another', async () => {
  await slowBodyWrite(trio[2], trio[2]);
  await slowBodyWrite(trio[0], trio[1]);
});

test('requests held by delay faults and slow bodies on two instances while the third deletes: each 404, all before the delete, nothing stored', async () => {
  for (const [a, b, c] of [
    [0, 1, 2],
    [2, 0, 1],
  ]) {
    const id = await heldOnTwoDeletedOnThird(trio[a], trio[b], trio[c]);
    assert.is(await rows(schema, 'prm_sandbox_changes', 'sandbox = $1', [id]), 0);
    assert.is(await rows(schema, 'prm_sandboxes', 'id = $1', [id]), 0);
  }
});

test('a write another instance stored just before the delete is answered (200) before the delete answers', async () => {
  const { storage, held } = holdingStorage(schema);
  const a = await serve(await createApp({ storage, fixtures: demoFixture() }));
  try {
    const id = await create(trio[1]);
    const S = `/sandboxes/${id}`;
    let release = () => {};
    held.hold = new Promise<void>((r) => (release = r));
    const stored = new Promise<void>((r) => (held.stored = r));
    const put = call(a, 'PUT', `${S}/api/v3/projects/${P}/budget`, { project_daily_usd: 61 }, `stored-${id}`);
    await stored;
    let deleted = false;
    const del = call(trio[1], 'DELETE', `/_mock/sandboxes/${id}`, undefined, `delete-${id}`).finally(() => (deleted = true));
    await wait(400);
    assert.not.ok(deleted, 'the delete waits for the instance whose stored write is still unanswered');
    release();
    assert.equal(await del, { status: 200, body: { deleted: true, id } });
    const answer = await put;
    assert.is(answer.status, 200, JSON.stringify(answer.body));
    assert.is(answer.body!.limits.project_daily_usd, 61);
    assert.ok(answeredAt(`stored-${id}`) < answeredAt(`delete-${id}`), 'the stored write was answered before the delete');
    for (const s of [a, ...trio]) assert.equal(await call(s, 'GET', `${S}/api/v3/projects/${P}/budget`), { status: 404, body: gone(id) });
  } finally {
    await a.close();
  }
});

test('a write in flight on one instance keeps the sandbox alive past its time to live on every instance until it is answered', async () => {
  await inFlightPastTtl(trio[0], trio[0]);
  await inFlightPastTtl(trio[1], trio[2]);
});

test.run();
