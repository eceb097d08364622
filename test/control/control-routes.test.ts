// The /_mock routes for parts of the mock: journal, clock, faults, runs, auth codes and coverage; control: false hides them all.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);

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

test.run();
