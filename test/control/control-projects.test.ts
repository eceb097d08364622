// The read-only project views of the control surface (GET /_mock/projects/...): bodies computed from the demo fixture's
// own JSON, keyset pages walked to the end, status filters, 404s and 422s, and the in-process methods they share.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

type Json = Record<string, any>;
const RAW: Json = JSON.parse(readFileSync(new URL('../../fixtures/demo.json', import.meta.url), 'utf8'));
const P = DEMO.projects.support;
const ofProject = (c: string, pid = P): Json[] => (RAW[c] as Json[]).filter((r) => r.project_id === pid);
/** Newest first by created_at, then id (descending), as the v3 lists order. */
const newestFirst = (xs: Json[], key = 'created_at') => [...xs].sort((a, b) => (a[key] === b[key] ? (a.id < b.id ? 1 : -1) : a[key] < b[key] ? 1 : -1));
const count = (xs: Json[], field = 'status') => xs.reduce((m: Record<string, number>, x) => ((m[x[field]] = (m[x[field]] ?? 0) + 1), m), {});

/** Every item of a paged route, following next_cursor with a small limit. */
async function walk(http: Awaited<ReturnType<typeof freshMock>>['http'], path: string, limit: number): Promise<Json[]> {
  const out: Json[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const res = await http.get(path).query({ limit, ...(cursor ? { cursor } : {}) });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.items.length <= limit);
    out.push(...res.body.items);
    cursor = res.body.next_cursor;
    if (cursor === null) return out;
  }
  throw new Error('no last page');
}

test('GET /_mock/projects: every project (archived too), newest first, in pages', async () => {
  const { http } = await freshMock();
  const expected = newestFirst(RAW.projects).map((p) => p.id);
  const all = await walk(http, '/_mock/projects', 2);
  assert.equal(
    all.map((p) => p.id),
    expected,
  );
  const legacy = all.find((p) => p.id === DEMO.projects.legacy)!;
  assert.is(legacy.status, 'archived');
  // The v3 project view: no head_revision_id, no budget.
  assert.equal(Object.keys(legacy).sort(), ['created_at', 'id', 'name', 'slug', 'status', 'updated_at', 'workspace_id']);
  const first = await http.get('/_mock/projects');
  assert.is(first.body.items.length, RAW.projects.length);
  assert.is(first.body.next_cursor, null);
});

test('GET /_mock/projects/{id}: the project at a glance, counts computed from the fixture', async () => {
  const { http } = await freshMock();
  const res = await http.get(`/_mock/projects/${P}`);
  assert.is(res.status, 200);
  const runs = count(ofProject('runs'));
  assert.equal(res.body.runs, {
    queued: runs.queued ?? 0,
    running: runs.running ?? 0,
    waiting_approval: runs.waiting_approval ?? 0,
    succeeded: runs.succeeded ?? 0,
    failed: runs.failed ?? 0,
    cancelled: runs.cancelled ?? 0,
  });
  // Approvals by the status read now: a pending one past expiry (by the demo clock) counts as expired.
  const now = Date.parse(DEMO.now);
  const effective = ofProject('approvals').map((a) => ({ status: a.status === 'pending' && Date.parse(a.expires_at) <= now ? 'expired' : a.status }));
  const a = count(effective);
  assert.equal(res.body.approvals, {
    pending: a.pending ?? 0,
    approved: a.approved ?? 0,
    denied: a.denied ?? 0,
    expired: a.expired ?? 0,
    cancelled: a.cancelled ?? 0,
  });
  assert.equal(res.body.approvals, { pending: 2, approved: 1, denied: 1, expired: 2, cancelled: 1 });
  const j = count(ofProject('jobs'));
  assert.equal(res.body.jobs, { active: j.active ?? 0, paused: j.paused ?? 0, completed: j.completed ?? 0 });
  assert.is(res.body.users, ofProject('users').filter((u) => (u.status ?? 'active') !== 'deleted').length);
  assert.is(res.body.releases, ofProject('releases').length);
  const target = (name: string) => (RAW.targets as Json[]).find((t) => t.project_id === P && t.name === name)?.release_id ?? null;
  assert.equal(res.body.targets, { live: target('live'), candidate: target('candidate') });
  assert.equal(res.body.targets, { live: DEMO.releases.gen3Live, candidate: DEMO.releases.gen4Candidate });
  const project = RAW.projects.find((p: Json) => p.id === P);
  assert.equal(res.body.budget, { project_id: P, ...project.budget });
  assert.equal(res.body.project, {
    id: P,
    name: project.name,
    slug: project.slug,
    status: project.status,
    workspace_id: project.workspace_id,
    created_at: project.created_at,
    updated_at: project.updated_at,
  });
});

test('GET /_mock/projects/{id}: an unset budget reads as the default; the clock moves approvals to expired', async () => {
  const { mock, http } = await freshMock();
  const sandbox = (await http.get(`/_mock/projects/${DEMO.projects.sandbox}`)).body;
  const rawSandbox = RAW.projects.find((p: Json) => p.id === DEMO.projects.sandbox);
  if (rawSandbox.budget === undefined) {
    assert.equal(sandbox.budget, {
      project_id: DEMO.projects.sandbox,
      funding_mode: 'free_sandbox',
      credit_balance_usd: 0,
      current_daily_spend_usd: 0,
      current_monthly_spend_usd: 0,
      runtime_config_epoch: 0,
      limits: { project_daily_usd: null, project_monthly_usd: null, user_daily_usd: null, user_monthly_usd: null },
    });
  } else assert.equal(sandbox.budget, { project_id: DEMO.projects.sandbox, ...rawSandbox.budget });
  assert.equal(sandbox.runs, { queued: 0, running: 0, waiting_approval: 0, succeeded: 0, failed: 0, cancelled: 0 });
  assert.equal(sandbox.targets, { live: null, candidate: null });

  await mock.control.advanceClock(24 * 60 * 60 * 1000);
  const after = (await http.get(`/_mock/projects/${P}`)).body;
  // apr_r3fund49 expires on the 21st at 11:40, apr_inv0c0py on the 22nd.
  assert.equal(after.approvals, { pending: 1, approved: 1, denied: 1, expired: 3, cancelled: 1 });
});

test('GET /_mock/projects/{id}/runs: newest first in pages, by status, each the v3 run view', async () => {
  const { http } = await freshMock();
  const expected = newestFirst(ofProject('runs')).map((r) => r.id);
  assert.equal(
    (await walk(http, `/_mock/projects/${P}/runs`, 5)).map((r) => r.id),
    expected,
  );
  const failed = await walk(http, `/_mock/projects/${P}/runs?status=failed`, 3);
  assert.equal(
    failed.map((r) => r.id),
    newestFirst(ofProject('runs').filter((r) => r.status === 'failed')).map((r) => r.id),
  );
  assert.ok(failed.length >= 2);
  const one = failed.find((r) => r.id === DEMO.runs.failedApi)!;
  const raw = RAW.runs.find((r: Json) => r.id === DEMO.runs.failedApi);
  // The list view: no steps, events, result or user.
  for (const k of ['steps', 'events', 'result', 'user_id']) assert.not.ok(k in one, k);
  assert.equal(
    { id: one.id, status: one.status, surface: one.surface, created_at: one.created_at, cost_usd: one.cost_usd },
    { id: raw.id, status: 'failed', surface: raw.surface, created_at: raw.created_at, cost_usd: raw.cost_usd },
  );
  const none = await http.get(`/_mock/projects/${DEMO.projects.sandbox}/runs`);
  assert.equal(none.body, { items: [], next_cursor: null });
});

test('GET /_mock/projects/{id}/runs/{run_id}: the run in full with its approvals', async () => {
  const { http } = await freshMock();
  const res = await http.get(`/_mock/projects/${P}/runs/${DEMO.runs.waitingApproval}`);
  assert.is(res.status, 200);
  const raw = RAW.runs.find((r: Json) => r.id === DEMO.runs.waitingApproval);
  assert.is(res.body.status, 'waiting_approval');
  assert.is(res.body.surface, raw.surface);
  assert.is(res.body.user_id, raw.user_id ?? null);
  assert.equal(
    res.body.steps.map((s: Json) => s.id),
    raw.steps.map((s: Json) => s.id),
  );
  assert.equal(res.body.events, raw.events);
  const approvals = ofProject('approvals')
    .filter((a) => a.run_id === DEMO.runs.waitingApproval)
    .map((a) => a.approval_id);
  assert.equal(
    res.body.approvals.map((a: Json) => a.approval_id),
    approvals,
  );
  assert.equal(approvals, [DEMO.approvals.pendingWaiting]);
  assert.is(res.body.approvals[0].status, 'pending');
  assert.not.ok('tool_arguments' in res.body.approvals[0], 'the approval view never shows tool arguments');
});

test('GET /_mock/projects/{id}/approvals: by the status read now, in pages', async () => {
  const { mock, http } = await freshMock();
  const all = await walk(http, `/_mock/projects/${P}/approvals`, 3);
  assert.equal(
    all.map((a) => a.approval_id),
    newestFirst(ofProject('approvals'), 'requested_at').map((a) => a.approval_id),
  );
  const expired = (await http.get(`/_mock/projects/${P}/approvals?status=expired`)).body.items.map((a: Json) => a.approval_id);
  assert.equal(expired.sort(), [DEMO.approvals.expired, DEMO.approvals.pendingPastExpiry].sort());
  await mock.control.advanceClock(24 * 60 * 60 * 1000);
  const pending = (await http.get(`/_mock/projects/${P}/approvals?status=pending`)).body.items.map((a: Json) => a.approval_id);
  assert.equal(pending, [DEMO.approvals.pendingOther]);
  const nowExpired = (await http.get(`/_mock/projects/${P}/approvals?status=expired`)).body.items;
  assert.ok(nowExpired.some((a: Json) => a.approval_id === DEMO.approvals.pendingWaiting && a.status === 'expired'));
});

test('GET /_mock/projects/{id}/users, jobs and releases: pages in the v3 order and views', async () => {
  const { mock, http } = await freshMock();
  const users = await walk(http, `/_mock/projects/${P}/users`, 7);
  assert.equal(
    users.map((u) => u.id),
    newestFirst(ofProject('users').filter((u) => (u.status ?? 'active') !== 'deleted')).map((u) => u.id),
  );
  assert.is(users.length, 34);
  // Same items as endpoint 8 shows, without v3 credentials.
  const v3 = await http.get(`/api/v3/projects/${P}/users?limit=7`).set(bearer(DEMO.tokens.owner));
  assert.equal(v3.body.items, users.slice(0, 7));

  const jobs = await walk(http, `/_mock/projects/${P}/jobs`, 3);
  assert.equal(
    jobs.map((j) => j.id),
    newestFirst(ofProject('jobs')).map((j) => j.id),
  );
  const paused = (await http.get(`/_mock/projects/${P}/jobs?status=paused`)).body.items;
  assert.equal(
    paused.map((j: Json) => j.id),
    ofProject('jobs')
      .filter((j) => j.status === 'paused')
      .map((j) => j.id),
  );

  const releases = await walk(http, `/_mock/projects/${P}/releases`, 1);
  assert.equal(
    releases.map((r) => r.generation),
    ofProject('releases')
      .map((r) => r.generation)
      .sort((a, b) => b - a),
  );
  const live = releases.find((r) => r.id === DEMO.releases.gen3Live)!;
  assert.equal(live.targets, ['live']);
  assert.equal(releases.find((r) => r.id === DEMO.releases.gen1)!.targets, []);
  // In process: the same answers.
  assert.equal(mock.control.releases(P, { limit: 1 }).items[0].id, releases[0].id);
  assert.equal(mock.control.users(P, { limit: 7 }).items, users.slice(0, 7));
});

test('project views: unknown project 404, unknown or foreign run 404, bad query 422; nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const missing = '00000000-0000-4000-8000-000000000000';
  for (const path of ['', '/runs', '/approvals', '/users', '/jobs', '/releases', `/runs/${DEMO.runs.failedApi}`]) {
    const res = await http.get(`/_mock/projects/${missing}${path}`);
    assert.is(res.status, 404, path);
    assert.is(res.body.detail.reason_code, 'project_not_found', path);
  }
  // A run of another project reads as missing.
  const foreign = await http.get(`/_mock/projects/${DEMO.projects.sales}/runs/${DEMO.runs.failedApi}`);
  assert.equal([foreign.status, foreign.body.detail.reason_code, foreign.body.detail.affected_resource], [404, 'run_not_found', `run:${DEMO.runs.failedApi}`]);

  const bad = await http.get(`/_mock/projects/not-a-uuid/runs?status=done&limit=0&cursor=forged`);
  assert.is(bad.status, 422);
  assert.equal(
    bad.body.detail.map((i: Json) => [i.loc.join('.'), i.type]),
    [
      ['path.project_id', 'uuid_parsing'],
      ['query.limit', 'greater_than_equal'],
      ['query.status', 'enum'],
    ],
  );
  const cursor = await http.get(`/_mock/projects/${P}/users?cursor=forged`);
  assert.equal([cursor.status, cursor.body.detail[0].loc], [422, ['query', 'cursor']]);
  const big = await http.get(`/_mock/projects?limit=201`);
  assert.equal([big.status, big.body.detail[0].loc, big.body.detail[0].type], [422, ['query', 'limit'], 'less_than_equal']);
  try {
    mock.control.runs(P, { limit: 0 });
    assert.unreachable('runs accepted limit 0');
  } catch (err) {
    assert.equal((err as { items: Json[] }).items[0].loc, ['query', 'limit']);
  }
  assert.is(stateOf(mock), before);
});

test.run();
