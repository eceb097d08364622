// Endpoint 19: HMAC over the exact raw bytes, the four lifecycle events, repeats, unknown connections and refusals.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { signBrokerPayload } from '../../src/client-helpers.js';
import { demoFixture } from '../../src/fixtures.js';

const URL = '/api/v3/webhooks/broker';
const CRM = { binding: DEMO.connections.crm, resource: 'a6a48f50-71c5-4c54-a80a-0b8eaf0d93e0', name: 'crm' };
const BILLING = { binding: DEMO.connections.billing, resource: '81be4ad9-1675-48d3-a387-991940df2adb', name: 'billing-api' };
const OPERATION = '0f4bd3d2-6a7e-4a4b-9d1e-3c2b1a0f9e8d';

const event = (over: Record<string, unknown> = {}) => ({
  event_id: 'evt_0001',
  event_type: 'connection.refreshed',
  connection_resource_id: CRM.resource,
  occurred_at: '2026-11-20T11:59:30.000Z',
  ...over,
});

type Http = Awaited<ReturnType<typeof freshMock>>['http'];
const deliver = (http: Http, payload: string | Buffer | object, secret: string = DEMO.brokerSecret) => {
  const signed = signBrokerPayload(payload, secret);
  // superagent JSON-serializes a Buffer under a JSON content type; raw bytes need an identity serializer.
  if (Buffer.isBuffer(payload))
    return http
      .post(URL)
      .set(signed.headers)
      .serialize((x: unknown) => x as string)
      .send(signed.bytes);
  return http.post(URL).set(signed.headers).send(signed.body);
};

test('broker webhook: connection.refreshed sets last_verified_at (the event time) and updated_at (now)', async () => {
  const { mock, http } = await freshMock();
  const res = await deliver(http, event());
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body, { accepted: true, stored: true });
  const c = mock.store.get('connections', CRM.binding)!;
  assert.is(c.last_verified_at, '2026-11-20T11:59:30.000Z');
  assert.is(c.updated_at, DEMO.now);
  assert.is(c.status, 'active');
  assert.is(mock.store.get('broker_events', 'evt_0001')!.event_type, 'connection.refreshed');
});

test('broker webhook: connection.error sets status error, reconciliation required and keeps operation_id', async () => {
  const { mock, http } = await freshMock();
  const res = await deliver(http, event({ event_type: 'connection.error', operation_id: OPERATION }));
  assert.equal(res.body, { accepted: true, stored: true });
  const view = await http.get(`/api/v3/projects/${DEMO.projects.support}/connections/${CRM.name}`).set(bearer(DEMO.tokens.owner));
  assert.is(view.body.status, 'error');
  assert.is(view.body.provider_reconciliation_required, true);
  assert.is(view.body.provider_reconciliation_operation_id, OPERATION);
  assert.is(mock.store.get('connections', CRM.binding)!.updated_at, DEMO.now);
});

test('broker webhook: connection.authorized makes the binding active and clears reconciliation', async () => {
  const { mock, http } = await freshMock();
  const res = await deliver(http, event({ event_type: 'connection.authorized', connection_resource_id: BILLING.resource }));
  assert.equal(res.body, { accepted: true, stored: true });
  const c = mock.store.get('connections', BILLING.binding)!;
  assert.is(c.status, 'active');
  assert.is(c.provider_reconciliation_required, false);
  assert.is(c.provider_reconciliation_cleared_at, DEMO.now);
});

test('broker webhook: connection.revoked sets status revoked and reconciliation required', async () => {
  const { mock, http } = await freshMock();
  const res = await deliver(http, event({ event_type: 'connection.revoked' }));
  assert.equal(res.body, { accepted: true, stored: true });
  const c = mock.store.get('connections', CRM.binding)!;
  assert.is(c.status, 'revoked');
  assert.is(c.provider_reconciliation_required, true);
});

test('broker webhook: health is merged into the binding health', async () => {
  const { mock, http } = await freshMock();
  await deliver(http, event({ event_type: 'connection.error', health: { status: 'degraded', last_error: 'token refresh failed' } }));
  const c = mock.store.get('connections', CRM.binding)!;
  assert.equal(c.health, { status: 'degraded', token_expires_at: '2026-11-20T18:00:00.000Z', last_error: 'token refresh failed' });
});

test('broker webhook: exact-bytes HMAC: a BOM, odd whitespace and key order still verify', async () => {
  const { mock, http } = await freshMock();
  const raw =
    '\uFEFF{\n\t"occurred_at"  :  "2026-11-20T11:00:00.000Z" ,\r\n  "connection_resource_id":"' +
    CRM.resource +
    '",   "event_type":"connection.refreshed",\n"event_id" : "evt_odd"\n}\n\n';
  const signature = createHmac('sha256', DEMO.brokerSecret).update(Buffer.from(raw, 'utf8')).digest('hex');
  // The re-serialized object signs differently: only the raw bytes can verify.
  const reserialized = createHmac('sha256', DEMO.brokerSecret)
    .update(JSON.stringify(JSON.parse(raw.slice(1))))
    .digest('hex');
  assert.is.not(signature, reserialized);

  const wrong = await http.post(URL).set({ 'Content-Type': 'application/json', 'X-Broker-Hmac-Sha256': reserialized }).send(raw);
  assert.is(wrong.status, 401);

  const res = await http.post(URL).set({ 'Content-Type': 'application/json', 'X-Broker-Hmac-Sha256': signature }).send(raw);
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body, { accepted: true, stored: true });
  assert.is(mock.store.get('connections', CRM.binding)!.last_verified_at, '2026-11-20T11:00:00.000Z');
});

test('broker webhook: signBrokerPayload keeps a string payload byte for byte', async () => {
  const { http } = await freshMock();
  const raw = `{"event_type":"connection.refreshed" , "event_id":"evt_str","connection_resource_id":"${CRM.resource}","occurred_at":"2026-11-20T11:00:00Z"}`;
  const signed = signBrokerPayload(raw, DEMO.brokerSecret);
  assert.is(signed.body, raw);
  assert.is(signed.signature, createHmac('sha256', DEMO.brokerSecret).update(raw).digest('hex'));
  const res = await http.post(URL).set(signed.headers).send(signed.body);
  assert.equal(res.body, { accepted: true, stored: true });
});

test('broker webhook: a repeated event_id answers stored false and changes nothing', async () => {
  const { mock, http } = await freshMock();
  await deliver(http, event({ event_type: 'connection.error' }));
  const before = stateOf(mock);
  const res = await deliver(http, event({ event_type: 'connection.authorized' }));
  assert.is(res.status, 200);
  assert.equal(res.body, { accepted: true, stored: false });
  assert.is(stateOf(mock), before);
  assert.is(mock.store.get('connections', CRM.binding)!.status, 'error');
});

test('broker webhook: an unknown connection answers stored false, changes nothing, and does not burn the event id', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const res = await deliver(http, event({ event_id: 'evt_x', connection_resource_id: '11111111-2222-4333-8444-555555555555' }));
  assert.is(res.status, 200);
  assert.equal(res.body, { accepted: true, stored: false });
  assert.is(stateOf(mock), before);
  assert.equal((await deliver(http, event({ event_id: 'evt_x' }))).body, { accepted: true, stored: true });
});

test('broker webhook: a missing, wrong or uppercase signature is 401 broker_signature_invalid, state unchanged', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const body = JSON.stringify(event());
  const good = createHmac('sha256', DEMO.brokerSecret).update(body).digest('hex');
  const headerSets: Record<string, string>[] = [
    {},
    { 'X-Broker-Hmac-Sha256': '' },
    { 'X-Broker-Hmac-Sha256': createHmac('sha256', 'another-secret').update(body).digest('hex') },
    { 'X-Broker-Hmac-Sha256': good.toUpperCase() },
    { 'X-Broker-Hmac-Sha256': `sha256=${good}` },
    { 'X-Broker-Hmac-Sha256': good.slice(0, 32) },
  ];
  for (const headers of headerSets) {
    const res = await http
      .post(URL)
      .set({ 'Content-Type': 'application/json', ...headers })
      .send(body);
    assert.is(res.status, 401, JSON.stringify(headers));
    assert.is(res.body.detail.reason_code, 'broker_signature_invalid');
    assert.is(res.headers['www-authenticate'], 'Bearer');
  }
  // A body altered after signing fails too.
  const tampered = await http.post(URL).set({ 'Content-Type': 'application/json', 'X-Broker-Hmac-Sha256': good }).send(body.replace('refreshed', 'revoked'));
  assert.is(tampered.status, 401);
  assert.is(stateOf(mock), before);
});

test('broker webhook: with no broker secret configured nothing verifies', async () => {
  const fixture = structuredClone(demoFixture()) as { settings: Record<string, unknown> };
  fixture.settings = { admin_key: DEMO.adminKey };
  const { mock, http } = await freshMock({ fixtures: fixture });
  const before = stateOf(mock);
  const empty = signBrokerPayload(event(), '');
  const res = await http.post(URL).set(empty.headers).send(empty.body);
  assert.is(res.status, 401);
  assert.is(res.body.detail.reason_code, 'broker_signature_invalid');
  assert.is((await deliver(http, event())).status, 401);
  assert.is(stateOf(mock), before);
});

test('broker webhook: the signature is checked before the JSON is parsed', async () => {
  const { http } = await freshMock();
  const res = await http
    .post(URL)
    .set({ 'Content-Type': 'application/json', 'X-Broker-Hmac-Sha256': 'f'.repeat(64) })
    .send('{not json');
  assert.is(res.status, 401);
  assert.is(res.body.detail.reason_code, 'broker_signature_invalid');
});

test('broker webhook: signed but malformed JSON is 422 json_invalid', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const res = await deliver(http, '\uFEFF{"event_id": "evt_1",');
  assert.is(res.status, 422);
  assert.is(res.body.detail[0].type, 'json_invalid');
  assert.is(res.body.detail[0].loc[0], 'body');
  assert.type(res.body.detail[0].loc[1], 'number');
  // Bytes that are not text are FastAPI's 400 "There was an error parsing the body".
  const badUtf8 = await deliver(http, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
  assert.is(badUtf8.status, 400);
  assert.is(badUtf8.body.detail.reason_code, 'body_unreadable');
  assert.is(stateOf(mock), before);
});

test('broker webhook: signed but invalid events are 422 at their field', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const cases: [Record<string, unknown>, (string | number)[]][] = [
    [event({ event_type: 'connection.exploded' }), ['body', 'event_type']],
    [event({ event_id: undefined }), ['body', 'event_id']],
    [event({ connection_resource_id: undefined }), ['body', 'connection_resource_id']],
    [event({ occurred_at: 'yesterday' }), ['body', 'occurred_at']],
    [event({ operation_id: 'op-1' }), ['body', 'operation_id']],
    [event({ health: 'fine' }), ['body', 'health']],
  ];
  for (const [body, loc] of cases) {
    const res = await deliver(http, body);
    assert.is(res.status, 422, JSON.stringify(body));
    assert.equal(res.body.detail[0].loc, loc, JSON.stringify(res.body));
  }
  const proto = await deliver(
    http,
    `{"event_id":"e","event_type":"connection.refreshed","connection_resource_id":"${CRM.resource}","occurred_at":"${DEMO.now}","health":{"__proto__":{"x":1}}}`,
  );
  assert.is(proto.status, 422);
  assert.equal(proto.body.detail[0].loc, ['body']);
  const notObject = await deliver(http, '[1,2]');
  assert.is(notObject.status, 422);
  assert.is(stateOf(mock), before);
});

test('broker webhook: a body over the limit is 413 payload_too_large', async () => {
  const { mock, http } = await freshMock({ bodyLimit: 256 });
  const before = stateOf(mock);
  const res = await deliver(http, event({ health: { note: 'x'.repeat(1000) } }));
  assert.is(res.status, 413);
  assert.is(res.body.detail.reason_code, 'payload_too_large');
  assert.is(stateOf(mock), before);
});

test('broker webhook: an event for a connection of an archived project answers stored false and changes nothing', async () => {
  const fixture = structuredClone(demoFixture()) as { connections: Record<string, unknown>[] };
  const resource = '6e7f8a9b-0c1d-4e2f-8a3b-4c5d6e7f8a9b';
  fixture.connections.push({
    ...fixture.connections[1],
    id: 'aa0e8a3c-1b2d-4c5e-8f90-1a2b3c4d5e6f',
    project_id: DEMO.projects.legacy,
    connection_name: 'old-crm',
    connection_resource_id: resource,
  });
  const { mock, http } = await freshMock({ fixtures: fixture });
  const before = stateOf(mock);
  const res = await deliver(http, event({ connection_resource_id: resource }));
  assert.is(res.status, 200);
  assert.equal(res.body, { accepted: true, stored: false });
  assert.is(stateOf(mock), before);
});

test('broker webhook: the answer never echoes the payload or a secret', async () => {
  const { http } = await freshMock();
  const res = await deliver(http, event());
  assert.equal(Object.keys(res.body).sort(), ['accepted', 'stored']);
  assert.not.ok(JSON.stringify(res.headers).includes(DEMO.brokerSecret));
});

test('broker webhook: with no broker secret configured, an unsigned event (no header, or an empty one) is refused', async () => {
  const fixture = structuredClone(demoFixture()) as { settings: Record<string, unknown> };
  fixture.settings = { admin_key: DEMO.adminKey };
  const { mock, http } = await freshMock({ fixtures: fixture });
  const before = stateOf(mock);
  const body = JSON.stringify(event());
  for (const headers of [{}, { 'X-Broker-Hmac-Sha256': '' }, { 'X-Broker-Hmac-Sha256': createHmac('sha256', '').update(body).digest('hex') }]) {
    const res = await http
      .post(URL)
      .set({ 'Content-Type': 'application/json', ...headers })
      .send(body);
    assert.is(res.status, 401, JSON.stringify(headers));
    assert.is(res.body.detail.reason_code, 'broker_signature_invalid');
  }
  assert.is(stateOf(mock), before);
});

test.run();
