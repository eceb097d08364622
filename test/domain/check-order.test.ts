// The documented order of checks on every management endpoint (docs/operations.md): credentials (401), path ids and
// query (422), project visibility (404) and authority (403), body (422), archived project (409), then the operation's rules.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { AS, assertError, assertInvalidAt } from '../helpers/ops.js';

const P = DEMO.projects.support;
const LEGACY = DEMO.projects.legacy;
const NO_SUCH = '00000000-0000-4000-8000-000000000000';

interface Endpoint {
  method: 'get' | 'post' | 'put' | 'delete';
  /** `{p}` is the project id; `{id}` the endpoint's second path id when it has one. */
  path: string;
  /** Name of the second path id (a UUID one) or null. */
  second: string | null;
  level: 'viewer' | 'operator' | 'owner';
  /** A body that fails validation, for endpoints that read one. */
  badBody?: object;
}

const ENDPOINTS: Endpoint[] = [
  { method: 'get', path: '/api/v3/projects/{p}/connections/support-chat', second: null, level: 'viewer' },
  { method: 'get', path: '/api/v3/projects/{p}/releases/{id}/diff', second: 'release_id', level: 'viewer' },
  { method: 'post', path: '/api/v3/projects/{p}/runs/{id}/cancel', second: 'run_id', level: 'operator', badBody: { reason: 5 } },
  { method: 'get', path: '/api/v3/projects/{p}/runs/{id}', second: 'run_id', level: 'viewer' },
  { method: 'post', path: '/api/v3/projects/{p}/runs/{id}/retry', second: 'run_id', level: 'operator', badBody: { metadata: 'x' } },
  { method: 'put', path: '/api/v3/projects/{p}/budget', second: null, level: 'operator', badBody: { project_daily_usd: -1 } },
  { method: 'get', path: '/api/v3/projects/{p}/users', second: null, level: 'viewer' },
  { method: 'post', path: '/api/v3/projects/{p}/desired-state/plan', second: null, level: 'operator', badBody: { base_revision_id: 'x' } },
  { method: 'get', path: '/api/v3/projects/{p}/releases', second: null, level: 'viewer' },
  { method: 'post', path: '/api/v3/projects/{p}/approvals/apr_r3fund49/deny', second: null, level: 'operator', badBody: { reason: [] } },
  { method: 'delete', path: '/api/v3/projects/{p}', second: null, level: 'owner', badBody: { confirmation: 1 } },
  { method: 'post', path: '/api/v3/projects/{p}/transfer', second: null, level: 'owner', badBody: { workspace_id: 'x' } },
  { method: 'get', path: '/api/v3/projects/{p}/jobs', second: null, level: 'viewer' },
  { method: 'get', path: '/api/v3/projects/{p}/approvals', second: null, level: 'viewer' },
  { method: 'get', path: '/api/v3/projects/{p}/approvals/apr_r3fund49', second: null, level: 'viewer' },
  { method: 'get', path: '/api/v3/projects/{p}/users/{id}', second: 'user_id', level: 'viewer' },
  { method: 'delete', path: '/api/v3/projects/{p}/users/{id}', second: 'user_id', level: 'owner', badBody: { confirmation: 'nope' } },
];

const url = (e: Endpoint, project: string, second = NO_SUCH) => e.path.replace('{p}', project).replace('{id}', second);
type Http = Awaited<ReturnType<typeof freshMock>>['http'];
const call = (http: Http, e: Endpoint, path: string, headers: Record<string, string>, body?: object) => {
  const req = http[e.method](path).set(headers);
  return body === undefined ? req : req.send(body);
};

test('order: no credentials beat a bad path id (401, not 422) on every management endpoint', async () => {
  const { http } = await freshMock();
  for (const e of ENDPOINTS) {
    const res = await call(http, e, url(e, 'not-a-uuid', 'not-a-uuid-either'), {}, e.badBody);
    assertError(res, 401, 'authentication_required');
    assertError(await call(http, e, url(e, 'not-a-uuid'), AS.expired, e.badBody), 401, 'token_expired');
  }
});

test('order: a bad path id beats visibility and authority (422, not 404 or 403)', async () => {
  const { http } = await freshMock();
  for (const e of ENDPOINTS) {
    // Gus has no role in Acme (404 otherwise); the viewer lacks authority on writes (403 otherwise).
    for (const who of ['globex', 'viewer'] as const) {
      assertInvalidAt(await call(http, e, url(e, 'not-a-uuid'), AS[who], e.badBody), ['path', 'project_id']);
      if (e.second) assertInvalidAt(await call(http, e, url(e, P, 'not-a-uuid'), AS[who], e.badBody), ['path', e.second]);
    }
  }
});

test('order: a bad query beats visibility (422, not 404), after credentials (401)', async () => {
  const { http } = await freshMock();
  for (const q of [
    'users?limit=0',
    'releases?limit=201',
    'jobs?status=sleeping',
    'approvals?runtime_mode=staging',
    `runs/${DEMO.runs.failedApi}?runtime_mode=prod`,
  ]) {
    const path = `/api/v3/projects/${P}/${q}`;
    assertError(await http.get(path), 401, 'authentication_required');
    const res = await http.get(path).set(AS.globex);
    assert.is(res.status, 422, `${q}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.detail[0].loc[0], 'query');
  }
  assertInvalidAt(await http.get(`/api/v3/projects/${P}/releases/${DEMO.releases.gen4Candidate}/diff?baseline_release_id=x`).set(AS.globex), [
    'query',
    'baseline_release_id',
  ]);
});

test('order: visibility (404) and authority (403) beat a bad body; nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  for (const e of ENDPOINTS.filter((x) => x.badBody)) {
    const path = url(e, P, e.second === 'run_id' ? DEMO.runs.failedBackground : e.second === 'user_id' ? '7eeec0cc-4c09-4d7b-bb90-476a4c5f5f61' : NO_SUCH);
    assertError(await call(http, e, path, AS.globex, e.badBody), 404, 'project_not_found');
    assertError(await call(http, e, path, AS.viewer, e.badBody), 403, 'insufficient_authority');
    if (e.level === 'owner') assertError(await call(http, e, path, AS.operator, e.badBody), 403, 'insufficient_authority');
    // With enough authority the body is what is refused.
    const res = await call(http, e, path, AS.owner, e.badBody);
    assert.is(res.status, 422, `${e.method} ${e.path}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.detail[0].loc[0], 'body');
  }
  assert.is(stateOf(mock), before);
});

test('order: a bad body beats an archived project (422), and archived beats the operation rules (409 project_archived)', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  for (const e of ENDPOINTS.filter((x) => x.badBody && x.path !== '/api/v3/projects/{p}')) {
    const path = url(e, LEGACY);
    const bad = await call(http, e, path, AS.owner, e.badBody);
    assert.is(bad.status, 422, `${e.method} ${e.path}: ${JSON.stringify(bad.body)}`);
  }
  // Valid bodies on the archived project: 409 project_archived, even where the run or user does not exist.
  assertError(await http.post(`/api/v3/projects/${LEGACY}/runs/${NO_SUCH}/cancel`).set(AS.owner).send({}), 409, 'project_archived');
  assertError(await http.post(`/api/v3/projects/${LEGACY}/runs/${NO_SUCH}/retry`).set(AS.owner).send({}), 409, 'project_archived');
  assertError(await http.put(`/api/v3/projects/${LEGACY}/budget`).set(AS.owner).send({}), 409, 'project_archived');
  assertError(await http.post(`/api/v3/projects/${LEGACY}/approvals/apr_none/deny`).set(AS.owner).send({}), 409, 'project_archived');
  assertError(await http.post(`/api/v3/projects/${LEGACY}/transfer`).set(AS.owner).send({ workspace_id: NO_SUCH }), 409, 'project_archived');
  assertError(
    await http.delete(`/api/v3/projects/${LEGACY}/users/${NO_SUCH}`).set(AS.owner).send({ confirmation: 'delete-application-user' }),
    409,
    'project_archived',
  );
  assert.is(stateOf(mock), before);
});

test.run();
