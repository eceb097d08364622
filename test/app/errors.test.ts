// Error shapes and status mapping: validation items, envelopes, unknown routes, limits; refusals change nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, stateOf } from '../helpers/app.js';
import { bearer, DEMO } from '../helpers/demo.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const cancelPath = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`;
const deletePath = `/api/v3/projects/${P}`;

test('malformed JSON: 422 json_invalid at the offset where parsing failed', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const res = await http.post(cancelPath).set(owner).set('Content-Type', 'application/json').send('{"reason": }');
  assert.is(res.status, 422);
  assert.is(res.body.detail.length, 1);
  assert.is(res.body.detail[0].type, 'json_invalid');
  assert.equal(res.body.detail[0].loc, ['body', 11]);
  assert.is(res.body.detail[0].msg, 'JSON decode error');
  assert.is(stateOf(mock), before);
});

test('truncated JSON: 422 json_invalid at the end of the body', async () => {
  const { http } = await freshMock();
  const body = '{"reason": "x"';
  const res = await http.post(cancelPath).set(owner).set('Content-Type', 'application/json').send(body);
  assert.is(res.status, 422);
  assert.is(res.body.detail[0].type, 'json_invalid');
  assert.equal(res.body.detail[0].loc, ['body', body.length]);
});

test('JSON that is not an object: 422 model_attributes_type at ["body"] with the value as input (as pydantic answers)', async () => {
  const { http } = await freshMock();
  const res = await http.post(cancelPath).set(owner).set('Content-Type', 'application/json').send('"just a string"');
  assert.is(res.status, 422);
  assert.equal(res.body.detail, [
    { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: 'just a string' },
  ]);
});

test('__proto__ key anywhere in the body: 422, state unchanged', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const res = await http
    .delete(deletePath)
    .set(owner)
    .set('Content-Type', 'application/json')
    .send('{"confirmation": "support-desk", "x": {"__proto__": {"admin": true}}}');
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['body']);
  assert.is(stateOf(mock), before);
});

test('required body absent: 422 missing at ["body"]', async () => {
  const { http } = await freshMock();
  const res = await http.delete(deletePath).set(owner);
  assert.is(res.status, 422);
  assert.equal(res.body.detail, [{ loc: ['body'], msg: 'Field required', type: 'missing', input: null }]);
});

test('non-UUID path id: 422 with loc ["path", name]', async () => {
  const { http } = await freshMock();
  for (const [path, name] of [
    [`/api/v3/projects/nope/runs/${DEMO.runs.failedApi}`, 'project_id'],
    [`/api/v3/projects/${P}/runs/12345`, 'run_id'],
    [`/api/v3/projects/${P}/users/not-a-user`, 'user_id'],
  ]) {
    const res = await http.get(path).set(owner);
    assert.is(res.status, 422, path);
    assert.equal(res.body.detail[0].loc, ['path', name]);
    assert.is(res.body.detail[0].type, 'uuid_parsing');
  }
});

test('out-of-range and non-integer query values: 422 at ["query", name]', async () => {
  const { http } = await freshMock();
  for (const [query, type] of [
    ['limit=0', 'greater_than_equal'],
    ['limit=201', 'less_than_equal'],
    ['limit=ten', 'int_parsing'],
  ]) {
    const res = await http.get(`/api/v3/projects/${P}/users?${query}`).set(owner);
    assert.is(res.status, 422, query);
    assert.equal(res.body.detail[0].loc, ['query', 'limit']);
    assert.is(res.body.detail[0].type, type);
  }
});

test('unknown enum filter value: 422 with the expected values in ctx', async () => {
  const { http } = await freshMock();
  const res = await http.get(`/api/v3/projects/${P}/approvals?status=maybe`).set(owner);
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['query', 'status']);
  assert.is(res.body.detail[0].type, 'enum');
  assert.ok(res.body.detail[0].ctx.expected.includes('pending'));
});

test('unknown route: 404 route_not_found envelope', async () => {
  const { http } = await freshMock();
  const res = await http.get('/api/v3/nothing/here').set(owner);
  assert.is(res.status, 404);
  assert.is(res.body.detail.reason_code, 'route_not_found');
  assert.type(res.body.detail.message, 'string');
});

test('known route, wrong method: 405 method_not_allowed with Allow', async () => {
  const { http } = await freshMock();
  const res = await http.patch(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`).set(owner);
  assert.is(res.status, 405);
  assert.is(res.body.detail.reason_code, 'method_not_allowed');
  assert.match(res.headers.allow ?? '', /GET/);
});

test('body over the limit: 413 payload_too_large, state unchanged', async () => {
  const { mock, http } = await freshMock({ bodyLimit: 1024 });
  const before = stateOf(mock);
  const res = await http
    .post(cancelPath)
    .set(owner)
    .set('Content-Type', 'application/json')
    .send(JSON.stringify({ reason: 'x'.repeat(4096) }));
  assert.is(res.status, 413);
  assert.is(res.body.detail.reason_code, 'payload_too_large');
  assert.is(stateOf(mock), before);
});

test('wrong body field type: 422 at the field with the pydantic-style type', async () => {
  const { http } = await freshMock();
  const res = await http.delete(deletePath).set(owner).send({ confirmation: 42 });
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['body', 'confirmation']);
  assert.is(res.body.detail[0].type, 'string_type');
  assert.is(res.body.detail[0].input, 42);
});

test('a JSON array where an object is expected: 422 (top level and nested free-form objects)', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const top = await http.post(cancelPath).set(owner).send([1]);
  assert.is(top.status, 422);
  assert.equal(top.body.detail[0].loc, ['body']);
  assert.is(top.body.detail[0].type, 'model_attributes_type');
  const nested = await http
    .post(`/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`)
    .set(owner)
    .send({ metadata: [1] });
  assert.is(nested.status, 422);
  assert.equal(nested.body.detail[0].loc, ['body', 'metadata']);
  assert.is(stateOf(mock), before);
});

test('body limit: 1 MiB by default (413 one byte above it, accepted at it), on JSON and raw (broker) bodies', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const LIMIT = 1024 * 1024;
  /** A cancel body of exactly `size` bytes. */
  const sized = (size: number) => {
    const frame = JSON.stringify({ reason: '' });
    return JSON.stringify({ reason: 'x'.repeat(size - frame.length) });
  };
  assert.is(Buffer.byteLength(sized(LIMIT + 1)), LIMIT + 1);
  const over = await http
    .post(cancelPath)
    .set(owner)
    .set('Content-Type', 'application/json')
    .send(sized(LIMIT + 1));
  assert.is(over.status, 413);
  assert.is(over.body.detail.reason_code, 'payload_too_large');
  assert.is(stateOf(mock), before);
  const at = await http.post(cancelPath).set(owner).set('Content-Type', 'application/json').send(sized(LIMIT));
  assert.is(at.status, 200, JSON.stringify(at.body).slice(0, 200));
  assert.is(at.body.status, 'cancelled');
  const raw = await http
    .post('/api/v3/webhooks/broker')
    .set('Content-Type', 'application/json')
    .set('X-Broker-Hmac-Sha256', '0'.repeat(64))
    .send(sized(LIMIT + 1));
  assert.is(raw.status, 413);
  assert.is(raw.body.detail.reason_code, 'payload_too_large');
});

test.run();
