// Read endpoints 2, 5, 8, 10, 14, 15, 17, 18: shapes, filters, cursor pages, redaction, clock-driven expiry.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { bearer, DEMO } from '../helpers/demo.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const base = `/api/v3/projects/${P}`;

test('connection: observed state by name, without the webhook secret', async () => {
  const { http } = await freshMock();
  const res = await http.get(`${base}/connections/support-chat`).set(owner);
  assert.is(res.status, 200);
  assert.is(res.body.id, DEMO.connections.chatBinding);
  assert.is(res.body.connection_name, 'support-chat');
  assert.is(res.body.kind, 'chatapp');
  assert.not.ok('webhook_secret' in res.body);
  assert.not.ok(JSON.stringify(res.body).includes(DEMO.chatSecret));
});

test('connection: unknown name -> 404 connection_not_found', async () => {
  const { http } = await freshMock();
  const res = await http.get(`${base}/connections/nope`).set(owner);
  assert.is(res.status, 404);
  assert.is(res.body.detail.reason_code, 'connection_not_found');
});

test('run detail: steps, events, timing, usage, release and trace identity', async () => {
  const { http } = await freshMock();
  const res = await http.get(`${base}/runs/${DEMO.runs.waitingApproval}`).set(owner);
  assert.is(res.status, 200);
  const run = res.body;
  assert.is(run.status, 'waiting_approval');
  assert.ok(run.steps.length > 0);
  assert.ok(Array.isArray(run.events));
  assert.type(run.timing.end_to_end_ms, 'number');
  assert.type(run.input_tokens, 'number');
  assert.match(run.release_id, /^[0-9a-f-]{36}$/);
  assert.match(run.trace_id, /^[0-9a-f-]{36}$/);
  assert.not.ok('surface' in run, 'run detail has no surface');
  assert.not.ok('user_id' in run);
});

test('run detail: runtime_mode filter that does not match -> 404 run_not_found; bad value -> 422', async () => {
  const { http } = await freshMock();
  const live = await http.get(`${base}/runs/${DEMO.runs.waitingApproval}?runtime_mode=live`).set(owner);
  assert.is(live.status, 200);
  const test_ = await http.get(`${base}/runs/${DEMO.runs.waitingApproval}?runtime_mode=test`).set(owner);
  assert.is(test_.status, 404);
  assert.is(test_.body.detail.reason_code, 'run_not_found');
  const bad = await http.get(`${base}/runs/${DEMO.runs.waitingApproval}?runtime_mode=prod`).set(owner);
  assert.is(bad.status, 422);
  assert.equal(bad.body.detail[0].loc, ['query', 'runtime_mode']);
});

test('run detail: a run of another project reads as 404', async () => {
  const { http } = await freshMock();
  const res = await http.get(`/api/v3/projects/${DEMO.projects.sales}/runs/${DEMO.runs.waitingApproval}`).set(owner);
  assert.is(res.status, 404);
  assert.is(res.body.detail.reason_code, 'run_not_found');
});

async function walkUsers(http: Awaited<ReturnType<typeof freshMock>>['http'], limit: number, onPage?: (n: number) => Promise<void>) {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const q: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await http.get(`${base}/users?${q}`).set(owner);
    assert.is(res.status, 200);
    assert.ok(res.body.items.length <= limit);
    seen.push(...res.body.items.map((u: { id: string }) => u.id));
    cursor = res.body.next_cursor;
    pages++;
    if (onPage) await onPage(pages);
  } while (cursor);
  return seen;
}

test('users: newest first, default limit 50, next_cursor null on the last page', async () => {
  const { http } = await freshMock();
  const res = await http.get(`${base}/users`).set(owner);
  assert.is(res.status, 200);
  assert.is(res.body.items.length, 34);
  assert.is(res.body.next_cursor, null);
  const created = res.body.items.map((u: { created_at: string }) => u.created_at);
  assert.equal(created, [...created].sort().reverse());
});

test('users: a cursor walk sees every user exactly once', async () => {
  const { http } = await freshMock();
  const seen = await walkUsers(http, 5);
  assert.is(seen.length, 34);
  assert.is(new Set(seen).size, 34);
});

test('users: a walk stays exact while users are added during it', async () => {
  const { mock, http } = await freshMock();
  const before = new Set((await http.get(`${base}/users?limit=200`).set(owner)).body.items.map((u: { id: string }) => u.id));
  const seen = await walkUsers(http, 4, async (page) => {
    await mock.store.transact((tx) => {
      tx.put('users', {
        id: mock.deps.ids(),
        project_id: P,
        created_at: new Date(Date.parse(DEMO.now) + page * 1000).toISOString(),
        preferred_channel: 'web',
        status: 'active',
        display_name: `Added during page ${page}`,
        external_provider: null,
        external_user_id: null,
        last_active_at: null,
      });
    });
  });
  const old = seen.filter((id) => before.has(id));
  assert.is(old.length, before.size, 'every pre-existing user seen');
  assert.is(new Set(seen).size, seen.length, 'no user seen twice');
});

test('users: a tampered or foreign cursor -> 422 at ["query", "cursor"]', async () => {
  const { http } = await freshMock();
  const first = await http.get(`${base}/users?limit=2`).set(owner);
  const cursor: string = first.body.next_cursor;
  const tampered = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
  for (const c of [tampered, 'garbage', `${cursor}.x`]) {
    const res = await http.get(`${base}/users?cursor=${encodeURIComponent(c)}`).set(owner);
    assert.is(res.status, 422, c);
    assert.equal(res.body.detail[0].loc, ['query', 'cursor']);
  }
  const releasesCursor = (await http.get(`${base}/releases?limit=1`).set(owner)).body.next_cursor;
  const foreign = await http.get(`${base}/users?cursor=${encodeURIComponent(releasesCursor)}`).set(owner);
  assert.is(foreign.status, 422);
});

test('user: one app user; unknown or other-project user -> 404 user_not_found', async () => {
  const { http } = await freshMock();
  const list = await http.get(`${base}/users?limit=1`).set(owner);
  const user = list.body.items[0];
  const res = await http.get(`${base}/users/${user.id}`).set(owner);
  assert.is(res.status, 200);
  assert.equal(res.body, user);
  const missing = await http.get(`${base}/users/00000000-0000-4000-8000-000000000000`).set(owner);
  assert.is(missing.status, 404);
  assert.is(missing.body.detail.reason_code, 'user_not_found');
  const other = await http.get(`/api/v3/projects/${DEMO.projects.sales}/users/${user.id}`).set(owner);
  assert.is(other.status, 404);
  assert.is(other.body.detail.reason_code, 'user_not_found');
});

test('releases: newest generation first, with desired_state_head, document and targets', async () => {
  const { http } = await freshMock();
  const res = await http.get(`${base}/releases`).set(owner);
  assert.is(res.status, 200);
  assert.equal(
    res.body.items.map((r: { generation: number }) => r.generation),
    [4, 3, 2, 1],
  );
  const [gen4, gen3] = res.body.items;
  assert.is(gen4.id, DEMO.releases.gen4Candidate);
  assert.equal(gen4.targets, ['candidate']);
  assert.equal(gen3.targets, ['live']);
  assert.match(gen4.desired_state_head.fingerprint, /^[0-9a-f]{64}$/);
  assert.type(gen4.desired_state_head.revision_id, 'string');
  assert.is(gen4.document.schema_version, 'svc.project-release/v3');
  assert.is(gen4.document.compiler_version, '3.0.0');
  for (const key of ['delegations', 'execution_plans', 'resources']) assert.ok(Array.isArray(gen4.document[key]), key);
  assert.is(res.body.next_cursor, null);
});

test('releases: cursor pages of one walk every generation once', async () => {
  const { http } = await freshMock();
  const gens: number[] = [];
  let cursor: string | null = null;
  do {
    const res: { body: { items: { generation: number }[]; next_cursor: string | null } } = await http
      .get(`${base}/releases?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      .set(owner);
    gens.push(...res.body.items.map((r: { generation: number }) => r.generation));
    cursor = res.body.next_cursor;
  } while (cursor);
  assert.equal(gens, [4, 3, 2, 1]);
});

test('jobs: the project jobs as items, limit and status filter; bad status -> 422', async () => {
  const { http } = await freshMock();
  const all = await http.get(`${base}/jobs`).set(owner);
  assert.is(all.status, 200);
  assert.is(all.body.items.length, 4);
  for (const j of all.body.items) assert.is(j.project_id, P);
  assert.is((await http.get(`${base}/jobs?limit=2`).set(owner)).body.items.length, 2);
  const active = await http.get(`${base}/jobs?status=active`).set(owner);
  assert.ok(active.body.items.every((j: { status: string }) => j.status === 'active'));
  const sleeping = await http.get(`${base}/jobs?status=sleeping`).set(owner);
  assert.is(sleeping.status, 422);
  assert.equal(sleeping.body.detail[0].loc, ['query', 'status']);
});

test('approvals: redacted (no tool arguments); pending past expiry reads as expired', async () => {
  const { http } = await freshMock();
  const res = await http.get(`${base}/approvals`).set(owner);
  assert.is(res.status, 200);
  assert.is(res.body.items.length, 7);
  for (const a of res.body.items) assert.not.ok('tool_arguments' in a);
  const byId = Object.fromEntries(res.body.items.map((a: { approval_id: string; status: string }) => [a.approval_id, a.status]));
  assert.is(byId[DEMO.approvals.pendingWaiting], 'pending');
  assert.is(byId[DEMO.approvals.pendingPastExpiry], 'expired');
});

test('approvals: status and runtime_mode filters', async () => {
  const { http } = await freshMock();
  const pending = await http.get(`${base}/approvals?status=pending`).set(owner);
  assert.equal(
    pending.body.items.map((a: { approval_id: string }) => a.approval_id).sort(),
    [DEMO.approvals.pendingOther, DEMO.approvals.pendingWaiting].sort(),
  );
  const expired = await http.get(`${base}/approvals?status=expired`).set(owner);
  assert.equal(expired.body.items.map((a: { approval_id: string }) => a.approval_id).sort(), [DEMO.approvals.expired, DEMO.approvals.pendingPastExpiry].sort());
  const testMode = await http.get(`${base}/approvals?runtime_mode=test`).set(owner);
  assert.ok(testMode.body.items.length >= 1);
  assert.ok(testMode.body.items.every((a: { runtime_mode: string }) => a.runtime_mode === 'test'));
  const staging = await http.get(`${base}/approvals?runtime_mode=staging`).set(owner);
  assert.is(staging.status, 422);
  assert.equal(staging.body.detail[0].loc, ['query', 'runtime_mode']);
});

test('approvals: advancing the mock clock past expires_at turns pending into expired', async () => {
  const { mock, http } = await freshMock();
  const path = `${base}/approvals/${DEMO.approvals.pendingWaiting}`;
  const before = await http.get(path).set(owner);
  assert.is(before.body.status, 'pending');
  await mock.control.advanceClock(Date.parse(before.body.expires_at) - mock.deps.clock.nowMs() + 1);
  const after = await http.get(path).set(owner);
  assert.is(after.body.status, 'expired');
  const listed = await http.get(`${base}/approvals?status=pending`).set(owner);
  assert.not.ok(listed.body.items.some((a: { approval_id: string }) => a.approval_id === DEMO.approvals.pendingWaiting));
});

test('approval: one approval by approval_id; runtime_mode mismatch or unknown -> 404', async () => {
  const { http } = await freshMock();
  const res = await http.get(`${base}/approvals/${DEMO.approvals.approvedTest}`).set(owner);
  assert.is(res.status, 200);
  assert.is(res.body.approval_id, DEMO.approvals.approvedTest);
  assert.not.ok('tool_arguments' in res.body);
  const live = await http.get(`${base}/approvals/${DEMO.approvals.approvedTest}?runtime_mode=live`).set(owner);
  assert.is(live.status, 404);
  assert.is(live.body.detail.reason_code, 'approval_not_found');
  const unknown = await http.get(`${base}/approvals/apr_nothing`).set(owner);
  assert.is(unknown.status, 404);
  assert.is(unknown.body.detail.reason_code, 'approval_not_found');
});

test('archived project: still readable', async () => {
  const { http } = await freshMock();
  const res = await http.get(`/api/v3/projects/${DEMO.projects.legacy}/users`).set(owner);
  assert.is(res.status, 200);
});

test.run();
