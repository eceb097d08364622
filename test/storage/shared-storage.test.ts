// The seam a shared database builds on: a totally ordered log of change sets, conflicts reported by the adapter
// (the store catches up and runs the transactions again), and catch-up before each request (read your writes).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { StorageUnavailable } from '../../src/storage/store.js';
import { ChangeSetConflict, type ChangeSet, type ChangeSetAdapter } from '../../src/storage/adapters.js';
import { documentAfter } from '../../src/storage/lowdb-adapter.js';
import { COLLECTION_NAMES, PRIMARY_KEYS, type DataFile } from '../../src/schemas/state.js';
import { DEMO, bearer } from '../helpers/demo.js';

const P = DEMO.projects.support;
const operator = bearer(DEMO.tokens.operator);

/** One log shared by several instances, as a database table of change sets ordered by seq would be. */
class SharedLog {
  base: DataFile | null = null;
  sets: ChangeSet[] = [];
  appends = 0;
  conflictsLeft = 0; // answers ChangeSetConflict this many more times regardless

  get head(): number {
    return this.sets.length ? this.sets[this.sets.length - 1].seq : (this.base?.seq ?? 0);
  }

  adapter(): ChangeSetAdapter {
    return {
      read: async () => (this.base ? structuredClone(documentAfter(stateOf(this.base), this.sets)) : null),
      write: async (data) => {
        this.base = structuredClone(data);
        this.sets = [];
      },
      appendChangeSets: async (group) => {
        this.appends++;
        if (this.conflictsLeft > 0) {
          this.conflictsLeft--;
          throw new ChangeSetConflict();
        }
        if (group[0].seq !== this.head + 1) throw new ChangeSetConflict();
        this.sets.push(...structuredClone(group));
      },
      changesSince: async (seq) => structuredClone(this.sets.filter((s) => s.seq > seq)),
    };
  }
}

/** A committed-state view over a plain document (what documentAfter needs). */
function stateOf(doc: DataFile) {
  const state = doc.state as unknown as Record<string, unknown[]>;
  const maps = new Map<string, Map<string, unknown>>();
  for (const c of COLLECTION_NAMES) maps.set(c, new Map((state[c] ?? []).map((r) => [(PRIMARY_KEYS[c] as (x: unknown) => string)(r), r])));
  return {
    seq: doc.seq ?? 0,
    clock: doc.state.clock,
    settings: doc.state.settings,
    get: (c: string, key: string) => maps.get(c)?.get(key),
    entries: (c: string) => (maps.get(c) ?? new Map()).entries(),
    count: (c: string) => maps.get(c)?.size ?? 0,
  } as never;
}

const epoch = (mock: Awaited<ReturnType<typeof createApp>>) => mock.store.get('budgets', P)!.runtime_config_epoch;

test('shared storage: a write through one instance is read through another (catch-up before each request)', async () => {
  const log = new SharedLog();
  const a = await createApp({ storage: log.adapter(), fixtures: demoFixture() });
  const b = await createApp({ storage: log.adapter(), fixtures: demoFixture() });
  const put = await request(a.callback()).put(`/api/v3/projects/${P}/budget`).set(operator).send({ user_daily_usd: 3 });
  assert.is(put.status, 200);
  assert.is(b.store.get('budgets', P)!.limits.user_daily_usd, 5, 'b has not looked yet');
  // A request through b first applies what a stored.
  const again = await request(b.callback()).put(`/api/v3/projects/${P}/budget`).set(operator).send({});
  assert.is(again.status, 200);
  assert.is(again.body.limits.user_daily_usd, 3);
  assert.is(again.body.runtime_config_epoch, put.body.runtime_config_epoch + 1);
  assert.is(b.store.seq, log.head);
});

test('shared storage: a conflict makes the store catch up and run the transaction again, so no update is lost', async () => {
  const log = new SharedLog();
  const a = await createApp({ storage: log.adapter(), fixtures: demoFixture() });
  const b = await createApp({ storage: log.adapter(), fixtures: demoFixture() });
  const start = epoch(a);
  const bump = (tx: Parameters<Parameters<typeof a.store.transact>[0]>[0]) => {
    const budget = tx.get('budgets', P)!;
    return tx.put('budgets', { ...budget, runtime_config_epoch: budget.runtime_config_epoch + 1 }).runtime_config_epoch;
  };
  assert.is(await a.store.transact(bump), start + 1);
  // b has not seen a's write: its append conflicts, it catches up, runs `bump` again on the new state.
  assert.is(await b.store.transact(bump), start + 2);
  assert.is(epoch(b), start + 2);
  assert.equal(
    log.sets.map((s) => s.seq),
    [log.head - 1, log.head],
  );
});

test('shared storage: a change set that keeps conflicting is refused with 503 storage_unavailable and changes nothing', async () => {
  const log = new SharedLog();
  const a = await createApp({ storage: log.adapter(), fixtures: demoFixture() });
  const before = epoch(a);
  log.conflictsLeft = 100;
  const err = await a.store.transact((tx) => tx.put('budgets', { ...tx.get('budgets', P)!, runtime_config_epoch: 99 })).catch((e: unknown) => e);
  assert.instance(err, StorageUnavailable);
  assert.is((err as StorageUnavailable).reason_code, 'storage_unavailable');
  assert.is(log.appends, 5);
  assert.is(epoch(a), before);
  log.conflictsLeft = 0;
  await a.store.transact((tx) => tx.put('budgets', { ...tx.get('budgets', P)!, runtime_config_epoch: 100 }));
  assert.is(epoch(a), 100);
});

test('shared storage: a transaction that has nothing left to do after catching up settles (flush and transact resolve)', async () => {
  const log = new SharedLog();
  const a = await createApp({ storage: log.adapter(), fixtures: demoFixture() });
  const b = await createApp({ storage: log.adapter(), fixtures: demoFixture() });
  // Both want the same record to exist (as two instances creating the simulation's sources at start do).
  const ensure = (tx: Parameters<Parameters<typeof a.store.transact>[0]>[0]) => {
    const budget = tx.get('budgets', P)!;
    if (budget.runtime_config_epoch !== 42) tx.put('budgets', { ...budget, runtime_config_epoch: 42 });
    return 'done';
  };
  await a.store.transact(ensure);
  const appendsBefore = log.appends;
  // b has not seen a's write: its append conflicts; run again on the caught-up state, the transaction is empty.
  b.store.apply(ensure);
  const late = new Promise((resolve) => setTimeout(() => resolve('still pending after 2 s'), 2_000).unref());
  assert.is(await Promise.race([b.store.flush().then(() => 'settled'), late]), 'settled');
  assert.is(await Promise.race([b.store.transact(ensure), late]), 'done');
  assert.is(epoch(b), 42);
  assert.is(log.appends, appendsBefore + 1, 'one refused append, nothing stored twice');
  assert.is(b.store.seq, log.head);
});

test('shared storage: requests of one turn share one catch-up, begun after them; one arriving while it is on its way waits for the next', async () => {
  const log = new SharedLog();
  const a = await createApp({ storage: log.adapter(), fixtures: demoFixture() });
  const shared = log.adapter();
  // b's catch-ups are counted and held until released; each answers the log as it was when the catch-up began.
  const looks: { seen: number; release: () => void }[] = [];
  const b = await createApp({
    storage: {
      ...shared,
      changesSince: (seq) => {
        const found = structuredClone(log.sets.filter((x) => x.seq > seq));
        return new Promise((resolve) => looks.push({ seen: log.head, release: () => resolve(found) }));
      },
    },
    fixtures: demoFixture(),
  });
  // A few turns of the event loop: enough for a catch-up that is due to begin.
  const turn = async () => {
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  await turn();
  const before = looks.length;
  const start = epoch(b);
  assert.is.not(start, 77);
  const first = [b.store.sync(), b.store.sync(), b.store.sync()];
  assert.is(looks.length, before, 'begun only once the turn has taken in every request already waiting');
  await turn();
  assert.is(looks.length, before + 1, 'one catch-up for the three');
  // A write acknowledged through a while that catch-up is on its way: a read arriving now must see it.
  await a.store.transact((tx) => tx.put('budgets', { ...tx.get('budgets', P)!, runtime_config_epoch: 77 }));
  const second = [b.store.sync(), b.store.sync()];
  await turn();
  assert.is(looks.length, before + 1, 'none begins while one is on its way');
  looks[before].release();
  await Promise.all(first);
  assert.is(epoch(b), start, 'the first catch-up began before the write');
  await turn();
  assert.is(looks.length, before + 2, 'the next one begins once the first is done, for both waiting');
  assert.is(looks[before + 1].seen, log.head);
  looks[before + 1].release();
  await Promise.all(second);
  assert.is(epoch(b), 77);
  assert.is(b.store.seq, log.head);
});

test.run();
