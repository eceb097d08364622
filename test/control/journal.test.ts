// Behaviour of the request journal: what an entry holds, redaction of every secret, filters, clearing, bounds, per instance.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { Journal } from '../../src/control/journal.js';
import { redactDeep } from '../../src/control/redact.js';
import { plainGet } from '../helpers/journal-records.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);

test('journal: an entry holds method, path, query, status, duration, bodies and operation', async () => {
  const { mock, http } = await freshMock();
  await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel?x=1`).set(owner).send({ reason: 'stop' });
  const [e] = mock.control.requests();
  assert.is(e.id, 1);
  assert.is(e.at, DEMO.now);
  assert.is(e.method, 'POST');
  assert.is(e.path, `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`);
  assert.equal(e.query, { x: '1' });
  assert.is(e.status, 200);
  assert.is(typeof e.duration_ms, 'number');
  assert.is(e.operation, 'cancelRun');
  assert.equal(e.request.body, { reason: 'stop' });
  assert.is((e.response.body as { status: string }).status, 'cancelled');
  assert.is(e.request.headers.authorization, '[redacted]');
});

test('journal: errors are recorded with their envelope', async () => {
  const { mock, http } = await freshMock();
  await http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`);
  const [e] = mock.control.requests();
  assert.is(e.status, 401);
  assert.is((e.response.body as { detail: { reason_code: string } }).detail.reason_code, 'authentication_required');
});

test('journal: no secret reaches it (headers, bodies, queries, responses)', async () => {
  const { mock, http } = await freshMock();
  // Token exchange: code and verifier in, tokens out.
  const tokens = await http
    .post('/api/v3/auth/token?refresh_token=leak-me-query')
    .send({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier });
  assert.is(tokens.status, 200);
  const refreshed = await http.post('/api/v3/auth/token').send({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token });
  assert.is(refreshed.status, 200);
  // Admin key, bearer token.
  const user = mock.store.values('users').next().value!;
  await http.get(`/api/v3/projects/${user.project_id}/users/${user.id}`).set('X-Admin-Key', DEMO.adminKey);
  await http.get(`/api/v3/projects/${P}/connections/support-chat`).set(owner);
  await http.get(`/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}`).set(owner);
  // Chat webhook secret header.
  await http
    .post(`/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`)
    .set('X-Chatapp-Secret-Token', DEMO.chatSecret)
    .send({ update_id: 424242, message: { from: { id: 77 }, text: 'hello' } });
  // Broker signature, and a body with secret-ish fields.
  const raw = JSON.stringify({
    event_id: 'evt-1',
    event_type: 'connection.refreshed',
    connection_resource_id: 'nope',
    occurred_at: DEMO.now,
    client_secret: 'cs-leak',
  });
  const sig = createHmac('sha256', DEMO.brokerSecret).update(raw).digest('hex');
  await http.post('/api/v3/webhooks/broker').set('Content-Type', 'application/json').set('X-Broker-Hmac-Sha256', sig).send(raw);

  const text = JSON.stringify(mock.control.requests());
  assert.is(mock.control.requests().length, 7);
  const secrets = [
    DEMO.tokens.owner,
    DEMO.adminKey,
    DEMO.chatSecret,
    DEMO.brokerSecret,
    DEMO.authorizationCode,
    DEMO.pkceVerifier,
    sig,
    'cs-leak',
    'leak-me-query',
    tokens.body.access_token,
    tokens.body.refresh_token,
    refreshed.body.access_token,
    refreshed.body.refresh_token,
    'sk_live_demo_9f8e7d6c5b4a',
  ];
  for (const s of secrets) assert.not.ok(text.includes(s), `journal leaks ${s}`);
  // The broker body was still recorded (parsed from the raw bytes), redacted.
  const broker = mock.control.requests({ path: '/webhooks/broker' })[0];
  assert.equal((broker.request.body as Record<string, unknown>).client_secret, '[redacted]');
  assert.is((broker.request.body as Record<string, unknown>).event_id, 'evt-1');
});

test('redaction: secret fields at any depth, and secret-ish names', () => {
  const out = redactDeep({
    a: [{ b: { webhook_secret: 's', tool_arguments: { x: 1 }, keep: 'k' } }],
    signing_secret: 'x',
    code: 'c',
    reason_code: 'r',
    password: null,
  });
  assert.equal(out, {
    a: [{ b: { webhook_secret: '[redacted]', tool_arguments: '[redacted]', keep: 'k' } }],
    signing_secret: '[redacted]',
    code: '[redacted]',
    reason_code: 'r',
    password: null,
  });
});

test('journal: filters by method, path substring or glob, and status or class', async () => {
  const { mock, http } = await freshMock();
  await http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`).set(owner);
  await http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`);
  await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}/cancel`).set(owner).send({});
  await http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  // Entries 1..4 in order: GET run 200, GET run 401, POST cancel 409, GET jobs 200. Each filter gives exact ids.
  const q = async (qs: string) => {
    const res = await http.get(`/_mock/requests?${qs}`);
    assert.is(res.status, 200, qs);
    return res.body.items.map((e: { id: number }) => e.id);
  };
  assert.equal(await q(''), [1, 2, 3, 4]);
  assert.equal(await q('method=get'), [1, 2, 4]);
  assert.equal(await q('method=POST'), [3]);
  assert.equal(await q('path=/runs/'), [1, 2, 3]);
  assert.equal(await q(`path=${encodeURIComponent('/api/v3/projects/*/runs/*')}`), [1, 2]);
  assert.equal(await q(`path=${encodeURIComponent('/api/**/cancel')}`), [3]);
  assert.equal(await q('path=/jobs'), [4]);
  assert.equal(await q('status=401'), [2]);
  assert.equal(await q('status=4xx'), [2, 3]);
  assert.equal(await q('status=2xx'), [1, 4]);
  assert.equal(await q('status=5xx'), []);
  assert.equal(await q('method=GET&status=200'), [1, 4]);
  assert.equal(await q('method=GET&status=200&after=1'), [4]);
  assert.equal(
    mock.control.requests({ status: 409 }).map((e) => [e.id, e.method, e.status, e.operation]),
    [[3, 'POST', 409, 'cancelRun']],
  );
});

test('journal: /_mock requests are not journaled', async () => {
  const { mock, http } = await freshMock();
  await http.get('/_mock/health');
  await http.get('/_mock/state');
  await http.post('/_mock/clock').send({ advance_ms: 1 });
  assert.equal(mock.control.requests(), []);
});

test('journal: clear empties it; ids keep counting', async () => {
  const { mock, http } = await freshMock();
  await http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  assert.is(mock.control.clearRequests(), 1);
  await http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  assert.equal(
    mock.control.requests().map((e) => e.id),
    [2],
  );
});

test('journal: bounded to the newest 1000 entries', () => {
  const j = new Journal();
  for (let i = 0; i < 2600; i++) {
    j.add(plainGet(`/p/${i}`));
  }
  const all = j.list();
  assert.is(all.length, 1000);
  assert.is(all[0].path, '/p/1600');
  assert.is(all[999].path, '/p/2599');
});

test('journal: `after` counts from the oldest entry still held (ids 4..8 of 8 held): exact ids at each boundary', () => {
  const j = new Journal({ entries: 5 });
  for (let i = 1; i <= 8; i++) {
    j.add(plainGet(`/p/${i}`));
  }
  const ids = (filter: Parameters<Journal['list']>[0]) => j.list(filter).map((e) => e.id);
  assert.equal(ids({}), [4, 5, 6, 7, 8]);
  assert.equal(ids({ after: 0 }), [4, 5, 6, 7, 8]);
  assert.equal(ids({ after: 2 }), [4, 5, 6, 7, 8]);
  assert.equal(ids({ after: 3 }), [4, 5, 6, 7, 8]);
  assert.equal(ids({ after: 4 }), [5, 6, 7, 8], 'after the oldest held entry: it is left out');
  assert.equal(ids({ after: 5 }), [6, 7, 8]);
  assert.equal(ids({ after: 7 }), [8]);
  assert.equal(ids({ after: 8 }), []);
  assert.equal(ids({ after: 100 }), []);
  assert.equal(ids({ after: 4, limit: 2 }), [7, 8]);
  assert.equal(ids({ after: 6, limit: 5 }), [7, 8]);
  assert.equal(ids({ after: 4, limit: 4 }), [5, 6, 7, 8]);
  assert.equal(
    j.summaries({ after: 4 }).map((e) => e.id),
    [5, 6, 7, 8],
  );
  assert.equal(
    j.summaries({ after: 3 }).map((e) => e.id),
    [4, 5, 6, 7, 8],
  );
  // One entry by id: held from 4 to 8.
  assert.equal(
    [3, 4, 8, 9].map((id) => j.get(id)?.path ?? null),
    [null, '/p/4', '/p/8', null],
  );
});

test('journal: per instance', async () => {
  const a = await freshMock();
  const b = await freshMock();
  await a.http.get(`/api/v3/projects/${P}/jobs`).set(owner);
  assert.is(a.mock.control.requests().length, 1);
  assert.is(b.mock.control.requests().length, 0);
});

test.run();
