// The advertised per-test isolation: snapshot() then restore() undoes every kind of write (v3 and control, clock
// included), a snapshot stays reusable and unaffected by later writes, and a restore is persisted; reset does the same.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshMock, type TestMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { AS } from '../helpers/ops.js';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { JsonFileAdapter } from '../../src/storage/adapters.js';

const P = DEMO.projects.support;
const exported = (m: TestMock) => JSON.parse(JSON.stringify(m.mock.control.exportState()));

/** One write of every kind, each asserted to have happened. */
async function writeEverything({ mock, http }: TestMock): Promise<void> {
  const ok = (res: { status: number; body: unknown }, status = 200) => assert.is(res.status, status, JSON.stringify(res.body));
  ok(await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`).set(AS.operator).send({ reason: 'x' }));
  ok(await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`).set(AS.operator).send({}), 201);
  ok(await http.put(`/api/v3/projects/${P}/budget`).set(AS.operator).send({ project_daily_usd: 300 }));
  ok(await http.post(`/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingOther}/deny`).set(AS.operator).send({}));
  ok(await http.delete(`/api/v3/projects/${P}/users/7eeec0cc-4c09-4d7b-bb90-476a4c5f5f61`).set(AS.owner).send({ confirmation: 'delete-application-user' }));
  ok(await http.post(`/api/v3/projects/${DEMO.projects.sandbox}/transfer`).set(AS.owner).send({ workspace_id: DEMO.workspaces.acmeLabs }));
  ok(await http.delete(`/api/v3/projects/${DEMO.projects.sales}`).set(AS.owner).send({ confirmation: 'sales-assistant' }));
  const tokens = await http
    .post('/api/v3/auth/token')
    .send({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier });
  ok(tokens);
  ok(
    await http
      .post(`/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`)
      .set('X-Chatapp-Secret-Token', DEMO.chatSecret)
      .send({ update_id: 1, message: { from: { id: 5 }, text: 'hi' } }),
  );
  const event = JSON.stringify({
    event_id: 'evt_iso',
    event_type: 'connection.revoked',
    connection_resource_id: 'a6a48f50-71c5-4c54-a80a-0b8eaf0d93e0',
    occurred_at: DEMO.now,
  });
  ok(
    await http
      .post('/api/v3/webhooks/broker')
      .set({ 'Content-Type': 'application/json', 'X-Broker-Hmac-Sha256': createHmac('sha256', DEMO.brokerSecret).update(event).digest('hex') })
      .send(event),
  );
  const run = await http.post(`/_mock/projects/${P}/runs`).send({ status: 'running' });
  ok(run);
  ok(await http.post(`/_mock/projects/${P}/runs/${run.body.id}/transition`).send({ to: 'waiting_approval' }));
  ok(
    await http
      .post(`/_mock/projects/${P}/desired-state/apply`)
      .send({ mutation: { type: 'skill.upsert', skill_id: 'isolation-skill', display_name: 'Isolation' } }),
  );
  ok(await http.post(`/_mock/projects/${P}/releases`).send({ target: 'candidate' }));
  ok(
    await http
      .post('/_mock/auth/codes')
      .send({ principal_id: DEMO.principals.viewer, code_challenge: createHash('sha256').update('w'.repeat(43)).digest('base64url'), code: 'isolation-code' }),
  );
  ok(await http.post('/_mock/clock').send({ advance_ms: 60_000 }));
  // The writes did land: the access token works, the clock moved.
  ok(await http.get(`/api/v3/projects/${P}/users?limit=1`).set(bearer(tokens.body.access_token)));
  assert.is(mock.control.now(), '2026-11-20T12:01:00.000Z');
}

test('isolation: restore(snapshot) undoes every kind of write, clock included', async () => {
  const m = await freshMock();
  const before = exported(m);
  const snap = m.mock.control.snapshot();
  await writeEverything(m);
  assert.not.equal(exported(m), before);
  await m.mock.control.restore(snap);
  assert.equal(exported(m), before);
  assert.is(m.mock.control.now(), DEMO.now);
  // Behaviour is back too: the code is unused again, the cancelled run is waiting again.
  const again = await m.http
    .post('/api/v3/auth/token')
    .send({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier });
  assert.is(again.status, 200);
  assert.is((await m.http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`).set(AS.owner)).body.status, 'waiting_approval');
});

test('isolation: a snapshot is reusable and never sees writes made after it', async () => {
  const m = await freshMock();
  const before = exported(m);
  const snap = m.mock.control.snapshot();
  for (let round = 0; round < 2; round++) {
    await writeEverything(m);
    await m.mock.control.restore(snap);
    assert.equal(exported(m), before, `round ${round}`);
  }
  // A second snapshot taken after writes restores those writes, and the first one still restores the start.
  await writeEverything(m);
  const after = exported(m);
  const later = m.mock.control.snapshot();
  await m.mock.control.restore(snap);
  assert.equal(exported(m), before);
  await m.mock.control.restore(later);
  assert.equal(exported(m), after);
});

test('isolation: a restore is persisted (the data file holds the restored state)', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'prm-iso-')), 'db.json');
  const mock = await createApp({ storage: new JsonFileAdapter(file), fixtures: demoFixture() });
  const snap = mock.control.snapshot();
  // What is on disk: the snapshot and its log, as a restart reads them.
  const onDisk = async () => JSON.parse(JSON.stringify((await new JsonFileAdapter(file, { report: {} }).read())!.state));
  const before = await onDisk();
  await mock.control.createRun(P, { status: 'queued' });
  await mock.control.advanceClock(1000);
  assert.not.equal(await onDisk(), before);
  await mock.control.restore(snap);
  assert.equal(await onDisk(), before);
});

test('isolation: POST /_mock/reset returns to the fixtures after every kind of write, and clears journal and faults', async () => {
  const m = await freshMock();
  const before = exported(m);
  await writeEverything(m);
  await m.http.post('/_mock/faults').send({ method: 'GET', path: '/api/v3/nothing', status: 418 });
  const res = await m.http.post('/_mock/reset');
  assert.is(res.status, 200);
  assert.equal(res.body, { reset: true, now: DEMO.now });
  assert.equal(exported(m), before);
  assert.equal(m.mock.control.faults(), []);
  assert.equal(m.mock.control.requests(), []);
});

test('isolation: two instances share nothing (a write in one is invisible in the other)', async () => {
  const a = await freshMock();
  const b = await freshMock();
  const before = exported(b);
  await writeEverything(a);
  assert.equal(exported(b), before);
  assert.is(b.mock.control.now(), DEMO.now);
});

test('isolation: lists read after restore, reset and PUT /_mock/state are the restored ones (no stale list caches)', async () => {
  const m = await freshMock();
  const list = async () => (await m.http.get(`/api/v3/projects/${P}/users?limit=200`).set(AS.owner)).body.items.map((u: { id: string }) => u.id);
  const releases = async () => (await m.http.get(`/api/v3/projects/${P}/releases`).set(AS.owner)).body.items.map((r: { generation: number }) => r.generation);
  const users0 = await list();
  const releases0 = await releases();
  const snap = m.mock.control.snapshot();
  const state = (await m.http.get('/_mock/state')).body;
  const write = async () => {
    await m.http
      .post(`/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`)
      .set('X-Chatapp-Secret-Token', DEMO.chatSecret)
      .send({ update_id: Math.floor(Math.random() * 1e9), message: { from: { id: 'list-cache' }, text: 'x' } });
    await m.mock.control.compileRelease(P);
    assert.is((await list()).length, users0.length + 1);
    assert.is((await releases()).length, releases0.length + 1);
  };
  await write();
  await m.mock.control.restore(snap);
  assert.equal([await list(), await releases()], [users0, releases0], 'after restore');
  await write();
  await m.http.post('/_mock/reset');
  assert.equal([await list(), await releases()], [users0, releases0], 'after reset');
  await write();
  assert.is((await m.http.put('/_mock/state').send(state)).status, 200);
  assert.equal([await list(), await releases()], [users0, releases0], 'after PUT /_mock/state');
});

test.run();
