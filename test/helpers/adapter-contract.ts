// The adapter contract every storage adapter passes (memory, the JSON file, a plain lowdb adapter, PostgreSQL): persistence,
// group commit, readers that see only what is stored, and rollback with 503 when storage refuses.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { StorageUnavailable } from '../../src/storage/store.js';
import { persistsChangeSets, type StorageAdapter } from '../../src/storage/adapters.js';
import { DEMO } from './demo.js';

/** Wraps an adapter: counts what it is handed, can hold each write until released, and can refuse writes. */
function instrumented(inner: StorageAdapter) {
  const ctl = { groups: 0, sets: 0, hold: null as Promise<void> | null, refuse: null as Error | null };
  const gate = async () => {
    if (ctl.hold) await ctl.hold;
    if (ctl.refuse) throw ctl.refuse;
  };
  const adapter: StorageAdapter = {
    read: () => inner.read(),
    write: async (data) => {
      ctl.groups++;
      await gate();
      await inner.write(data);
    },
  };
  if (persistsChangeSets(inner)) {
    adapter.appendChangeSets = async (group, committed) => {
      ctl.groups++;
      ctl.sets += group.length;
      await gate();
      await inner.appendChangeSets(group, committed);
    };
    adapter.close = (committed) => inner.close?.(committed) ?? Promise.resolve();
    // Shared storage keeps its catch-up and watch (the wrapper only counts and gates appends).
    if (inner.changesSince) adapter.changesSince = (seq) => inner.changesSince!(seq);
    if (inner.watch) adapter.watch = (onChange) => inner.watch!(onChange);
    if (inner.readResetState) adapter.readResetState = () => inner.readResetState!();
    if (inner.writeResetState) adapter.writeResetState = (state) => inner.writeResetState!(state);
  } else {
    const write = adapter.write;
    adapter.write = (data) => {
      ctl.sets++;
      return write(data);
    };
  }
  return { adapter, ctl };
}

const SALES = DEMO.projects.sales;
const newWorkspace = (name: string) => ({ id: crypto.randomUUID(), name });

/** Registers and runs the contract suite for one kind of adapter; `make` gives a new, empty one each time. */
export function adapterContract(name: string, make: () => StorageAdapter): void {
  const contract = suite(`adapter contract: ${name}`);

  contract('read() of a new store is null', async () => {
    assert.is(await make().read(), null);
  });

  contract('createApp seeds an empty store from the fixtures and stores it; a second app reads the same state', async () => {
    const adapter = make();
    const first = await createApp({ storage: adapter, fixtures: demoFixture() });
    const stored = await adapter.read();
    assert.ok(stored);
    assert.is(stored!.state.projects.length, (demoFixture() as { projects: unknown[] }).projects.length);
    const second = await createApp({ storage: adapter, fixtures: {} });
    assert.equal(second.store.toData(), first.store.toData());
  });

  contract('writes survive a restart: a new app on the same storage has the same state and seq', async () => {
    const adapter = make();
    const mock = await createApp({ storage: adapter, fixtures: demoFixture() });
    await mock.store.transact((tx) => tx.delete('projects', SALES));
    await mock.store.transact((tx) => tx.put('workspaces', newWorkspace('later')));
    await mock.control.advanceClock(60_000);
    const again = await createApp({ storage: adapter, fixtures: demoFixture() });
    assert.equal(JSON.parse(JSON.stringify(again.store.toData())), JSON.parse(JSON.stringify(mock.store.toData())));
    assert.is(again.store.seq, mock.store.seq);
    assert.is(again.store.get('projects', SALES), undefined);
    assert.equal(again.store.clock, { frozen_at: '2026-11-20T12:01:00.000Z', offset_ms: 0 });
  });

  contract('an existing store is loaded as is, not reseeded; reset: true reseeds', async () => {
    const adapter = make();
    const first = await createApp({ storage: adapter, fixtures: demoFixture() });
    await first.store.transact((tx) => tx.delete('projects', SALES));
    const second = await createApp({ storage: adapter, fixtures: demoFixture() });
    assert.is(second.store.get('projects', SALES), undefined);
    const third = await createApp({ storage: adapter, fixtures: demoFixture(), reset: true });
    assert.ok(third.store.get('projects', SALES));
    const fourth = await createApp({ storage: adapter, fixtures: {} });
    assert.ok(fourth.store.get('projects', SALES), 'the reseeded state is what is stored now');
  });

  contract('a transaction that throws changes nothing, in memory or in storage', async () => {
    const adapter = make();
    const mock = await createApp({ storage: adapter, fixtures: demoFixture() });
    const before = JSON.stringify(mock.store.toData());
    const err = await mock.store
      .transact((tx) => {
        tx.delete('projects', SALES);
        throw new Error('refused half-way');
      })
      .catch((e: Error) => e);
    assert.is((err as Error).message, 'refused half-way');
    assert.is(JSON.stringify(mock.store.toData()), before);
    assert.is(JSON.stringify((await createApp({ storage: adapter, fixtures: {} })).store.toData()), before);
  });

  contract('concurrent transactions share writes (group commit), and each resolves once stored', async () => {
    const { adapter, ctl } = instrumented(make());
    const mock = await createApp({ storage: adapter, fixtures: demoFixture() });
    ctl.groups = 0;
    ctl.sets = 0;
    const made = Array.from({ length: 50 }, (_, i) => newWorkspace(`w${i}`));
    await Promise.all(made.map((w) => mock.store.transact((tx) => tx.put('workspaces', w))));
    assert.ok(ctl.groups <= 2, `50 transactions took ${ctl.groups} writes`);
    if (persistsChangeSets(make())) assert.is(ctl.sets, 50);
    const stored = (await createApp({ storage: adapter, fixtures: {} })).store;
    for (const w of made) assert.equal(stored.get('workspaces', w.id), w);
  });

  contract('readers see a change only once storage acknowledged it; transactions build on it meanwhile', async () => {
    const { adapter, ctl } = instrumented(make());
    const mock = await createApp({ storage: adapter, fixtures: demoFixture() });
    let release!: () => void;
    ctl.hold = new Promise((r) => (release = r));
    const a = newWorkspace('a');
    const writing = mock.store.transact((tx) => tx.put('workspaces', a));
    await new Promise((r) => setTimeout(r, 20));
    assert.is(mock.store.get('workspaces', a.id), undefined, 'a reader saw a change that is not stored yet');
    // A second transaction sees the first one's write (it is ordered after it).
    const second = mock.store.transact((tx) => tx.get('workspaces', a.id)?.name ?? 'missing');
    ctl.hold = null;
    release();
    await writing;
    assert.equal(mock.store.get('workspaces', a.id), a);
    assert.is(await second, 'a');
  });

  contract('storage that refuses a group: every transaction of it is rolled back with 503 storage_unavailable; writes recover', async () => {
    const { adapter, ctl } = instrumented(make());
    const mock = await createApp({ storage: adapter, fixtures: demoFixture() });
    const before = JSON.stringify(mock.store.toData());
    let release!: () => void;
    ctl.hold = new Promise((r) => (release = r));
    ctl.refuse = Object.assign(new Error('ENOSPC: no space left on device, write /secret/path/db.json.log'), { code: 'ENOSPC' });
    const made = Array.from({ length: 5 }, (_, i) => newWorkspace(`doomed${i}`));
    const results = made.map((w) => mock.store.transact((tx) => tx.put('workspaces', w)).catch((e: unknown) => e));
    // A transaction that builds on the doomed ones fails with them.
    const dependent = mock.store.transact((tx) => tx.put('workspaces', { ...tx.get('workspaces', made[0].id)!, name: 'renamed' })).catch((e: unknown) => e);
    release();
    for (const r of [...(await Promise.all(results)), await dependent]) {
      // Storage's own error (the HTTP layer answers it as 503 storage_unavailable); the disk's reason is only its cause.
      assert.instance(r, StorageUnavailable);
      assert.is((r as StorageUnavailable).reason_code, 'storage_unavailable');
      assert.is((r as StorageUnavailable).status, 503);
      assert.not.match((r as Error).message, /secret|\/|ENOSPC/);
      assert.is(((r as Error).cause as Error).message, ctl.refuse?.message ?? 'ENOSPC: no space left on device, write /secret/path/db.json.log');
    }
    assert.is(JSON.stringify(mock.store.toData()), before);
    // Nothing of the refused group is visible to a later transaction either.
    assert.is(await mock.store.transact((tx) => tx.get('workspaces', made[0].id)), undefined);
    ctl.refuse = null;
    const ok = newWorkspace('after recovery');
    await mock.store.transact((tx) => tx.put('workspaces', ok));
    const reopened = (await createApp({ storage: adapter, fixtures: {} })).store;
    assert.equal(reopened.get('workspaces', ok.id), ok);
    for (const w of made) assert.is(reopened.get('workspaces', w.id), undefined);
  });

  contract('snapshot and restore: a restore undoes later writes, in memory and in storage', async () => {
    const adapter = make();
    const mock = await createApp({ storage: adapter, fixtures: demoFixture() });
    const snap = mock.control.snapshot();
    const before = JSON.stringify(mock.store.toData());
    await mock.store.transact((tx) => tx.delete('projects', SALES));
    await mock.store.transact((tx) => tx.put('workspaces', newWorkspace('temp')));
    await mock.control.advanceClock(5_000);
    await mock.control.restore(snap);
    assert.is(JSON.stringify(mock.store.toData()), before);
    assert.is(JSON.stringify((await createApp({ storage: adapter, fixtures: {} })).store.toData()), before);
    await mock.store.transact((tx) => tx.delete('projects', SALES));
    await mock.control.restore(snap); // the snapshot stays reusable
    assert.ok(mock.store.get('projects', SALES));
  });

  contract('instances share nothing', async () => {
    const a = await createApp({ storage: make(), fixtures: demoFixture() });
    const b = await createApp({ storage: make(), fixtures: demoFixture() });
    await a.store.transact((tx) => tx.delete('projects', SALES));
    assert.ok(b.store.get('projects', SALES));
  });

  contract('a transaction reads its own writes (get and filter), deletes included, before anything is committed', async () => {
    const mock = await createApp({ storage: make(), fixtures: demoFixture() });
    const sales = mock.store.get('projects', SALES)!;
    await mock.store.transact((tx) => {
      tx.put('projects', { ...sales, name: 'Renamed' });
      tx.put('projects', { ...sales, id: '12345678-1234-4123-8123-123456789012', slug: 'new-one', name: 'New One' });
      tx.delete('projects', DEMO.projects.legacy);
      const names = tx.filter('projects', () => true).map((p) => p.name);
      assert.ok(names.includes('Renamed'));
      assert.not.ok(names.includes('Sales Assistant'));
      assert.is(tx.filter('projects', (p) => p.slug === 'new-one').length, 1);
      assert.is(tx.filter('projects', (p) => p.id === DEMO.projects.legacy).length, 0);
      assert.is(tx.get('projects', DEMO.projects.legacy), undefined);
      assert.is(tx.get('projects', SALES)!.name, 'Renamed');
      // Not committed yet: the store still reads the old state.
      assert.is(mock.store.get('projects', SALES)!.name, 'Sales Assistant');
    });
    assert.is(mock.store.get('projects', SALES)!.name, 'Renamed');
    assert.is(mock.store.get('projects', DEMO.projects.legacy), undefined);
  });

  contract.run();
}
