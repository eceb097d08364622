// Request bodies as FastAPI reads them: content types, encodings, Python's JSON decoder, and the nesting limit.
// Every refusal is a 4xx of the contract's shape and changes nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app.js';
import { demoFixture, FixtureError } from '../../src/fixtures.js';
import { signBrokerPayload } from '../../src/client-helpers.js';
import { pyJsonLoads } from '../../src/body/python-json.js';
import { ValidationError } from '../../src/validation.js';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { runCliToExit } from '../helpers/cli.js';

const P = DEMO.projects.support;
const operator = bearer(DEMO.tokens.operator);
const cancelPath = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`;
const retryPath = `/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`;
const budgetPath = `/api/v3/projects/${P}/budget`;
const nested = (n: number, inner = '1') => `${'['.repeat(n)}${inner}${']'.repeat(n)}`;

/** A request through a real socket, so no client library adds or rewrites headers. */
async function send(method: string, path: string, headers: Record<string, string>, body?: Uint8Array | string) {
  const { mock } = await freshMock();
  const server = mock.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const before = stateOf(mock);
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { method, headers, body });
    return { status: res.status, body: (await res.json()) as any, changed: stateOf(mock) !== before, mock };
  } finally {
    await new Promise((r) => server.close(r));
  }
}

// ---- content types: JSON only for a JSON Content-Type, as FastAPI reads bodies ----

test('content type: a non-JSON type with a body is 422 model_attributes_type at ["body"] (input: the text), and changes nothing', async () => {
  const text = JSON.stringify({ project_daily_usd: 5 });
  const budget = await send('PUT', budgetPath, { ...operator, 'content-type': 'text/plain' }, text);
  assert.is(budget.status, 422);
  assert.equal(budget.body.detail, [
    { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: text },
  ]);
  assert.not.ok(budget.changed, 'a refused budget PUT must not raise the epoch');
  const cancel = await send('POST', cancelPath, { ...operator, 'content-type': 'application/xml' }, '<cancel/>');
  assert.is(cancel.status, 422);
  assert.equal(cancel.body.detail[0].loc, ['body']);
  assert.not.ok(cancel.changed, 'an XML cancel must not cancel');
});

test('content type: none, application/json (any case, any parameters) and application/*+json are JSON', async () => {
  for (const type of [undefined, 'application/json', 'APPLICATION/JSON; charset=latin-1', 'application/merge-patch+json', ' application/vnd.api+json ; v=1']) {
    const headers: Record<string, string> = { ...operator, ...(type === undefined ? {} : { 'content-type': type }) };
    const res = await send('PUT', budgetPath, headers, new TextEncoder().encode('{"project_daily_usd": 7}'));
    assert.is(res.status, 200, `${type}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.limits.project_daily_usd, 7, String(type));
  }
  // application/json/x is not one type/subtype: Python's email package reads it as text/plain.
  assert.is((await send('PUT', budgetPath, { ...operator, 'content-type': 'application/json/x' }, '{}')).status, 422);
});

test('content type: an empty body is no body whatever its type (optional body: defaults; required: missing)', async () => {
  const cancel = await send('POST', cancelPath, { ...operator, 'content-type': 'text/plain' }, '');
  assert.is(cancel.status, 200, JSON.stringify(cancel.body));
  assert.is(cancel.body.status, 'cancelled');
  const del = await send('DELETE', `/api/v3/projects/${P}`, { ...bearer(DEMO.tokens.owner), 'content-type': 'application/json' }, 'null');
  assert.equal(del.body.detail, [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
});

// ---- encodings: Starlette does not decode Content-Encoding ----

test('encoding: Content-Encoding is not decoded; compressed bytes are 400 body_unreadable, never 500, and change nothing', async () => {
  const json = JSON.stringify({ reason: 'zipped' });
  for (const encoding of ['gzip', 'br', 'deflate']) {
    const res = await send('POST', cancelPath, { ...operator, 'content-type': 'application/json', 'content-encoding': encoding }, gzipSync(json));
    assert.is(res.status, 400, encoding);
    assert.is(res.body.detail.reason_code, 'body_unreadable');
    assert.not.ok(res.changed);
  }
});

test('encoding: a body sent with a Content-Encoding it does not have (or an unknown one) is read as it is', async () => {
  for (const encoding of ['gzip', 'br', 'x-unknown']) {
    const res = await send('PUT', budgetPath, { ...operator, 'content-type': 'application/json', 'content-encoding': encoding }, '{"project_daily_usd": 9}');
    assert.is(res.status, 200, `${encoding}: ${JSON.stringify(res.body)}`);
  }
});

test('encoding: bytes are decoded as json.loads decodes them (UTF-8 with or without BOM, UTF-16, UTF-32); others are 400', async () => {
  const text = '{"project_daily_usd": 8}';
  const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const utf32be = Buffer.alloc(text.length * 4);
  [...text].forEach((c, i) => utf32be.writeUInt32BE(c.codePointAt(0)!, i * 4));
  for (const bytes of [Buffer.from(`\uFEFF${text}`), utf16le, utf32be]) {
    const res = await send('PUT', budgetPath, { ...operator, 'content-type': 'application/json' }, bytes);
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.limits.project_daily_usd, 8);
  }
  const bad = await send('PUT', budgetPath, { ...operator, 'content-type': 'application/json' }, Buffer.from([0x7b, 0xc3, 0x28, 0x7d]));
  assert.is(bad.status, 400);
  assert.is(bad.body.detail.reason_code, 'body_unreadable');
});

// ---- Python's JSON decoder: json_invalid ctx.error and offset ----

test('json_invalid: ctx.error and the offset are what CPython 3.13 json.loads reports', () => {
  const cases: [string, string, number][] = [
    [' ', 'Expecting value', 1],
    ['{"reason": }', 'Expecting value', 11],
    ['{"reason": "x"', "Expecting ',' delimiter", 14],
    ['{"reason" "x"}', "Expecting ':' delimiter", 10],
    ["{'reason': 'x'}", 'Expecting property name enclosed in double quotes', 1],
    ['{"reason": "x",}', 'Illegal trailing comma before end of object', 14],
    ['[1,]', 'Illegal trailing comma before end of array', 2],
    ['{"reason": "x"} x', 'Extra data', 16],
    ['{"reason": "a\u0001"}', 'Invalid control character at', 13],
    ['{"reason": "\\x"}', 'Invalid \\escape', 12],
    ['{"reason": "\\u12"}', 'Invalid \\uXXXX escape', 13],
    ['{"reason": "abc', 'Unterminated string starting at', 11],
    ['[1 2]', "Expecting ',' delimiter", 3],
    ['1.', 'Extra data', 1],
    ['-', 'Expecting value', 0],
    ['{"a": tru}', 'Expecting value', 6],
    ['{"😀": x}', 'Expecting value', 6], // offsets count code points, as Python's str does
  ];
  for (const [text, error, pos] of cases) assert.equal(pyJsonLoads(text), { ok: false, msg: error, pos }, text);
  assert.equal(pyJsonLoads('{"a": [NaN, Infinity, -Infinity, 1e400]}'), { ok: true, value: { a: [NaN, Infinity, -Infinity, Infinity] } });
});

test('json_invalid over HTTP: loc ["body", offset], input {}, ctx.error Python\'s message', async () => {
  const res = await send('POST', cancelPath, { ...operator, 'content-type': 'application/json' }, '{"reason": "x",}');
  assert.equal(res.body.detail, [
    { type: 'json_invalid', loc: ['body', 14], msg: 'JSON decode error', input: {}, ctx: { error: 'Illegal trailing comma before end of object' } },
  ]);
  // Python reads NaN and Infinity: the body decodes, and the number field refuses the value.
  const inf = await send('PUT', budgetPath, { ...operator, 'content-type': 'application/json' }, '{"project_daily_usd": Infinity}');
  assert.equal(inf.body.detail, [{ type: 'finite_number', loc: ['body', 'project_daily_usd'], msg: 'Input should be a finite number', input: null }]);
});

// ---- nesting: no deeper than MAX_JSON_DEPTH, checked on the text before parsing ----

test('nesting: a 10,000-deep top-level array is a JSON 422 json_invalid at the bracket that goes past 64, not a 500', async () => {
  const res = await send('POST', cancelPath, { ...operator, 'content-type': 'application/json' }, nested(10_000));
  assert.is(res.status, 422);
  assert.equal(res.body.detail, [
    { type: 'json_invalid', loc: ['body', 64], msg: 'JSON decode error', input: {}, ctx: { error: 'Nesting deeper than 64 levels' } },
  ]);
  assert.not.ok(res.changed);
});

test('nesting: 64 levels are accepted, 65 refused (a retry whose metadata is the nesting)', async () => {
  const { mock, http } = await freshMock();
  const ok = await http
    .post(retryPath)
    .set(operator)
    .set('Content-Type', 'application/json')
    .send(`{"metadata": {"a": ${nested(62)}}}`);
  assert.is(ok.status, 201, JSON.stringify(ok.body).slice(0, 200));
  const before = stateOf(mock);
  const deep = await http
    .post(retryPath)
    .set(operator)
    .set('Content-Type', 'application/json')
    .send(`{"metadata": {"a": ${nested(63)}}}`);
  assert.is(deep.status, 422);
  assert.is(deep.body.detail[0].type, 'json_invalid');
  assert.is(stateOf(mock), before);
});

test('nesting: a 5,000-deep retry metadata, broker health or bundle manifest is a 422, and every later write and state read works', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const retry = await http
    .post(retryPath)
    .set(operator)
    .set('Content-Type', 'application/json')
    .send(`{"metadata": {"x": ${nested(5000)}}}`);
  assert.is(retry.status, 422);
  const health = `{"event_id":"e1","event_type":"connection.refreshed","connection_resource_id":"a6a48f50-71c5-4c54-a80a-0b8eaf0d93e0","occurred_at":"2026-11-20T11:59:30Z","health":{"x":${nested(10_000)}}}`;
  const signed = signBrokerPayload(health, DEMO.brokerSecret);
  const broker = await http.post('/api/v3/webhooks/broker').set(signed.headers).send(signed.body);
  assert.is(broker.status, 422);
  const { body: head } = await http.get(`/_mock/projects/${P}/desired-state`);
  const manifest = `metadata: {x: ${nested(5000)}}`;
  const plan = await http
    .post(`/api/v3/projects/${P}/desired-state/plan`)
    .set(operator)
    .send({ base_revision_id: head.head.revision_id, bundle: { manifest } });
  assert.is(plan.status, 422, JSON.stringify(plan.body).slice(0, 300));
  assert.equal(plan.body.detail[0].loc, ['body', 'bundle', 'manifest']);
  assert.is(stateOf(mock), before);
  assert.is(
    (
      await http
        .post(retryPath)
        .set(operator)
        .send({ metadata: { ok: true } })
    ).status,
    201,
  );
  assert.is((await http.get('/_mock/state')).status, 200);
});

test('nesting: values handed in process (control API, fixtures) are refused the same way, before anything recursive sees them', async () => {
  let deep: unknown = 1;
  for (let i = 0; i < 5000; i++) deep = { x: deep };
  const { mock } = await freshMock();
  const before = stateOf(mock);
  try {
    await mock.control.createRun(P, { request_metadata: deep as Record<string, unknown> });
    assert.unreachable('a deep request_metadata must be refused');
  } catch (err) {
    assert.instance(err, ValidationError);
  }
  assert.is(stateOf(mock), before);
  try {
    await createApp({ storage: 'memory', fixtures: { ...(demoFixture() as object), settings: { admin_key: deep } } });
    assert.unreachable('a deep fixture must be refused');
  } catch (err) {
    assert.instance(err, FixtureError);
    assert.match((err as Error).message, /nested deeper than 64 levels/);
  }
});

test('nesting: a 5,000-deep fixture file stops the CLI with one clear message and exit 1', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prm-deep-'));
  try {
    const file = join(dir, 'deep.json');
    writeFileSync(file, `{"projects": ${nested(5000, '{}')}}`);
    const { code, stderr } = await runCliToExit(['--memory', '--port', '0', '--fixtures', file]);
    assert.is(code, 1);
    assert.match(stderr, /nested deeper than 64 levels/);
    assert.not.match(stderr, /\n\s+at /, 'no stack trace');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
