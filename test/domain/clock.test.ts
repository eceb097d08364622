// Behaviour of the mock clock (frozen or offset, advance; every expiry and timestamp follows it) and of seeded determinism.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { SEAL_KEY } from '../helpers/replay-run.js';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);

test('clock: an approval expires when the clock passes expires_at', async () => {
  const { http } = await freshMock();
  const run = await http.post(`/_mock/projects/${P}/runs`).send({ status: 'waiting_approval', approval: { expires_in_ms: 60_000 } });
  const id = run.body.approval.approval_id;
  const read = async () => (await http.get(`/api/v3/projects/${P}/approvals/${id}`).set(owner)).body.status;
  await http.post('/_mock/clock').send({ advance_ms: 59_999 });
  assert.is(await read(), 'pending');
  await http.post('/_mock/clock').send({ advance_ms: 1 });
  assert.is(await read(), 'expired');
  const deny = await http.post(`/api/v3/projects/${P}/approvals/${id}/deny`).set(owner).send({});
  assert.is(deny.status, 409);
  assert.is(deny.body.detail.reason_code, 'approval_expired');
  const pending = await http.get(`/api/v3/projects/${P}/approvals?status=pending`).set(owner);
  assert.not.ok(pending.body.items.some((a: { approval_id: string }) => a.approval_id === id));
});

test('clock: an access token expires by the mock clock', async () => {
  const { http } = await freshMock();
  const tokens = await http
    .post('/api/v3/auth/token')
    .send({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier });
  assert.is(tokens.body.expires_at, '2026-11-20T13:00:00.000Z');
  const get = () => http.get(`/api/v3/projects/${P}/jobs`).set(bearer(tokens.body.access_token));
  assert.is((await get()).status, 200);
  await http.post('/_mock/clock').send({ now: '2026-11-20T13:00:00.000Z' });
  const res = await get();
  assert.is(res.status, 401);
  assert.is(res.body.detail.reason_code, 'token_expired');
});

test('clock: a minted code expires by the mock clock', async () => {
  const { mock, http } = await freshMock();
  const verifier = 'v'.repeat(50);
  const code = await mock.control.mintAuthorizationCode({
    principal_id: DEMO.principals.owner,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    expires_in_ms: 1000,
  });
  assert.is(code.expires_at, '2026-11-20T12:00:01.000Z');
  await mock.control.advanceClock(1000);
  const res = await http.post('/api/v3/auth/token').send({ grant_type: 'authorization_code', code: code.code, code_verifier: verifier });
  assert.is(res.status, 400);
  assert.is(res.body.detail.reason_code, 'invalid_grant');
});

test('clock: timestamps the mock writes come from the mock clock', async () => {
  const { mock, http } = await freshMock();
  await mock.control.setClock('2031-05-05T05:05:05.555Z');
  const run = await http.post(`/_mock/projects/${P}/runs`).send({ status: 'running', steps: [{ name: 's' }] });
  assert.is(run.body.created_at, '2031-05-05T05:05:05.555Z');
  assert.is(run.body.steps[0].created_at, '2031-05-05T05:05:05.555Z');
  const cancelled = await http.post(`/api/v3/projects/${P}/runs/${run.body.id}/cancel`).set(owner).send({});
  assert.equal(cancelled.body.events.at(-1), { type: 'run.cancelled', at: '2031-05-05T05:05:05.555Z' });
  await http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  assert.is(mock.control.requests().at(-1)!.at, '2031-05-05T05:05:05.555Z');
});

test('clock: offset follows the base time source; frozen ignores it', async () => {
  let base = Date.parse('2026-01-01T00:00:00.000Z');
  const mock = await createApp({ storage: 'memory', clock: () => base });
  const http = request(mock.callback());
  assert.is((await http.get('/_mock/clock')).body.now, '2026-01-01T00:00:00.000Z');
  // Running clock + advance = offset: it keeps moving with the base.
  let res = await http.post('/_mock/clock').send({ advance_ms: 3_600_000 });
  assert.equal(res.body, { now: '2026-01-01T01:00:00.000Z', frozen_at: null, offset_ms: 3_600_000 });
  base += 5000;
  assert.is(mock.control.now(), '2026-01-01T01:00:05.000Z');
  // {now} freezes: the base moves, the mock clock does not.
  res = await http.post('/_mock/clock').send({ now: '2026-06-01T00:00:00.000Z' });
  assert.equal([res.body.now, res.body.frozen_at], ['2026-06-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z']);
  base += 60_000;
  assert.is(mock.control.now(), '2026-06-01T00:00:00.000Z');
  // A frozen clock advances its frozen point.
  await mock.control.advanceClock(-1000);
  assert.is(mock.control.now(), '2026-05-31T23:59:59.000Z');
});

test('clock: snapshot and restore bring the clock back too', async () => {
  const { mock } = await freshMock();
  const snap = mock.control.snapshot();
  await mock.control.advanceClock(86_400_000);
  await mock.control.restore(snap);
  assert.is(mock.control.now(), DEMO.now);
});

/** The same request sequence against a fresh instance; answers every response body as text. One seal key for all: the
 * state's sealed settings are byte-identical only under the same key (the seed never gives the key). */
async function scenario(seed: string): Promise<string[]> {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed, sealKey: SEAL_KEY });
  const http = request(mock.callback());
  const out: string[] = [];
  const keep = (res: { status: number; text: string }) => out.push(`${res.status} ${res.text}`);
  const run = await http.post(`/_mock/projects/${P}/runs`).send({ status: 'running', steps: [{ name: 'a' }] });
  keep(run);
  keep(await http.post(`/_mock/projects/${P}/runs/${run.body.id}/transition`).send({ to: 'waiting_approval', approval: { tool_arguments: { n: 1 } } }));
  keep(await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`).set(owner).send({ reason: 'again' }));
  keep(await http.post('/api/v3/auth/token').send({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier }));
  keep(await http.post('/_mock/auth/codes').send({ principal_id: DEMO.principals.owner, code_challenge: 'abc' }));
  keep(await http.get(`/api/v3/projects/${P}/approvals`).set(owner));
  keep(await http.get(`/api/v3/projects/${P}/users?limit=3`).set(owner));
  keep(await http.get('/_mock/state'));
  return out;
}

test('seed: two instances with the same seed and requests give byte-identical responses', async () => {
  const a = await scenario('repeatable');
  const b = await scenario('repeatable');
  assert.is(a.length, 8);
  for (let i = 0; i < a.length; i++) assert.is(a[i], b[i], `response ${i} differs`);
});

test('seed: another seed gives other ids', async () => {
  const a = await scenario('one');
  const b = await scenario('two');
  assert.is.not(a[0], b[0]);
});

test('clock: advances on a running clock add up (the offset accumulates, it is not replaced)', async () => {
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  const mock = await createApp({ storage: 'memory', clock: () => base });
  const http = request(mock.callback());
  await http.post('/_mock/clock').send({ advance_ms: 1000 });
  let res = await http.post('/_mock/clock').send({ advance_ms: 2000 });
  assert.equal(res.body, { now: '2026-01-01T00:00:03.000Z', frozen_at: null, offset_ms: 3000 });
  res = await http.post('/_mock/clock').send({ advance_ms: -500 });
  assert.equal(res.body, { now: '2026-01-01T00:00:02.500Z', frozen_at: null, offset_ms: 2500 });
  await mock.control.advanceClock(7500);
  assert.equal((await http.get('/_mock/clock')).body, { now: '2026-01-01T00:00:10.000Z', frozen_at: null, offset_ms: 10_000 });
  // Freezing resets the offset; advancing a frozen clock adds to the frozen point each time.
  await http.post('/_mock/clock').send({ now: '2026-02-01T00:00:00.000Z' });
  await http.post('/_mock/clock').send({ advance_ms: 1000 });
  res = await http.post('/_mock/clock').send({ advance_ms: 1000 });
  assert.equal(res.body, { now: '2026-02-01T00:00:02.000Z', frozen_at: '2026-02-01T00:00:02.000Z', offset_ms: 0 });
});

test.run();
