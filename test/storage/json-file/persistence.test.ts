// Every kind of write survives a restart on the same JSON data file, and is on disk when its answer arrives:
// archive, transfer, token exchange and rotation, both webhooks, budget, cancel, retry, deny, user deletion, the clock.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApp, type MockApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { JsonFileAdapter } from '../../../src/storage/adapters.js';
import { checkedClient } from '../../helpers/openapi-check.js';
import { DEMO, bearer } from '../../helpers/demo.js';
import { AS } from '../../helpers/ops.js';

const P = DEMO.projects.support;
const SANDBOX = DEMO.projects.sandbox;
const CRM_RESOURCE = 'a6a48f50-71c5-4c54-a80a-0b8eaf0d93e0';
const DANA = '7eeec0cc-4c09-4d7b-bb90-476a4c5f5f61';

interface Opened {
  mock: MockApp;
  http: ReturnType<typeof request>;
}

/** A data file in a fresh temp folder; `open()` starts an instance on it (seeding it from the demo the first time). */
function dataFile() {
  const file = join(mkdtempSync(join(tmpdir(), 'prm-persist-')), 'db.json');
  const open = async (): Promise<Opened> => {
    const mock = await createApp({ storage: new JsonFileAdapter(file), fixtures: demoFixture() });
    return { mock, http: checkedClient(request(mock.callback())) };
  };
  /** The stored state as it is on disk right now (no flush, no close): the snapshot and its log, as a restart reads them. */
  const onDisk = async () =>
    (await new JsonFileAdapter(file, { report: {} }).read())!.state as unknown as Record<string, { [k: string]: unknown }[]> & {
      clock: Record<string, unknown>;
    };
  const record = async (collection: string, key: string, value: string) => (await onDisk())[collection].find((r) => r[key] === value);
  return { open, onDisk, record };
}

test('persistence: an archived project is archived on disk at once and after a restart (writes 409 project_archived)', async () => {
  const db = dataFile();
  const a = await db.open();
  const res = await a.http.delete(`/api/v3/projects/${P}`).set(AS.owner).send({ confirmation: 'support-desk' });
  assert.is(res.status, 200);
  assert.is((await db.record('projects', 'id', P))!.status, 'archived');
  await a.mock.close();
  const b = await db.open();
  assert.is(b.mock.store.get('projects', P)!.status, 'archived');
  const write = await b.http.put(`/api/v3/projects/${P}/budget`).set(AS.operator).send({});
  assert.is(write.status, 409);
  assert.is(write.body.detail.reason_code, 'project_archived');
  const again = await b.http.delete(`/api/v3/projects/${P}`).set(AS.owner).send({ confirmation: 'support-desk' });
  assert.equal(again.body, res.body);
});

test('persistence: a transfer moves the project on disk and after a restart', async () => {
  const db = dataFile();
  const a = await db.open();
  const res = await a.http.post(`/api/v3/projects/${SANDBOX}/transfer`).set(AS.owner).send({ workspace_id: DEMO.workspaces.acmeLabs });
  assert.is(res.status, 200);
  assert.is((await db.record('projects', 'id', SANDBOX))!.workspace_id, DEMO.workspaces.acmeLabs);
  await a.mock.close();
  const b = await db.open();
  // Visibility follows the stored workspace: the Acme Support viewer no longer sees it, the owner of both does.
  const hidden = await b.http.get(`/api/v3/projects/${SANDBOX}/users`).set(AS.viewer);
  assert.is(hidden.status, 404);
  assert.is(hidden.body.detail.reason_code, 'project_not_found');
  assert.equal((await b.http.get(`/api/v3/projects/${SANDBOX}/users`).set(AS.owner)).body, { items: [], next_cursor: null });
});

test('persistence: exchanged codes, issued tokens, rotation and family revocation survive a restart', async () => {
  const db = dataFile();
  const a = await db.open();
  const first = await a.http
    .post('/api/v3/auth/token')
    .send({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier });
  assert.is(first.status, 200);
  assert.is((await db.record('authorization_codes', 'code', DEMO.authorizationCode))!.used, true);
  assert.ok(await db.record('access_tokens', 'token', first.body.access_token));
  const rotated = await a.http.post('/api/v3/auth/token').send({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
  assert.is(rotated.status, 200);
  assert.is((await db.record('refresh_tokens', 'token', first.body.refresh_token))!.used, true);
  await a.mock.close();

  const b = await db.open();
  const read = await b.http.get(`/api/v3/projects/${P}/connections/support-chat`).set(bearer(rotated.body.access_token));
  assert.is(read.status, 200);
  assert.is(read.body.connection_name, 'support-chat');
  // The code stays used: presenting it again is refused (and revokes what it issued).
  const reuse = await b.http
    .post('/api/v3/auth/token')
    .send({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier });
  assert.is(reuse.status, 400);
  assert.is(reuse.body.detail.reason_code, 'invalid_grant');
  const revoked = await b.http.get(`/api/v3/projects/${P}/connections/support-chat`).set(bearer(rotated.body.access_token));
  assert.is(revoked.status, 401);
  assert.is(revoked.body.detail.reason_code, 'token_invalid');
  await b.mock.close();

  const c = await db.open();
  assert.is((await c.http.get(`/api/v3/projects/${P}/connections/support-chat`).set(bearer(rotated.body.access_token))).status, 401, 'revocation persisted');
  const dead = await c.http.post('/api/v3/auth/token').send({ grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token });
  assert.is(dead.status, 400);
});

test('persistence: a rotated-out refresh token is still used after a restart (its reuse revokes the family)', async () => {
  const db = dataFile();
  const a = await db.open();
  const first = (
    await a.http.post('/api/v3/auth/token').send({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier })
  ).body;
  const second = (await a.http.post('/api/v3/auth/token').send({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).body;
  await a.mock.close();
  const b = await db.open();
  assert.is((await b.http.get(`/api/v3/projects/${P}/users?limit=1`).set(bearer(second.access_token))).status, 200);
  const reuse = await b.http.post('/api/v3/auth/token').send({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
  assert.is(reuse.status, 400);
  const after = await b.http.get(`/api/v3/projects/${P}/users?limit=1`).set(bearer(second.access_token));
  assert.is(after.status, 401);
  assert.is(after.body.detail.reason_code, 'token_invalid');
});

test('persistence: a chat update is stored at once; after a restart the same update_id is a duplicate of the same run', async () => {
  const db = dataFile();
  const a = await db.open();
  const hook = `/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`;
  const body = { update_id: 4242, message: { from: { id: 31337, display_name: 'Persisted Person' }, text: 'hello after restart' } };
  const res = await a.http.post(hook).set('X-Chatapp-Secret-Token', DEMO.chatSecret).send(body);
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body).sort(), ['accepted', 'duplicate', 'run_id']);
  assert.is((await db.record('runs', 'id', res.body.run_id))!.status, 'queued');
  await a.mock.close();

  const b = await db.open();
  const again = await b.http.post(hook).set('X-Chatapp-Secret-Token', DEMO.chatSecret).send(body);
  assert.equal(again.body, { accepted: true, run_id: res.body.run_id, duplicate: true });
  const run = await b.http.get(`/api/v3/projects/${P}/runs/${res.body.run_id}`).set(AS.owner);
  assert.is(run.status, 200);
  assert.is(run.body.status, 'queued');
  assert.is(run.body.runtime_mode, 'live');
  const user = b.mock.store.get('users', b.mock.store.get('runs', res.body.run_id)!.user_id!)!;
  assert.equal([user.external_provider, user.external_user_id, user.display_name], ['chatapp', '31337', 'Persisted Person']);
  const next = await b.http
    .post(hook)
    .set('X-Chatapp-Secret-Token', DEMO.chatSecret)
    .send({ ...body, update_id: 4243 });
  assert.is(next.body.duplicate, false);
  assert.is.not(next.body.run_id, res.body.run_id);
});

test('persistence: a broker event is reconciled on disk at once; after a restart its event_id is not stored twice', async () => {
  const db = dataFile();
  const a = await db.open();
  const operation = '0f4bd3d2-6a7e-4a4b-9d1e-3c2b1a0f9e8d';
  const payload = JSON.stringify({
    event_id: 'evt_persist',
    event_type: 'connection.error',
    connection_resource_id: CRM_RESOURCE,
    occurred_at: '2026-11-20T11:00:00.000Z',
    operation_id: operation,
  });
  const sign = (text: string) => createHmac('sha256', DEMO.brokerSecret).update(text).digest('hex');
  const res = await a.http
    .post('/api/v3/webhooks/broker')
    .set({ 'Content-Type': 'application/json', 'X-Broker-Hmac-Sha256': sign(payload) })
    .send(payload);
  assert.equal(res.body, { accepted: true, stored: true });
  assert.is((await db.record('connections', 'id', DEMO.connections.crm))!.status, 'error');
  await a.mock.close();

  const b = await db.open();
  const conn = await b.http.get(`/api/v3/projects/${P}/connections/crm`).set(AS.admin);
  assert.is(conn.body.status, 'error');
  assert.is(conn.body.provider_reconciliation_required, true);
  assert.is(conn.body.provider_reconciliation_operation_id, operation);
  const repeat = await b.http
    .post('/api/v3/webhooks/broker')
    .set({ 'Content-Type': 'application/json', 'X-Broker-Hmac-Sha256': sign(payload) })
    .send(payload);
  assert.equal(repeat.body, { accepted: true, stored: false });
  const authorized = payload.replace('evt_persist', 'evt_persist_2').replace('connection.error', 'connection.authorized');
  const ok = await b.http
    .post('/api/v3/webhooks/broker')
    .set({ 'Content-Type': 'application/json', 'X-Broker-Hmac-Sha256': sign(authorized) })
    .send(authorized);
  assert.equal(ok.body, { accepted: true, stored: true });
  assert.is((await b.http.get(`/api/v3/projects/${P}/connections/crm`).set(AS.admin)).body.status, 'active');
});

test('persistence: budget, cancel, retry, deny and user deletion are on disk when answered and after a restart', async () => {
  const db = dataFile();
  const a = await db.open();
  const budget = await a.http.put(`/api/v3/projects/${P}/budget`).set(AS.operator).send({ funding_mode: 'prepaid', project_daily_usd: 12.5 });
  assert.is(budget.status, 200);
  assert.is((await db.record('budgets', 'project_id', P))!.runtime_config_epoch, budget.body.runtime_config_epoch);
  const cancel = await a.http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`).set(AS.operator).send({ reason: 'persist me' });
  assert.is(cancel.status, 200);
  assert.is((await db.record('runs', 'id', DEMO.runs.waitingApproval))!.status, 'cancelled');
  const retry = await a.http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`).set(AS.operator).send({ reason: 'again' });
  assert.is(retry.status, 201);
  assert.ok(await db.record('runs', 'id', retry.body.id));
  const deny = await a.http.post(`/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingOther}/deny`).set(AS.operator).send({ reason: 'no' });
  assert.is(deny.status, 200);
  assert.is((await db.record('approvals', 'approval_id', DEMO.approvals.pendingOther))!.status, 'denied');
  const del = await a.http.delete(`/api/v3/projects/${P}/users/${DANA}`).set(AS.owner).send({ confirmation: 'delete-application-user' });
  assert.is(del.status, 200);
  assert.is(await db.record('users', 'id', DANA), undefined);
  await a.mock.close();

  const b = await db.open();
  const h = (path: string) => b.http.get(`/api/v3/projects/${P}${path}`).set(AS.owner);
  assert.is((await b.http.put(`/api/v3/projects/${P}/budget`).set(AS.operator).send({})).body.runtime_config_epoch, budget.body.runtime_config_epoch + 1);
  const cancelled = await h(`/runs/${DEMO.runs.waitingApproval}`);
  assert.is(cancelled.body.status, 'cancelled');
  assert.is(cancelled.body.result.cancel_reason, 'persist me');
  const retried = await h(`/runs/${retry.body.id}`);
  assert.is(retried.body.status, 'queued');
  assert.is(retried.body.request_metadata.retry_of, DEMO.runs.failedBackground);
  assert.is((await h(`/approvals/${DEMO.approvals.pendingOther}`)).body.status, 'denied');
  assert.is((await h(`/users/${DANA}`)).status, 404);
});

test('persistence: the mock clock (frozen point and offset) survives a restart', async () => {
  const db = dataFile();
  const a = await db.open();
  await a.http.post('/_mock/clock').send({ advance_ms: 90_000 });
  assert.is((await db.onDisk()).clock.frozen_at, '2026-11-20T12:01:30.000Z');
  await a.mock.close();
  const b = await db.open();
  assert.is(b.mock.control.now(), '2026-11-20T12:01:30.000Z');
  // A code minted with the stored clock expires by it.
  const verifier = 'v'.repeat(43);
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const minted = await b.http.post('/_mock/auth/codes').send({ principal_id: DEMO.principals.owner, code_challenge: challenge, expires_in_ms: 1000 });
  assert.is(minted.body.expires_at, '2026-11-20T12:01:31.000Z');
});

test.run();
