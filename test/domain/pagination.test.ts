// Pages and list filters (endpoints 8, 10, 14, 15; docs/api.md#pages): limit bounds and default, next_cursor null on the last page even
// when it is full, numeric release order, (created_at, id) user order with ties, and each filter value's exact set.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, type TestMock } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { AS, assertInvalidAt } from '../helpers/ops.js';
import { demoFixture } from '../../src/fixtures.js';

const P = DEMO.projects.support;
const base = `/api/v3/projects/${P}`;
type Fixture = { users: { id: string; project_id: string; status?: string }[]; jobs: { id: string; project_id: string; status: string; created_at: string }[] };
const FIXTURE = demoFixture() as unknown as Fixture;
const SUPPORT_USERS = FIXTURE.users.filter((u) => u.project_id === P && u.status !== 'deleted').length;

/** Every page of a list walked with `limit`; each page's items and next_cursor. */
async function walk(http: TestMock['http'], list: string, limit: number) {
  const pages: { ids: string[]; next: string | null }[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: { items: { id: string }[]; next_cursor: string | null } } = await http
      .get(`${base}/${list}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      .set(AS.owner);
    assert.is(res.status, 200, JSON.stringify(res.body));
    pages.push({ ids: res.body.items.map((x) => x.id), next: res.body.next_cursor });
    cursor = res.body.next_cursor;
    assert.ok(pages.length <= 100, 'the walk ends');
  } while (cursor);
  return pages;
}

test('pages: a last page that is exactly full has next_cursor null (users and releases)', async () => {
  const { http } = await freshMock();
  assert.is(SUPPORT_USERS, 34);
  // 34 users: limit 2 and 17 divide it, 34 is one full page.
  for (const limit of [2, 17, 34]) {
    const pages = await walk(http, 'users', limit);
    assert.is(pages.length, 34 / limit, `limit ${limit}: no trailing empty page`);
    assert.ok(pages.every((p) => p.ids.length === limit));
    assert.is(pages.at(-1)!.next, null);
    assert.ok(pages.slice(0, -1).every((p) => typeof p.next === 'string'));
  }
  for (const limit of [1, 2, 4]) {
    const pages = await walk(http, 'releases', limit);
    assert.is(pages.length, 4 / limit);
    assert.is(pages.at(-1)!.next, null);
  }
  // One more than the last item: still the last page.
  assert.is((await walk(http, 'users', 35)).length, 1);
});

test('pages: limit defaults to 50 and is bounded 1..200 on every list (users, releases, jobs, approvals)', async () => {
  const { mock, http } = await freshMock();
  // 230 users: more than the largest page.
  mock.store.apply((tx) => {
    for (let i = 0; i < 196; i++) {
      tx.put('users', {
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        project_id: P,
        created_at: new Date(Date.parse('2020-01-01T00:00:00.000Z') + i * 1000).toISOString(),
        preferred_channel: 'web',
        status: 'active',
        display_name: `user ${i}`,
        external_provider: null,
        external_user_id: null,
        last_active_at: null,
      });
    }
  });
  const def = await http.get(`${base}/users`).set(AS.owner);
  assert.is(def.body.items.length, 50);
  assert.type(def.body.next_cursor, 'string');
  const max = await http.get(`${base}/users?limit=200`).set(AS.owner);
  assert.is(max.body.items.length, 200);
  assert.type(max.body.next_cursor, 'string');
  assert.is((await http.get(`${base}/users?limit=1`).set(AS.owner)).body.items.length, 1);
  for (const list of ['users', 'releases', 'jobs', 'approvals']) {
    for (const bad of ['0', '201', '-1', '2.5', 'ten']) {
      assertInvalidAt(await http.get(`${base}/${list}?limit=${bad}`).set(AS.owner), ['query', 'limit']);
    }
    assert.is((await http.get(`${base}/${list}?limit=200`).set(AS.owner)).status, 200);
  }
  const jobs = await http.get(`${base}/jobs?limit=1`).set(AS.owner);
  assert.is(jobs.body.items.length, 1);
  const approvals = await http.get(`${base}/approvals?limit=3`).set(AS.owner);
  assert.is(approvals.body.items.length, 3);
});

test('releases: ordered by generation as a number (11 and 10 before 9 ... 1), on one page and across pages', async () => {
  const { mock, http } = await freshMock();
  for (let i = 0; i < 7; i++) await mock.control.compileRelease(P); // generations 5..11
  const res = await http.get(`${base}/releases`).set(AS.owner);
  assert.equal(
    res.body.items.map((r: { generation: number }) => r.generation),
    [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
  );
  const gens: number[] = [];
  let cursor: string | null = null;
  do {
    const page: { body: { items: { generation: number }[]; next_cursor: string | null } } = await http
      .get(`${base}/releases?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      .set(AS.owner);
    gens.push(...page.body.items.map((r) => r.generation));
    cursor = page.body.next_cursor;
  } while (cursor);
  assert.equal(gens, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
});

test('users: newest created_at first, ties broken by id (descending), and a walk through ties sees each once', async () => {
  const { mock, http } = await freshMock();
  const at = '2030-01-01T00:00:00.000Z'; // newer than every demo user
  const ids = ['aaaaaaaa-0000-4000-8000-000000000001', 'ffffffff-0000-4000-8000-000000000003', 'cccccccc-0000-4000-8000-000000000002'];
  mock.store.apply((tx) => {
    for (const id of ids) {
      tx.put('users', {
        id,
        project_id: P,
        created_at: at,
        preferred_channel: 'web',
        status: 'active',
        display_name: id,
        external_provider: null,
        external_user_id: null,
        last_active_at: null,
      });
    }
  });
  const first = await http.get(`${base}/users?limit=4`).set(AS.owner);
  assert.equal(
    first.body.items.slice(0, 3).map((u: { id: string }) => u.id),
    [...ids].sort().reverse(),
  );
  assert.ok(first.body.items[3].created_at < at);
  const seen = (await walk(http, 'users', 1)).flatMap((p) => p.ids);
  assert.equal(seen.slice(0, 3), [...ids].sort().reverse());
  assert.is(seen.length, SUPPORT_USERS + 3);
  assert.is(new Set(seen).size, seen.length);
});

test('jobs: each status filter answers exactly the jobs with that status', async () => {
  const { http } = await freshMock();
  const mine = FIXTURE.jobs.filter((j) => j.project_id === P);
  for (const status of ['active', 'paused', 'completed']) {
    const expected = mine
      .filter((j) => j.status === status)
      .map((j) => j.id)
      .sort();
    assert.ok(expected.length > 0, `the demo has a ${status} job`);
    const res = await http.get(`${base}/jobs?status=${status}`).set(AS.owner);
    assert.is(res.status, 200);
    assert.equal(res.body.items.map((j: { id: string }) => j.id).sort(), expected, status);
  }
  const all = await http.get(`${base}/jobs`).set(AS.owner);
  assert.equal(
    all.body.items.map((j: { id: string }) => j.id),
    [...mine].sort((a, b) => (a.created_at < b.created_at ? 1 : -1)).map((j) => j.id),
    'newest first',
  );
  const limited = await http.get(`${base}/jobs?status=active&limit=1`).set(AS.owner);
  assert.equal(
    limited.body.items.map((j: { id: string }) => j.id),
    [all.body.items.find((j: { status: string }) => j.status === 'active').id],
  );
});

test('approvals: each status filter answers exactly its approvals (a pending one past expiry filters as expired)', async () => {
  const { http } = await freshMock();
  const expected: Record<string, string[]> = {
    pending: [DEMO.approvals.pendingWaiting, DEMO.approvals.pendingOther],
    approved: [DEMO.approvals.approvedTest],
    denied: [DEMO.approvals.denied],
    expired: [DEMO.approvals.expired, DEMO.approvals.pendingPastExpiry],
    cancelled: [DEMO.approvals.cancelled],
  };
  for (const [status, ids] of Object.entries(expected)) {
    const res = await http.get(`${base}/approvals?status=${status}`).set(AS.owner);
    assert.equal(res.body.items.map((a: { approval_id: string }) => a.approval_id).sort(), [...ids].sort(), status);
    assert.ok(res.body.items.every((a: { status: string }) => a.status === status));
  }
  const all = (await http.get(`${base}/approvals`).set(AS.owner)).body.items as { approval_id: string; runtime_mode: string; requested_at: string }[];
  assert.equal(
    all.map((a) => a.requested_at),
    all
      .map((a) => a.requested_at)
      .sort()
      .reverse(),
    'newest requested_at first',
  );
  for (const mode of ['live', 'test']) {
    const res = await http.get(`${base}/approvals?runtime_mode=${mode}`).set(AS.owner);
    const want = all.filter((a) => a.runtime_mode === mode).map((a) => a.approval_id);
    assert.ok(want.length > 0);
    assert.equal(
      res.body.items.map((a: { approval_id: string }) => a.approval_id),
      want,
      mode,
    );
  }
  const both = await http.get(`${base}/approvals?runtime_mode=test&status=approved`).set(AS.owner);
  assert.equal(
    both.body.items.map((a: { approval_id: string }) => a.approval_id),
    [DEMO.approvals.approvedTest],
  );
  assert.equal((await http.get(`${base}/approvals?runtime_mode=live&status=approved`).set(AS.owner)).body.items, []);
});

test('pages: a cursor whose position was edited but whose checksum was kept is 422 (tamper-evident)', async () => {
  const { http } = await freshMock();
  const first = await http.get(`${base}/users?limit=2`).set(AS.owner);
  const [payload, sum] = (first.body.next_cursor as string).split('.');
  const key = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
  assert.is(key.length, 3, 'version, created_at, id');
  // Move the position back to the start of time: a valid-looking key that would skip nothing.
  const forged = Buffer.from(JSON.stringify([key[0], '1970-01-01T00:00:00.000Z', key[2]])).toString('base64url');
  const res = await http.get(`${base}/users?limit=2&cursor=${encodeURIComponent(`${forged}.${sum}`)}`).set(AS.owner);
  assertInvalidAt(res, ['query', 'cursor']);
  const releasesCursor = (await http.get(`${base}/releases?limit=1`).set(AS.owner)).body.next_cursor as string;
  const [rp, rs] = releasesCursor.split('.');
  const rkey = JSON.parse(Buffer.from(rp, 'base64url').toString('utf8')) as unknown[];
  const rforged = Buffer.from(JSON.stringify([rkey[0], 99])).toString('base64url');
  assertInvalidAt(await http.get(`${base}/releases?cursor=${encodeURIComponent(`${rforged}.${rs}`)}`).set(AS.owner), ['query', 'cursor']);
});

/** FastAPI's value_error item for a refused cursor, computed here from the cursor sent. */
const cursorRefused = (cursor: string) => ({
  detail: [{ type: 'value_error', loc: ['query', 'cursor'], msg: 'Value error, Invalid cursor', input: cursor, ctx: { error: {} } }],
});

test("pages: a cursor from another project's list is 422 (users and releases, v3 and /_mock), and the state is unchanged", async () => {
  const { http } = await freshMock();
  const S = DEMO.projects.sales;
  const users = (await http.get(`${base}/users?limit=2`).set(AS.owner)).body.next_cursor as string;
  const releases = (await http.get(`${base}/releases?limit=1`).set(AS.owner)).body.next_cursor as string;
  assert.type(users, 'string');
  assert.type(releases, 'string');
  // The same cursor is good on the list that issued it.
  assert.is((await http.get(`${base}/users?limit=2&cursor=${encodeURIComponent(users)}`).set(AS.owner)).status, 200);
  assert.is((await http.get(`${base}/releases?limit=1&cursor=${encodeURIComponent(releases)}`).set(AS.owner)).status, 200);
  for (const [path, cursor] of [
    [`/api/v3/projects/${S}/users?limit=2`, users],
    [`/api/v3/projects/${S}/releases?limit=1`, releases],
    [`/_mock/projects/${S}/users?limit=2`, users],
    [`/_mock/projects/${S}/releases?limit=1`, releases],
    // Another list of the same project: a users cursor on the control runs list.
    [`/_mock/projects/${P}/runs?limit=2`, users],
  ] as const) {
    const res = await http.get(`${path}&cursor=${encodeURIComponent(cursor)}`).set(AS.owner);
    assert.is(res.status, 422, path);
    assert.equal(res.body, cursorRefused(cursor), path);
  }
});

test.run();
