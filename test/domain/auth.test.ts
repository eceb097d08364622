// Authentication and authority on management endpoints: 401 shapes, admin key, roles, scopes, visibility, auth off.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { bearer, DEMO } from '../helpers/demo.js';
import { demoFixture } from '../../src/fixtures.js';

const P = DEMO.projects.support;
const runPath = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;
const userPath = `/api/v3/projects/${P}/users`;
const connectionPath = `/api/v3/projects/${P}/connections/support-chat`;

const unauthenticated: [string, Record<string, string>, string, string][] = [
  ['no credentials', {}, 'authentication_required', 'authenticate'],
  ['a non-bearer scheme', { Authorization: 'Basic dXNlcjpwYXNz' }, 'authentication_required', 'authenticate'],
  ['an unknown token', bearer('no-such-token'), 'token_invalid', 'authenticate'],
  ['an expired token', bearer(DEMO.tokens.expired), 'token_expired', 'refresh_token'],
  ['an admin key where none is accepted', { 'X-Admin-Key': DEMO.adminKey }, 'authentication_required', 'authenticate'],
];

for (const [what, headers, reason, next] of unauthenticated) {
  test(`401: ${what} -> ${reason}, next_action ${next}, WWW-Authenticate: Bearer`, async () => {
    const { http } = await freshMock();
    const res = await http.get(runPath).set(headers);
    assert.is(res.status, 401);
    assert.is(res.body.detail.reason_code, reason);
    assert.is(res.body.detail.next_action, next);
    assert.is(res.headers['www-authenticate'], 'Bearer');
  });
}

test('admin key: accepted on endpoints 2 and 18, grants every authority', async () => {
  const { http } = await freshMock();
  const users = await http.get(userPath).set(bearer(DEMO.tokens.owner));
  const userId = users.body.items[0].id;
  const conn = await http.get(connectionPath).set({ 'X-Admin-Key': DEMO.adminKey });
  assert.is(conn.status, 200);
  assert.is(conn.body.connection_name, 'support-chat');
  const user = await http.get(`${userPath}/${userId}`).set({ 'X-Admin-Key': DEMO.adminKey });
  assert.is(user.status, 200);
  assert.equal(user.body, users.body.items[0]);
  const globex = await http.get(`/api/v3/projects/${DEMO.projects.globex}/connections/none`).set({ 'X-Admin-Key': DEMO.adminKey });
  assert.is(globex.status, 404);
  assert.is(globex.body.detail.reason_code, 'connection_not_found');
});

test('admin key: a wrong key is 401 admin_key_invalid even with a valid bearer token', async () => {
  const { http } = await freshMock();
  const res = await http.get(connectionPath).set({ 'X-Admin-Key': 'wrong', ...bearer(DEMO.tokens.owner) });
  assert.is(res.status, 401);
  assert.is(res.body.detail.reason_code, 'admin_key_invalid');
  assert.ok(res.body.detail.next_action);
  assert.is(res.headers['www-authenticate'], 'Bearer');
});

test('admin key: the adminKey option overrides the fixture setting', async () => {
  const { http } = await freshMock({ adminKey: 'from-options' });
  const ok = await http.get(connectionPath).set({ 'X-Admin-Key': 'from-options' });
  assert.is(ok.status, 200);
  assert.is(ok.body.connection_name, 'support-chat');
  const old = await http.get(connectionPath).set({ 'X-Admin-Key': DEMO.adminKey });
  assert.is(old.status, 401);
  assert.is(old.body.detail.reason_code, 'admin_key_invalid');
});

test('visibility: a project in a workspace where the principal has no role is 404, not 403', async () => {
  const { http } = await freshMock();
  const res = await http.get(runPath).set(bearer(DEMO.tokens.globex));
  assert.is(res.status, 404);
  assert.is(res.body.detail.reason_code, 'project_not_found');
  const own = await http.get(`/api/v3/projects/${DEMO.projects.globex}/jobs`).set(bearer(DEMO.tokens.globex));
  assert.is(own.status, 200);
});

test('roles: viewer, operator and owner all read; a read-only scope still reads', async () => {
  const { http } = await freshMock();
  for (const token of [DEMO.tokens.viewer, DEMO.tokens.operator, DEMO.tokens.owner, DEMO.tokens.readonlyOwner]) {
    const res = await http.get(runPath).set(bearer(token));
    assert.is(res.status, 200, token);
  }
});

test('auth off: every request is an owner, no credentials needed', async () => {
  const { http } = await freshMock({ auth: 'off' });
  assert.is((await http.get(runPath)).status, 200);
  assert.is((await http.get(`/api/v3/projects/${DEMO.projects.globex}/jobs`)).status, 200);
});

test('unknown project: 404 project_not_found for an authenticated caller', async () => {
  const { http } = await freshMock();
  const res = await http.get(`/api/v3/projects/00000000-0000-4000-8000-000000000000/jobs`).set(bearer(DEMO.tokens.owner));
  assert.is(res.status, 404);
  assert.is(res.body.detail.reason_code, 'project_not_found');
});

test('scopes: a token without any project scope still sees its projects (403, not 404); an unknown scope counts for nothing', async () => {
  const fixture = structuredClone(demoFixture()) as { access_tokens: Record<string, unknown>[] };
  fixture.access_tokens.push(
    { token: 'no-scope-token', principal_id: DEMO.principals.owner, scopes: [], expires_at: '2099-01-01T00:00:00.000Z' },
    { token: 'odd-scope-token', principal_id: DEMO.principals.owner, scopes: ['projects:everything'], expires_at: '2099-01-01T00:00:00.000Z' },
  );
  const { http } = await freshMock({ fixtures: fixture });
  for (const token of ['no-scope-token', 'odd-scope-token']) {
    const res = await http.get(runPath).set(bearer(token));
    assert.is(res.status, 403, token);
    assert.is(res.body.detail.reason_code, 'insufficient_authority');
    // Another workspace's project stays hidden.
    const other = await http.get(`/api/v3/projects/${DEMO.projects.globex}/jobs`).set(bearer(token));
    assert.is(other.status, 404);
    assert.is(other.body.detail.reason_code, 'project_not_found');
  }
});

test('bearer: the scheme name is case-insensitive (RFC 7235), the token is not', async () => {
  const { http } = await freshMock();
  for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
    const res = await http.get(runPath).set('Authorization', `${scheme} ${DEMO.tokens.viewer}`);
    assert.is(res.status, 200, scheme);
    assert.is(res.body.id, DEMO.runs.failedApi);
  }
  const res = await http.get(runPath).set('Authorization', `Bearer ${DEMO.tokens.viewer.toUpperCase()}`);
  assert.is(res.status, 401);
  assert.is(res.body.detail.reason_code, 'token_invalid');
});

test('admin key: with none configured, no X-Admin-Key value (empty included) is accepted', async () => {
  const fixture = structuredClone(demoFixture()) as { settings: Record<string, unknown> };
  fixture.settings = { broker_secret: DEMO.brokerSecret };
  const { http } = await freshMock({ fixtures: fixture });
  for (const key of ['', DEMO.adminKey, 'null']) {
    const res = await http.get(connectionPath).set({ 'X-Admin-Key': key });
    assert.is(res.status, 401, JSON.stringify(key));
    assert.is(res.body.detail.reason_code, 'admin_key_invalid');
  }
});

test.run();
