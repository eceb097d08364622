// Behaviour of every /_mock control route: health, reset, fixtures, state, journal, clock, faults, runs, codes; control: false hides them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { freshMock, stateOf } from './helpers/app.js';
import { DEMO, bearer } from './helpers/demo.js';
import { demoFixture } from '../src/fixtures.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);

test('health: answers ok and the mock clock', async () => {
  const { http } = await freshMock();
  const res = await http.get('/_mock/health');
  assert.is(res.status, 200);
  assert.equal(res.body, { status: 'ok', now: DEMO.now });
});

test('reset: returns to the loaded fixtures and clears journal, faults and coverage', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`).set(owner).send({});
  await http.post('/_mock/faults').send({ method: 'GET', path: '/api/**', status: 503 });
  assert.is.not(stateOf(mock), before);
  const res = await http.post('/_mock/reset');
  assert.is(res.status, 200);
  assert.is(res.body.reset, true);
  assert.is(stateOf(mock), before);
  assert.equal(mock.control.requests(), []);
  assert.equal(mock.control.faults(), []);
  assert.is(mock.control.coverage().summary.operations.exercised, 0);
});

test('fixtures: loading a document replaces state and becomes what reset returns to', async () => {
  const { mock, http } = await freshMock();
  const fixture = { now: '2030-01-01T00:00:00.000Z', workspaces: [{ id: DEMO.workspaces.acmeSupport, name: 'Only' }] };
  const res = await http.post('/_mock/fixtures').send(fixture);
  assert.is(res.status, 200);
  assert.is(res.body.counts.workspaces, 1);
  assert.is(res.body.counts.projects, 0);
  assert.is(mock.control.now(), '2030-01-01T00:00:00.000Z');
  await mock.control.advanceClock(1000);
  await http.post('/_mock/reset');
  assert.is(mock.control.now(), '2030-01-01T00:00:00.000Z');
  assert.is(mock.store.count('projects'), 0);
});

test('fixtures: a bad field is 422 with its loc, and nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const bad = structuredClone(demoFixture()) as { runs: { status: string }[] };
  bad.runs[3].status = 'exploded';
  const res = await http.post('/_mock/fixtures').send(bad);
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['body', 'runs', 3, 'status']);
  assert.is(stateOf(mock), before);
});

test('fixtures: a dangling reference is 422 located at the field', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const res = await http
    .post('/_mock/fixtures')
    .send({ projects: [{ id: P, name: 'x', slug: 'x', status: 'active', workspace_id: DEMO.workspaces.globex, created_at: DEMO.now, updated_at: DEMO.now }] });
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['body', 'projects', 0, 'workspace_id']);
  assert.is(stateOf(mock), before);
});

test('fixtures: no body is 422 missing', async () => {
  const { http } = await freshMock();
  const res = await http.post('/_mock/fixtures');
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['body']);
});

test('state: GET seals every secret, PUT of the same document restores them', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const res = await http.get('/_mock/state');
  assert.is(res.status, 200);
  const text = JSON.stringify(res.body);
  for (const secret of [DEMO.adminKey, DEMO.brokerSecret, DEMO.chatSecret, 'sk_live_demo_9f8e7d6c5b4a', 'pm_1Q2w3E4r5T6y'])
    assert.not.ok(text.includes(secret), secret);
  assert.ok(res.body.settings.admin_key.$sealed);
  assert.ok(res.body.approvals[0].tool_arguments.$sealed);
  await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`).set(owner).send({});
  const put = await http.put('/_mock/state').send(res.body);
  assert.is(put.status, 200);
  assert.is(put.body.restored, true);
  assert.is(stateOf(mock), before);
});

test('state: PUT accepts clear values (hand-written state)', async () => {
  const { mock, http } = await freshMock();
  const data = mock.control.exportState();
  const res = await http.put('/_mock/state').send({ ...data, settings: { admin_key: 'new-key', broker_secret: null } });
  assert.is(res.status, 200);
  assert.is(mock.store.settings.admin_key, 'new-key');
});

test('state: PUT with a bad record is 422 and nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const data = (await http.get('/_mock/state')).body;
  data.runs[0].status = 'nope';
  const res = await http.put('/_mock/state').send(data);
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['body', 'runs', 0, 'status']);
  assert.is(stateOf(mock), before);
});

test('state: a value sealed by another instance is 422 at its loc', async () => {
  const a = await freshMock();
  const b = await freshMock();
  const before = stateOf(b.mock);
  const data = (await a.http.get('/_mock/state')).body;
  const res = await b.http.put('/_mock/state').send(data);
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['body', 'settings', 'admin_key']);
  assert.is(stateOf(b.mock), before);
});

test('state: GET excludes the journal', async () => {
  const { http } = await freshMock();
  await http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`).set(owner);
  const res = await http.get('/_mock/state');
  assert.not.ok('journal' in res.body);
  assert.not.ok('requests' in res.body);
});

test('requests: GET lists the journal, DELETE clears it', async () => {
  const { http } = await freshMock();
  await http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`).set(owner);
  await http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  let res = await http.get('/_mock/requests');
  assert.is(res.status, 200);
  assert.is(res.body.items.length, 2);
  res = await http.get('/_mock/requests?path=/jobs');
  assert.is(res.body.items.length, 1);
  res = await http.delete('/_mock/requests');
  assert.equal(res.body, { cleared: 2 });
  res = await http.get('/_mock/requests');
  assert.equal(res.body.items, []);
});

test('requests: a malformed status filter is 422', async () => {
  const { http } = await freshMock();
  const res = await http.get('/_mock/requests?status=abc');
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['query', 'status']);
});

test('clock: {now} freezes, {advance_ms} advances, GET reads it', async () => {
  const { http } = await freshMock();
  let res = await http.post('/_mock/clock').send({ now: '2027-03-01T08:00:00Z' });
  assert.is(res.status, 200);
  assert.is(res.body.now, '2027-03-01T08:00:00.000Z');
  res = await http.post('/_mock/clock').send({ advance_ms: 90_000 });
  assert.is(res.body.now, '2027-03-01T08:01:30.000Z');
  res = await http.get('/_mock/clock');
  assert.equal(res.body, { now: '2027-03-01T08:01:30.000Z', frozen_at: '2027-03-01T08:01:30.000Z', offset_ms: 0 });
});

test('clock: both, neither or a bad value is 422', async () => {
  const { http } = await freshMock();
  const cases: [object, (string | number)[]][] = [
    [{}, ['body']],
    [{ now: '2027-03-01T08:00:00Z', advance_ms: 1 }, ['body']],
    [{ now: 'yesterday' }, ['body', 'now']],
    [{ advance_ms: 1.5 }, ['body', 'advance_ms']],
  ];
  for (const [body, loc] of cases) {
    const res = await http.post('/_mock/clock').send(body);
    assert.is(res.status, 422, JSON.stringify(body));
    assert.ok(res.body.detail.length >= 1);
    for (const item of res.body.detail) assert.equal(item.loc, loc, JSON.stringify(body));
  }
  assert.is((await http.get('/_mock/clock')).body.now, DEMO.now);
});

test('faults: POST adds, GET lists, DELETE clears', async () => {
  const { http } = await freshMock();
  let res = await http.post('/_mock/faults').send({ method: 'get', path: '/api/v3/projects/*/jobs', status: 503, times: 2 });
  assert.is(res.status, 200);
  assert.is(res.body.method, 'GET');
  assert.is(res.body.remaining, 2);
  res = await http.get('/_mock/faults');
  assert.is(res.body.items.length, 1);
  res = await http.delete('/_mock/faults');
  assert.equal(res.body, { cleared: 1 });
  assert.equal((await http.get('/_mock/faults')).body.items, []);
});

test('faults: neither status nor delay, body without status, or a bad status is 422', async () => {
  const { http } = await freshMock();
  const cases: [object, (string | number)[]][] = [
    [{ method: 'GET', path: '/x' }, ['body']],
    [{ method: 'GET', path: '/x', body: { a: 1 }, delay_ms: 5 }, ['body', 'body']],
    [{ method: 'GET', path: '/x', status: 99 }, ['body', 'status']],
    [{ method: 'GET', path: 'x', status: 500 }, ['body', 'path']],
  ];
  for (const [body, loc] of cases) {
    const res = await http.post('/_mock/faults').send(body);
    assert.is(res.status, 422, JSON.stringify(body));
    assert.equal(
      res.body.detail.map((i: { loc: unknown }) => i.loc),
      [loc],
      JSON.stringify(body),
    );
  }
  assert.equal((await http.get('/_mock/faults')).body.items, []);
});

test('runs: POST creates a run; transition moves it', async () => {
  const { http } = await freshMock();
  const created = await http.post(`/_mock/projects/${P}/runs`).send({ surface: 'dashboard', runtime_mode: 'test' });
  assert.is(created.status, 200);
  assert.is(created.body.status, 'queued');
  assert.is(created.body.release_id, DEMO.releases.gen3Live);
  const moved = await http.post(`/_mock/projects/${P}/runs/${created.body.id}/transition`).send({ to: 'running' });
  assert.is(moved.status, 200);
  assert.is(moved.body.status, 'running');
  const read = await http.get(`/api/v3/projects/${P}/runs/${created.body.id}?runtime_mode=test`).set(owner);
  assert.is(read.body.status, 'running');
});

test('runs: unknown project is 404, bad path id 422, missing transition body 422', async () => {
  const { http } = await freshMock();
  let res = await http.post(`/_mock/projects/${DEMO.workspaces.globex}/runs`).send({});
  assert.is(res.status, 404);
  assert.is(res.body.detail.reason_code, 'project_not_found');
  res = await http.post('/_mock/projects/not-a-uuid/runs').send({});
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['path', 'project_id']);
  res = await http.post(`/_mock/projects/${P}/runs/${DEMO.runs.failedApi}/transition`);
  assert.is(res.status, 422);
});

test('auth codes: a minted code exchanges for tokens with its PKCE verifier', async () => {
  const { http } = await freshMock();
  const verifier = 'a-verifier-of-sufficient-length-0123456789-abcdef';
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const minted = await http.post('/_mock/auth/codes').send({ principal_id: DEMO.principals.operator, code_challenge: challenge, scopes: ['project:read'] });
  assert.is(minted.status, 200);
  assert.is(typeof minted.body.code, 'string');
  assert.equal(minted.body.scopes, ['project:read']);
  const token = await http.post('/api/v3/auth/token').send({ grant_type: 'authorization_code', code: minted.body.code, code_verifier: verifier });
  assert.is(token.status, 200);
  assert.equal(token.body.scopes, ['project:read']);
});

test('auth codes: an unknown principal is 404, a missing challenge 422', async () => {
  const { http } = await freshMock();
  let res = await http.post('/_mock/auth/codes').send({ principal_id: DEMO.projects.sales, code_challenge: 'x' });
  assert.is(res.status, 404);
  assert.is(res.body.detail.reason_code, 'principal_not_found');
  res = await http.post('/_mock/auth/codes').send({ principal_id: DEMO.principals.owner });
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['body', 'code_challenge']);
});

test('coverage: GET answers the report', async () => {
  const { http } = await freshMock();
  const res = await http.get('/_mock/coverage');
  assert.is(res.status, 200);
  assert.is(res.body.operations.length, 20);
});

test('control: false: every control route is 404', async () => {
  const { http } = await freshMock({ control: false });
  const routes: [string, string][] = [
    ['get', '/_mock/health'],
    ['post', '/_mock/reset'],
    ['post', '/_mock/fixtures'],
    ['get', '/_mock/state'],
    ['put', '/_mock/state'],
    ['get', '/_mock/requests'],
    ['delete', '/_mock/requests'],
    ['get', '/_mock/clock'],
    ['post', '/_mock/clock'],
    ['get', '/_mock/faults'],
    ['post', '/_mock/faults'],
    ['delete', '/_mock/faults'],
    ['get', '/_mock/coverage'],
    ['post', `/_mock/projects/${P}/runs`],
    ['post', `/_mock/projects/${P}/runs/${DEMO.runs.failedApi}/transition`],
    ['post', '/_mock/auth/codes'],
  ];
  for (const [method, path] of routes) {
    const res = await (http as unknown as Record<string, (p: string) => Promise<{ status: number; body: { detail: { reason_code: string } } }>>)[method](path);
    assert.is(res.status, 404, `${method} ${path}`);
    assert.is(res.body.detail.reason_code, 'route_not_found');
  }
});

test('control: false: the in-process API still works', async () => {
  const { mock, http } = await freshMock({ control: false });
  await http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  assert.is(mock.control.requests().length, 1);
  const run = await mock.control.createRun(P, { status: 'running' });
  assert.is(run.status, 'running');
});

test('GET /_mock/state is streamed: exactly the bytes of the sealed export, in chunks, at any size', async () => {
  const { mock } = await freshMock({ seed: 3 });
  // Some thousand runs make the document larger than one chunk.
  await mock.store.transact((tx) => {
    for (let i = 0; i < 3_000; i++)
      tx.put('runs', { ...mock.store.get('runs', DEMO.runs.waitingApproval)!, id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` });
  });
  const res = await request(mock.callback())
    .get('/_mock/state')
    .buffer(true)
    .parse((r, done) => {
      const parts: Buffer[] = [];
      r.on('data', (c: Buffer) => parts.push(c));
      r.on('end', () => done(null, { parts: parts.length, text: Buffer.concat(parts).toString('utf8') }));
    });
  assert.is(res.status, 200);
  assert.match(res.headers['content-type'], /^application\/json/);
  const { parts, text } = res.body as { parts: number; text: string };
  assert.is(text, JSON.stringify(mock.control.exportState({ sealed: true })));
  assert.ok(parts > 1, 'sent as one piece');
  assert.ok(!text.includes(DEMO.adminKey), 'the admin key is sealed');
});

test.run();
