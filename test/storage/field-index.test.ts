// tx.where (the store's field indexes) finds exactly what tx.filter finds, whatever is committed, pending in storage,
// written by the transaction itself, deleted, moved to another value, or replaced as a whole state.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { Store } from '../../src/storage/store.js';
import { stateFromFixture, demoFixture } from '../../src/fixtures.js';
import type { ChangeSetAdapter } from '../../src/storage/adapters.js';
import type { RecordOf } from '../../src/schemas/state.js';
import { DEMO } from '../helpers/demo.js';
import { propertyRuns } from '../runner/config.mjs';

type Approval = RecordOf<'approvals'>;
const RUNS = ['run-a', 'run-b', 'run-c'];

/** Storage that holds each group until the test lets it go, so transactions build on writes still pending. */
function heldStorage() {
  const waiting: (() => void)[] = [];
  let open = false;
  const adapter: ChangeSetAdapter = {
    read: async () => null,
    write: async () => {},
    appendChangeSets: () => (open ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve))),
  };
  return {
    adapter,
    /** Lets the groups held now go (the next group is held again). */
    release: () => waiting.splice(0).forEach((r) => r()),
    /** Lets everything go from now on. */
    open: () => ((open = true), waiting.splice(0).forEach((r) => r())),
    get held() {
      return waiting.length;
    },
  };
}

const template = (): Approval => structuredClone(stateFromFixture(demoFixture()).approvals[0]) as Approval;
const approval = (n: number, runId: string | null, status: Approval['status'] = 'pending'): Approval => ({
  ...template(),
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  approval_id: `appr_${n}`,
  run_id: runId,
  status,
});
const sortedIds = (list: { id: string }[]) => list.map((a) => a.id).sort();

/** What `where` finds must be what a scan finds, for every run id (and for null). */
function agree(store: Store) {
  store.apply((tx) => {
    for (const runId of [...RUNS, null]) {
      const scan = tx.filter('approvals', (a) => (a.run_id ?? null) === runId && a.status === 'pending');
      const indexed = tx.where('approvals', 'run_id', runId, (a) => a.status === 'pending');
      assert.equal(sortedIds(indexed), sortedIds(scan), `run ${runId}`);
      assert.is(new Set(indexed.map((a) => a.id)).size, indexed.length, 'no record twice');
    }
  });
}

test('where: committed, pending in storage, own writes, deletes, moves between values', async () => {
  const held = heldStorage();
  const store = new Store(held.adapter, stateFromFixture(demoFixture()), 1);
  const base = DEMO.runs.waitingApproval;
  // Committed: the demo's approvals (one waits on a demo run).
  const committed = store.apply((tx) => tx.where('approvals', 'run_id', base));
  assert.ok(committed.length >= 1);
  assert.ok(committed.every((a) => a.run_id === base));
  // Pending in storage: a new approval on run-a, one moved from run-a to run-b, one deleted.
  store.apply((tx) => {
    tx.put('approvals', approval(1, 'run-a'));
    tx.put('approvals', approval(2, 'run-a'));
    tx.put('approvals', approval(3, 'run-c'));
  });
  store.apply((tx) => tx.put('approvals', approval(2, 'run-b')));
  store.apply((tx) => tx.delete('approvals', approval(3, 'run-c').id));
  assert.ok(held.held > 0, 'writes are still pending');
  store.apply((tx) => {
    assert.equal(sortedIds(tx.where('approvals', 'run_id', 'run-a')), [approval(1, 'run-a').id]);
    assert.equal(sortedIds(tx.where('approvals', 'run_id', 'run-b')), [approval(2, 'run-b').id]);
    assert.equal(tx.where('approvals', 'run_id', 'run-c'), []);
    // The transaction's own writes count too: a new one, and one moved away.
    tx.put('approvals', approval(4, 'run-c'));
    tx.put('approvals', approval(1, 'run-c'));
    assert.equal(tx.where('approvals', 'run_id', 'run-a'), []);
    assert.equal(sortedIds(tx.where('approvals', 'run_id', 'run-c')), sortedIds([approval(1, ''), approval(4, '')]));
    tx.delete('approvals', approval(4, 'run-c').id);
    assert.equal(sortedIds(tx.where('approvals', 'run_id', 'run-c')), [approval(1, '').id]);
    tx.delete('approvals', approval(1, 'run-c').id); // leave the transaction empty-handed for the next checks
    tx.put('approvals', approval(1, 'run-a'));
  });
  agree(store);
  held.open();
  await store.flush();
  // Now committed: the index follows every change (added, moved, deleted).
  store.apply((tx) => {
    assert.equal(sortedIds(tx.where('approvals', 'run_id', 'run-a')), [approval(1, 'run-a').id]);
    assert.equal(sortedIds(tx.where('approvals', 'run_id', 'run-b')), [approval(2, 'run-b').id]);
    assert.equal(tx.where('approvals', 'run_id', 'run-c'), []);
  });
  agree(store);
});

test('where: a whole state replaced (records in a new order, as a restore can) is indexed afresh', async () => {
  const store = new Store({ read: async () => null, write: async () => {}, appendChangeSets: async () => {} }, stateFromFixture(demoFixture()), 1);
  await store.transact((tx) => tx.put('approvals', approval(1, 'run-a')));
  assert.is(store.apply((tx) => tx.where('approvals', 'run_id', 'run-a')).length, 1);
  // A copy: stateFromFixture answers one shared state per fixture object, which must stay as it was for later tests.
  const demo = stateFromFixture(demoFixture());
  const next = { ...demo, approvals: [approval(9, 'run-b'), ...[...demo.approvals].reverse()] }; // records that move: stored as a whole new state
  await store.replace(next);
  assert.equal(
    store.apply((tx) => tx.where('approvals', 'run_id', 'run-a')),
    [],
  );
  assert.equal(sortedIds(store.apply((tx) => tx.where('approvals', 'run_id', 'run-b'))), [approval(9, 'run-b').id]);
  agree(store);
});

test('property: where agrees with a scan after any sequence of puts, moves and deletes, pending or stored', async () => {
  const op = fc.record({
    n: fc.integer({ min: 1, max: 8 }),
    run: fc.constantFrom(...RUNS, null),
    del: fc.boolean(),
    status: fc.constantFrom('pending', 'approved'),
    release: fc.boolean(),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
      const held = heldStorage();
      const store = new Store(held.adapter, stateFromFixture(demoFixture()), 1);
      for (const o of ops) {
        store.apply((tx) =>
          o.del ? tx.delete('approvals', approval(o.n, null).id) : tx.put('approvals', approval(o.n, o.run, o.status as Approval['status'])),
        );
        if (o.release) held.release();
        agree(store);
      }
      held.open();
      await store.flush();
      agree(store);
    }),
    { numRuns: propertyRuns() },
  );
});

test('where: stores on two copy-on-write bases each answer from their own base, and one field name in two collections keeps two indexes', async () => {
  const none: ChangeSetAdapter = { read: async () => null, write: async () => {}, appendChangeSets: async () => {} };
  const demo = stateFromFixture(demoFixture());
  const baseA = { ...demo, approvals: [...demo.approvals, approval(1, 'run-a')] };
  const baseB = { ...demo, approvals: [...demo.approvals, approval(2, 'run-a'), approval(3, 'run-b')] };
  // Expected by a scan of the base's own records, not through any store.
  const expected = (base: typeof demo, runId: string) =>
    base.approvals
      .filter((a) => a.run_id === runId)
      .map((a) => a.id)
      .sort();
  const stores = [
    { name: 'a', base: baseA, store: new Store(none, baseA, 1, { sharedBase: true }) },
    { name: 'b', base: baseB, store: new Store(none, baseB, 1, { sharedBase: true }) },
    // A second store on base a: it shares a's records (and their index), which must still answer for a.
    { name: 'a again', base: baseA, store: new Store(none, baseA, 1, { sharedBase: true }) },
  ];
  for (const { name, base, store } of stores)
    for (const runId of ['run-a', 'run-b'])
      assert.equal(sortedIds(store.apply((tx) => tx.where('approvals', 'run_id', runId))), expected(base, runId), `${name}: ${runId}`);
  assert.equal(expected(baseB, 'run-a'), [approval(2, '').id]);

  // `project_id` is a field of approvals and of runs: a lookup in one collection never answers from the other's index.
  const own = new Store(none, stateFromFixture(demoFixture()), 1);
  const P = DEMO.projects.support;
  const approvalsOfP = demo.approvals
    .filter((a) => a.project_id === P)
    .map((a) => a.id)
    .sort();
  const runsOfP = demo.runs
    .filter((r) => r.project_id === P)
    .map((r) => r.id)
    .sort();
  assert.ok(approvalsOfP.length > 0 && runsOfP.length > 0);
  assert.equal(sortedIds(own.apply((tx) => tx.where('approvals', 'project_id', P))), approvalsOfP);
  assert.equal(sortedIds(own.apply((tx) => tx.where('runs', 'project_id', P))), runsOfP);
});

test.run();
