// Sandboxes: create, the three ways to address one, isolation of state, clock, journal, faults and coverage, and refusals.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, type TestMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const P = DEMO.projects.support;
const OWNER = bearer(DEMO.tokens.owner);
const HOUR = 60 * 60 * 1000;
const denyPath = (approval: string) => `/api/v3/projects/${P}/approvals/${approval}/deny`;
const FINGERPRINT = 'af624721d9e09cac56e4555e1905856154d21eb1c63e94450069d3fc558e9e57'; // apr_r3fund49

async function create(m: TestMock, body: object = {}) {
  const res = await m.http.post('/_mock/sandboxes').send(body);
  assert.is(res.status, 201, res.text);
  return res.body as { id: string; name: string | null; base_url: string; created_at: string; expires_at: string; ttl_ms: number };
}

const deny = (m: TestMock, prefix = '') =>
  m.http
    .post(`${prefix}${denyPath(DEMO.approvals.pendingWaiting)}`)
    .set(OWNER)
    .send({ binding_fingerprint: FINGERPRINT, reason: 'no' });
const approvalStatus = async (m: TestMock, prefix = '') =>
  (await m.http.get(`${prefix}/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}`).set(OWNER)).body.status;

test('create answers 201 with id, name, base_url (the origin plus /sandboxes/{id}), created_at, expires_at one hour on, ttl_ms', async () => {
  let now = Date.parse('2030-01-01T00:00:00Z');
  const m = await freshMock({ clock: () => now });
  const res = await m.http.post('/_mock/sandboxes').set('Host', 'localhost:4010').send({ name: 'worker 1' });
  assert.is(res.status, 201);
  const { id } = res.body;
  assert.match(id, /^[a-z0-9]{20}$/);
  assert.equal(res.body, {
    id,
    name: 'worker 1',
    base_url: `http://localhost:4010/sandboxes/${id}`,
    created_at: '2030-01-01T00:00:00.000Z',
    expires_at: '2030-01-01T01:00:00.000Z',
    ttl_ms: HOUR,
  });
  // No name: null; ids differ and are not guessable from one another (random, without a seed).
  now += 1000;
  const other = await create(m);
  assert.is(other.name, null);
  assert.is.not(other.id, id);
  assert.is(other.created_at, '2030-01-01T00:00:01.000Z');
});

test('a seeded server names its sandboxes alike run after run; an unseeded one does not', async () => {
  const ids = async (options: object) => {
    const m = await freshMock(options);
    return [(await create(m)).id, (await create(m)).id];
  };
  const a = await ids({ seed: 7 });
  assert.equal(await ids({ seed: 7 }), a);
  assert.is.not(a[0], a[1]);
  assert.not.equal(await ids({ seed: 8 }), a);
  assert.not.equal(await ids({}), await ids({}));
});

test('isolation: a deny inside one sandbox changes neither the default mock nor another sandbox', async () => {
  const m = await freshMock();
  const a = await create(m);
  const b = await create(m);
  const res = await deny(m, `/sandboxes/${a.id}`);
  assert.is(res.status, 200, res.text);
  assert.is(res.body.approval.status, 'denied');
  assert.is(await approvalStatus(m, `/sandboxes/${a.id}`), 'denied');
  assert.is(await approvalStatus(m, `/sandboxes/${b.id}`), 'pending');
  assert.is(await approvalStatus(m), 'pending');
  // And the other way: a write at the root stays there.
  assert.is((await deny(m)).status, 200);
  assert.is(await approvalStatus(m, `/sandboxes/${b.id}`), 'pending');
  assert.is(
    m.mock.control
      .sandboxControl(b.id)
      .exportState()
      .approvals.find((x) => x.approval_id === DEMO.approvals.pendingWaiting)?.status,
    'pending',
  );
});

test('the three forms reach the same sandbox: path prefix, X-Mock-Sandbox header, {id}.localhost host', async () => {
  const m = await freshMock();
  const sb = await create(m);
  await m.http.post(`/sandboxes/${sb.id}/_mock/clock`).send({ now: '2031-05-05T00:00:00Z' }).expect(200);
  const forms = [
    m.http.get('/_mock/clock').set('X-Mock-Sandbox', sb.id),
    m.http.get('/_mock/clock').set('Host', `${sb.id}.localhost:4010`),
    m.http.get(`/sandboxes/${sb.id}/_mock/clock`),
    // Two forms that agree are one.
    m.http.get(`/sandboxes/${sb.id}/_mock/clock`).set('X-Mock-Sandbox', sb.id).set('Host', `${sb.id.toUpperCase()}.localhost`),
  ];
  for (const res of await Promise.all(forms)) assert.equal([res.status, res.body.now], [200, '2031-05-05T00:00:00.000Z']);
  assert.is((await m.http.get('/_mock/clock')).body.now, DEMO.now, 'the default mock keeps its clock');
  // A v3 read, the OpenAPI document, the docs page and the inspector page are served in the sandbox too.
  const v3 = await m.http.get(`/api/v3/projects/${P}/jobs`).set(OWNER).set('X-Mock-Sandbox', sb.id);
  assert.is(v3.status, 200);
  const doc = await m.http.get(`/sandboxes/${sb.id}/openapi.json`);
  assert.equal(doc.body.servers, [{ url: `/sandboxes/${sb.id}` }], 'try-it-out goes to the sandbox');
  assert.equal((await m.http.get('/openapi.json')).body.servers, [{ url: '/' }]);
  assert.equal((await m.http.get('/openapi.json').set('X-Mock-Sandbox', sb.id)).body.servers, [{ url: '/' }], 'header and host keep the root-relative server');
  const page = await m.http.get(`/sandboxes/${sb.id}/docs`);
  assert.ok(page.text.includes(`href="/sandboxes/${sb.id}/docs/swagger-ui.css"`));
  const init = await m.http.get(`/sandboxes/${sb.id}/docs/swagger-initializer.js`);
  assert.ok(init.text.includes(`url: '/sandboxes/${sb.id}/openapi.json'`));
  const ui = await m.http.get('/_mock/ui').set('Host', `${sb.id}.localhost`);
  assert.is(ui.status, 200);
  assert.match(ui.text, /<div id="app">/);
  // The journal of the sandbox saw its own v3 request (its path without the prefix), the default mock's saw none.
  const journal = (await m.http.get(`/sandboxes/${sb.id}/_mock/requests?summary=true`)).body.items;
  assert.equal(
    journal.map((e: { method: string; path: string }) => `${e.method} ${e.path}`),
    [`GET /api/v3/projects/${P}/jobs`],
  );
  assert.equal((await m.http.get('/_mock/requests?summary=true')).body.items, []);
});

test('an unknown sandbox is 404 sandbox_not_found in every form; two forms that disagree are 400 sandbox_conflict', async () => {
  const m = await freshMock();
  const sb = await create(m);
  const notFound = {
    detail: { reason_code: 'sandbox_not_found', message: 'No such sandbox: never created, deleted, or expired.', affected_resource: 'sandbox:nosuch' },
  };
  for (const req of [
    m.http.get('/sandboxes/nosuch/_mock/clock'),
    m.http.get('/_mock/clock').set('X-Mock-Sandbox', 'nosuch'),
    m.http.get('/api/v3/projects').set('Host', 'nosuch.localhost'),
  ]) {
    const res = await req;
    assert.equal([res.status, res.body], [404, notFound]);
  }
  const pairs = [
    m.http.get(`/sandboxes/${sb.id}/_mock/clock`).set('X-Mock-Sandbox', 'other'),
    m.http.get(`/sandboxes/${sb.id}/_mock/clock`).set('Host', 'other.localhost'),
    m.http.get('/_mock/clock').set('X-Mock-Sandbox', sb.id).set('Host', 'other.localhost'),
  ];
  for (const req of pairs) {
    const res = await req;
    assert.is(res.status, 400);
    assert.is(res.body.detail.reason_code, 'sandbox_conflict');
  }
  // Plain localhost and deeper names are the default mock.
  assert.is((await m.http.get('/_mock/clock').set('Host', 'localhost:4010')).status, 200);
  assert.is((await m.http.get('/_mock/clock').set('Host', `a.${sb.id}.localhost`)).status, 200);
});

test('clock, faults, journal and coverage belong to their own sandbox', async () => {
  const m = await freshMock();
  const a = await create(m);
  const b = await create(m);
  const A = `/sandboxes/${a.id}`;
  const B = `/sandboxes/${b.id}`;
  await m.http
    .post(`${A}/_mock/clock`)
    .send({ advance_ms: 2 * 24 * HOUR })
    .expect(200);
  await m.http.post(`${A}/_mock/faults`).send({ method: 'GET', path: '/api/v3/projects/*/jobs', status: 503, times: 1 }).expect(200);
  assert.is((await m.http.get(`${A}/api/v3/projects/${P}/jobs`).set(OWNER)).status, 503);
  assert.is((await m.http.get(`${B}/api/v3/projects/${P}/jobs`).set(OWNER)).status, 200);
  assert.is((await m.http.get(`/api/v3/projects/${P}/jobs`).set(OWNER)).status, 200);
  // The pending approval expired in A's time only.
  assert.is(await approvalStatus(m, A), 'expired');
  assert.is(await approvalStatus(m, B), 'pending');
  assert.equal((await m.http.get(`${B}/_mock/faults`)).body.items, []);
  const missing = '00000000-0000-4000-8000-000000000000';
  assert.is((await m.http.get(`${A}/api/v3/projects/${missing}/jobs`).set(OWNER)).status, 404);
  const paths = async (prefix: string) => (await m.http.get(`${prefix}/_mock/requests?summary=true`)).body.items.map((e: { status: number }) => e.status);
  assert.equal(await paths(A), [503, 200, 404]);
  assert.equal(await paths(B), [200, 200]);
  assert.equal(await paths(''), [200]);
  const listJobs = async (prefix: string) => {
    const o = (await m.http.get(`${prefix}/_mock/coverage`)).body.operations.find((x: { operation: string }) => x.operation === 'listJobs');
    return [o.requests, o.exercised.statuses, o.exercised.reason_codes];
  };
  // An injected fault's answer is not counted; the 404 is A's alone.
  assert.equal(await listJobs(A), [1, [404], ['project_not_found']]);
  assert.equal(await listJobs(B), [1, [200], []]);
  assert.equal(await listJobs(''), [1, [200], []]);
  // Reset inside A clears A's journal, faults and clock only.
  await m.http.post(`${A}/_mock/reset`).expect(200);
  assert.equal(await paths(A), []);
  assert.equal(await paths(B), [200, 200]);
  assert.is((await m.http.get(`${A}/_mock/clock`)).body.now, DEMO.now);
});

test.run();
