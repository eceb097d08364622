// Edges of addressing a sandbox: the host `.localhost` (an empty label names no sandbox) reaches the default mock, a host
// name in capitals names its sandbox as in lower case (host names are case-insensitive), a 404 for an unknown id longer than 64 characters shows only its first 64, in every form and in process, and a read whose path and header or host disagree is refused however often its target came before.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { ApiError } from '../../src/errors.js';

const P = DEMO.projects.support;
const OWNER = bearer(DEMO.tokens.owner);
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;
const DENY = `/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}/deny`;
const FINGERPRINT = 'af624721d9e09cac56e4555e1905856154d21eb1c63e94450069d3fc558e9e57'; // apr_r3fund49

const notFound = (shown: string) => ({
  detail: { reason_code: 'sandbox_not_found', message: 'No such sandbox: never created, deleted, or expired.', affected_resource: `sandbox:${shown}` },
});

test('host .localhost (an empty sandbox label) is the default mock: its clock, its state and its journal, with or without a port', async () => {
  const m = await freshMock();
  const sb = (
    await m.http
      .post('/_mock/sandboxes')
      .send({ clock: { now: '2026-11-20T11:00:00Z' } })
      .expect(201)
  ).body as { id: string };
  const defaultClock = { now: DEMO.now, frozen_at: DEMO.now, offset_ms: 0 };
  for (const host of ['.localhost', '.localhost:4010', '.LOCALHOST']) {
    const clock = await m.http.get('/_mock/clock').set('Host', host);
    assert.equal([clock.status, clock.body], [200, defaultClock], host);
  }
  // A read (served on the fast path) and a write (through the whole chain) reach the default mock's state.
  const read = await m.http.get(RUN).set(OWNER).set('Host', '.localhost');
  assert.equal([read.status, read.body.id, read.body.status], [200, DEMO.runs.waitingApproval, 'waiting_approval']);
  const denied = await m.http.post(DENY).set(OWNER).set('Host', '.localhost:4010').send({ binding_fingerprint: FINGERPRINT, reason: 'no' });
  assert.equal([denied.status, denied.body.approval?.status], [200, 'denied'], denied.text);
  const status = async (prefix: string) =>
    (await m.http.get(`${prefix}/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}`).set(OWNER)).body.status;
  assert.is(await status(''), 'denied');
  assert.is(await status(`/sandboxes/${sb.id}`), 'pending', 'the sandbox was not reached');
  const journal = async (prefix: string) =>
    (await m.http.get(`${prefix}/_mock/requests?summary=true`)).body.items.map((e: { method: string; path: string }) => `${e.method} ${e.path}`);
  assert.equal(await journal(''), [`GET ${RUN}`, `POST ${DENY}`, `GET /api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}`]);
  assert.equal(await journal(`/sandboxes/${sb.id}`), [`GET /api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}`]);
});

test('a host in capitals names its sandbox: host names are case-insensitive, for a read and a write alike', async () => {
  const m = await freshMock();
  const sb = (await m.http.post('/_mock/sandboxes').send({}).expect(201)).body as { id: string };
  const host = `${sb.id.toUpperCase()}.LocalHost:4010`;
  const read = await m.http.get(RUN).set(OWNER).set('Host', host);
  assert.equal([read.status, read.body.id], [200, DEMO.runs.waitingApproval]);
  const denied = await m.http.post(DENY).set(OWNER).set('Host', host).send({ binding_fingerprint: FINGERPRINT, reason: 'no' });
  assert.equal([denied.status, denied.body.approval?.status], [200, 'denied'], denied.text);
  const approval = `/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}`;
  assert.is((await m.http.get(`/sandboxes/${sb.id}${approval}`).set(OWNER)).body.status, 'denied');
  assert.is((await m.http.get(approval).set(OWNER)).body.status, 'pending', 'the default mock was written');
  const journal = async (prefix: string) =>
    (await m.http.get(`${prefix}/_mock/requests?summary=true`)).body.items.map((e: { method: string; path: string }) => `${e.method} ${e.path}`);
  assert.equal(await journal(`/sandboxes/${sb.id}`), [`GET ${RUN}`, `POST ${DENY}`, `GET ${approval}`]);
  assert.equal(await journal(''), [`GET ${approval}`]);
});

test('an unknown sandbox id of 72 characters: its 404 shows the first 64, by path prefix, header and host alike', async () => {
  const m = await freshMock();
  const first64 = `${'k'.repeat(60)}0123`;
  const id = `${first64}overflow`;
  assert.is(id.length, 72);
  for (const req of [
    m.http.get(`/sandboxes/${id}${RUN}`).set(OWNER),
    m.http.post(`/sandboxes/${id}${DENY}`).set(OWNER).send({ binding_fingerprint: FINGERPRINT, reason: 'no' }),
    m.http.get('/_mock/clock').set('X-Mock-Sandbox', id),
    m.http.get(RUN).set(OWNER).set('Host', `${id}.localhost:4010`),
  ]) {
    const res = await req;
    assert.equal([res.status, res.body], [404, notFound(first64)]);
  }
  // An id of exactly 64 characters is shown whole.
  const res = await m.http.get('/_mock/clock').set('X-Mock-Sandbox', first64);
  assert.equal([res.status, res.body], [404, notFound(first64)]);
});

test('in process: the 404 of an unknown id longer than 64 characters shows its first 64 (get, delete, sandboxControl)', async () => {
  const m = await freshMock();
  const first64 = 'q'.repeat(64);
  const id = `${first64}rest`;
  const refusedBody = async (fn: () => unknown) => {
    try {
      await fn();
    } catch (err) {
      assert.instance(err, ApiError);
      return [(err as ApiError).status, (err as ApiError).body()];
    }
    return 'not refused';
  };
  for (const fn of [() => m.mock.control.sandbox(id), () => m.mock.control.deleteSandbox(id), () => m.mock.control.sandboxControl(id)]) {
    assert.equal(await refusedBody(fn), [404, notFound(first64)]);
  }
});

test('a read whose path names a sandbox is refused when its header or host names another, after the same target was served', async () => {
  const m = await freshMock();
  const sandbox = async () => (await m.http.post('/_mock/sandboxes').send({}).expect(201)).body as { id: string };
  const [a, b] = [await sandbox(), await sandbox()];
  const target = `/sandboxes/${a.id}${RUN}`;
  // Served twice first: the target's address is then remembered.
  for (let i = 0; i < 2; i++) assert.is((await m.http.get(target).set(OWNER)).body.id, DEMO.runs.waitingApproval);
  for (const [name, value, named] of [
    ['X-Mock-Sandbox', b.id, b.id],
    ['Host', `${b.id}.localhost`, b.id],
  ]) {
    const res = await m.http.get(target).set(OWNER).set(name, value);
    const detail = { reason_code: 'sandbox_conflict', message: `The request names different sandboxes: ${a.id}, ${named}` };
    assert.equal([res.status, res.body], [400, { detail }], name);
  }
  // The same sandbox named twice is served by it.
  const same = await m.http.get(target).set(OWNER).set('X-Mock-Sandbox', a.id);
  assert.equal([same.status, same.body.id], [200, DEMO.runs.waitingApproval]);
});

test.run();
