// What sandboxes share and what stays their own: one route handler per server answering each request from the mock it
// addresses, and record maps shared by every store of one base until a store writes a collection (copy-on-write).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemoryAdapter } from '../../src/storage/adapters.js';
import { Store } from '../../src/storage/store.js';
import { COLLECTION_NAMES, type StateData } from '../../src/schemas/state.js';
import { demoFixture, stateFromFixture } from '../../src/fixtures.js';
import { V3_DECLARATIONS } from '../../src/operations/index.js';
import { freshMock, type TestMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const P = DEMO.projects.support;
const OWNER = bearer(DEMO.tokens.owner);

async function create(m: TestMock, body: object = {}): Promise<string> {
  const res = await m.http.post('/_mock/sandboxes').send(body);
  assert.is(res.status, 201, res.text);
  return res.body.id as string;
}

/** A state whose record arrays count how often they are read whole (a store building its maps reads each once). */
function countingState(): { state: StateData; reads: () => number } {
  const frozen = stateFromFixture(demoFixture());
  const state = { ...frozen } as Record<string, unknown>;
  let reads = 0;
  for (const c of COLLECTION_NAMES) {
    const rows = [...(frozen[c] as unknown[])];
    state[c] = rows;
    Object.defineProperty(rows, Symbol.iterator, {
      value: function () {
        reads++;
        return Array.prototype[Symbol.iterator].call(this);
      },
    });
  }
  return { state: state as unknown as StateData, reads: () => reads };
}

const budgetOf = (s: Store) => s.get('budgets', P);

test('stores on a shared base read its records once, however many start on it; a store of its own reads them again', () => {
  const { state, reads } = countingState();
  const first = new Store(new MemoryAdapter(), state, 0, { sharedBase: true });
  const once = reads();
  assert.is(once, COLLECTION_NAMES.length);
  const more = Array.from({ length: 5 }, () => new Store(new MemoryAdapter(), state, 0, { sharedBase: true }));
  assert.is(reads(), once);
  for (const s of more) for (const c of COLLECTION_NAMES) assert.is(s.count(c), first.count(c), c);
  new Store(new MemoryAdapter(), state, 0);
  assert.is(reads(), once * 2);
});

test('a write to a shared base copies that collection for the writer only: others, later stores and the arrays keep the base', async () => {
  const state = stateFromFixture(demoFixture());
  const rows = JSON.stringify(state);
  const a = new Store(new MemoryAdapter(), state, 0, { sharedBase: true });
  const b = new Store(new MemoryAdapter(), state, 0, { sharedBase: true });
  const base = budgetOf(a)!;
  const users = a.count('users');
  const user = a.where('users', 'project_id', P)[0];
  assert.ok(base && user);
  await a.transact((tx) => {
    tx.put('budgets', { ...base, credit_balance_usd: 4321 });
    tx.delete('users', user.id);
  });
  await a.transact((tx) => tx.put('budgets', { ...tx.get('budgets', P)!, credit_balance_usd: 99 }));
  assert.is(budgetOf(a)!.credit_balance_usd, 99);
  assert.is(a.count('users'), users - 1);
  assert.not.ok(a.where('users', 'project_id', P).some((u) => u.id === user.id));
  // The other store, a store started afterwards and the document itself are as they were.
  const c = new Store(new MemoryAdapter(), state, 0, { sharedBase: true });
  for (const s of [b, c]) {
    assert.is(budgetOf(s), base);
    assert.is(s.count('users'), users);
    assert.ok(s.where('users', 'project_id', P).some((u) => u.id === user.id));
  }
  assert.is(JSON.stringify(state), rows);
  // A write in the second store leaves the first one's copy alone.
  await b.transact((tx) => tx.put('budgets', { ...base, credit_balance_usd: 7 }));
  assert.is(budgetOf(a)!.credit_balance_usd, 99);
  assert.is(budgetOf(c), base);
});

test('lookups by field on a shared base agree with a scan in every store, before and after one of them writes', async () => {
  const state = stateFromFixture(demoFixture());
  const stores = [0, 1, 2].map(() => new Store(new MemoryAdapter(), state, 0, { sharedBase: true }));
  const scan = (s: Store, project: string) =>
    [...s.values('users')]
      .filter((u) => u.project_id === project)
      .map((u) => u.id)
      .sort();
  const found = (s: Store, project: string) =>
    s
      .where('users', 'project_id', project)
      .map((u) => u.id)
      .sort();
  const projects = [...new Set(state.users.map((u) => u.project_id))];
  const other = DEMO.projects.sales;
  for (const s of stores) for (const p of [...projects, other]) assert.equal(found(s, p), scan(s, p), p);
  // Store 0 moves a user to another project: its own index follows, the others' shared one stays as the base is.
  const moved = found(stores[0], P)[0];
  await stores[0].transact((tx) => tx.put('users', { ...tx.get('users', moved)!, project_id: other }));
  assert.ok(found(stores[0], other).includes(moved));
  assert.not.ok(found(stores[0], P).includes(moved));
  for (const s of stores.slice(1)) {
    assert.ok(found(s, P).includes(moved));
    assert.not.ok(found(s, other).includes(moved));
  }
  for (const s of stores) for (const p of [...projects, other]) assert.equal(found(s, p), scan(s, p), p);
  // Its next write keeps its own index current (the map is its own now).
  await stores[0].transact((tx) => tx.put('users', { ...tx.get('users', moved)!, project_id: P }));
  assert.ok(found(stores[0], P).includes(moved));
  assert.not.ok(found(stores[0], other).includes(moved));
  // A lookup store 0 had not made before its write is built from its own records.
  assert.equal(
    stores[0]
      .where('users', 'status', 'active')
      .map((u) => u.id)
      .sort(),
    [...stores[0].values('users')]
      .filter((u) => u.status === 'active')
      .map((u) => u.id)
      .sort(),
  );
});

test('each operation handler is built once per server, not per sandbox, and answers every sandbox from its own state', async () => {
  const op = V3_DECLARATIONS.find((o) => o.operationId === 'getRun')!;
  const original = op.handler;
  let built = 0;
  let calls = 0;
  op.handler = (readBody) => {
    built++;
    const handle = original(readBody);
    return (req) => {
      calls++;
      return handle(req);
    };
  };
  try {
    const m = await freshMock();
    assert.is(built, 1);
    const ids = [await create(m), await create(m), await create(m)];
    assert.is(built, 1);
    const path = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;
    const cancel = await m.http.post(`/sandboxes/${ids[1]}${path}/cancel`).set(OWNER).send({});
    assert.is(cancel.status, 200, cancel.text);
    const statuses = [];
    for (const prefix of ['', ...ids.map((id) => `/sandboxes/${id}`)]) {
      const res = await m.http.get(`${prefix}${path}`).set(OWNER);
      assert.is(res.status, 200, res.text);
      statuses.push(res.body.status);
    }
    assert.equal(statuses, ['waiting_approval', 'waiting_approval', 'cancelled', 'waiting_approval']);
    assert.is(calls, 4);
    assert.is(built, 1);
  } finally {
    op.handler = original;
  }
});

test('requests to several mocks at once are each answered from, and journaled by, the mock they address', async () => {
  const m = await freshMock();
  const ids = [await create(m), await create(m), await create(m)];
  const prefixes = ['', ...ids.map((id) => `/sandboxes/${id}`)];
  // Budgets differ per mock; every request is in flight with the others (writes and reads interleave).
  const sends = prefixes.flatMap((prefix, i) =>
    Array.from({ length: 4 }, (_, k) =>
      m.http
        .put(`${prefix}/api/v3/projects/${P}/budget`)
        .set(OWNER)
        .send({ project_daily_usd: 100 * (i + 1) + k }),
    ),
  );
  const answers = await Promise.all(sends);
  for (const res of answers) assert.is(res.status, 200, res.text);
  for (const [i, prefix] of prefixes.entries()) {
    const journal = await m.http.get(`${prefix}/_mock/requests`);
    assert.is(journal.status, 200, journal.text);
    const items = journal.body.items as { path: string; response: { body: { limits: { project_daily_usd: number } } } }[];
    assert.is(items.length, 4, prefix);
    const sent = items.map((e) => e.response.body.limits.project_daily_usd).sort((x, y) => x - y);
    assert.equal(
      sent,
      [0, 1, 2, 3].map((k) => 100 * (i + 1) + k),
    );
    for (const e of items) assert.is(e.path, `/api/v3/projects/${P}/budget`);
  }
});

test('sandboxes started from one snapshot share its records and stay apart from it, from each other and from the root', async () => {
  const m = await freshMock();
  const user = stateFromFixture(demoFixture()).users.find((u) => u.project_id === P && u.status !== 'deleted')!.id;
  const userPath = `/api/v3/projects/${P}/users/${user}`;
  assert.is((await m.http.post('/_mock/snapshots').send({ name: 'base' })).status, 201);
  const a = await create(m, { snapshot: 'base' });
  const b = await create(m, { snapshot: 'base' });
  const del = await m.http.delete(`/sandboxes/${a}${userPath}`).set(OWNER).send({ confirmation: 'delete-application-user' });
  assert.is(del.status, 200, del.text);
  const status = async (prefix: string) => (await m.http.get(`${prefix}${userPath}`).set(OWNER)).status;
  assert.is(await status(`/sandboxes/${a}`), 404);
  assert.is(await status(`/sandboxes/${b}`), 200);
  assert.is(await status(''), 200);
  const c = await create(m, { snapshot: 'base' });
  assert.is(await status(`/sandboxes/${c}`), 200);
  const restored = await m.http.post('/_mock/snapshots/base/restore');
  assert.is(restored.status, 200, restored.text);
  assert.is(await status(''), 200);
});

test.run();
