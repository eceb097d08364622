// The /_mock routes for the mock's whole state: health, reset, fixtures, and GET/PUT /_mock/state (sealed secrets, streamed).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import request from 'supertest';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { demoFixture } from '../../src/fixtures.js';

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
