// mock.intercept: global fetch, node:http, node:https and axios reach the mock at a real origin; other origins pass through; restore leaves no trace.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import axios from 'axios';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from '../helpers/demo.js';
import { createClient } from '../../src/client/index.js';

const ORIGIN = 'https://api.example.test';
const P = DEMO.projects.support;
const RUN = DEMO.runs.failedApi;
const runPath = `/api/v3/projects/${P}/runs/${RUN}`;
const owner = { authorization: `Bearer ${DEMO.tokens.owner}` };
const fresh = () => createApp({ storage: 'memory', fixtures: demoFixture() });

/** A real local server that answers "real" to everything, to see what passes through. */
let real: http.Server;
let realOrigin: string;
test.before(async () => {
  real = http.createServer((req, res) => res.end(`real ${req.method} ${req.url}`));
  await new Promise<void>((r) => real.listen(0, '127.0.0.1', r));
  realOrigin = `http://127.0.0.1:${(real.address() as AddressInfo).port}`;
});
test.after(() => new Promise<void>((r) => real.close(() => r())));

/** node:http(s).request, collected as status and text. */
function nodeRequest(
  url: string,
  options: http.RequestOptions = {},
  body?: string,
): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }> {
  const mod = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(url, options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('intercept: global fetch, node:https, node:http and axios all reach the mock', async () => {
  const mock = await fresh();
  const expected = await (await mock.fetch(runPath, { headers: owner })).json();
  using _handle = mock.intercept(ORIGIN);
  const viaFetch = await fetch(`${ORIGIN}${runPath}`, { headers: owner });
  assert.is(viaFetch.status, 200);
  assert.equal(await viaFetch.json(), expected);
  const viaHttps = await nodeRequest(`${ORIGIN}${runPath}`, { headers: owner });
  assert.is(viaHttps.status, 200);
  assert.equal(JSON.parse(viaHttps.text), expected);
  assert.match(String(viaHttps.headers['content-type']), /^application\/json/);
  const viaAxios = await axios.get(`${ORIGIN}${runPath}`, { headers: owner });
  assert.is(viaAxios.status, 200);
  assert.equal(viaAxios.data, expected);
  // A write through axios: body, content type and status as over a socket.
  const cancel = await axios.post(`${ORIGIN}/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`, { reason: 'axios' }, { headers: owner });
  assert.is(cancel.status, 200);
  assert.is(cancel.data.status, 'cancelled');
  const refused = await axios.get(`${ORIGIN}${runPath}`, { validateStatus: () => true });
  assert.is(refused.status, 401);
  assert.is(refused.data.detail.reason_code, 'authentication_required');
  // Every one of them is in the mock's journal (after the mock.fetch above).
  assert.equal(
    mock.control.requests().map((e) => [e.method, e.status]),
    [
      ['GET', 200],
      ['GET', 200],
      ['GET', 200],
      ['GET', 200],
      ['POST', 200],
      ['GET', 401],
    ],
  );
  assert.equal(mock.control.requests()[4].request.body, { reason: 'axios' });
});

test('intercept: plain http origins with a port, over node:http', async () => {
  const mock = await fresh();
  const origin = 'http://mock.internal:8080';
  const handle = mock.intercept(origin);
  try {
    const res = await nodeRequest(`${origin}${runPath}`, { headers: owner });
    assert.is(res.status, 200);
    assert.is(JSON.parse(res.text).id, RUN);
    assert.is(mock.control.requests()[0].request.headers.host, 'mock.internal:8080');
  } finally {
    handle.restore();
  }
});

test('intercept: other origins pass through; onUnhandled "error" fails them instead', async () => {
  const mock = await fresh();
  const handle = mock.intercept(ORIGIN);
  try {
    assert.is(await (await fetch(`${realOrigin}/x`)).text(), 'real GET /x');
    assert.is((await nodeRequest(`${realOrigin}/y`)).text, 'real GET /y');
  } finally {
    handle.restore();
  }
  const strict = mock.intercept(ORIGIN, { onUnhandled: 'error' });
  try {
    await fetch(`${realOrigin}/x`).then(
      () => assert.unreachable('an unhandled origin must fail'),
      (err: Error) => assert.instance(err, TypeError),
    );
    await nodeRequest(`${realOrigin}/y`).then(
      () => assert.unreachable('an unhandled origin must fail'),
      (err: Error) => assert.match(String(err.message), /no intercept handles GET http:\/\/127\.0\.0\.1:\d+\/y/),
    );
    assert.is((await fetch(`${ORIGIN}${runPath}`, { headers: owner })).status, 200);
  } finally {
    strict.restore();
  }
  assert.is(await (await fetch(`${realOrigin}/z`)).text(), 'real GET /z');
});

test('intercept: restore() leaves global fetch and node:http(s) exactly as they were, and stops answering', async () => {
  const before = [globalThis.fetch, http.request, http.get, http.ClientRequest, https.request, https.get];
  const mock = await fresh();
  const handle = mock.intercept(realOrigin);
  assert.is.not(globalThis.fetch, before[0]);
  assert.is.not(http.request, before[1]);
  assert.is(((await (await fetch(`${realOrigin}${runPath}`)).json()) as { detail: { reason_code: string } }).detail.reason_code, 'authentication_required');
  handle.restore();
  handle.restore(); // twice is harmless
  assert.ok([globalThis.fetch, http.request, http.get, http.ClientRequest, https.request, https.get].every((f, i) => f === before[i]));
  assert.is(await (await fetch(`${realOrigin}${runPath}`)).text(), `real GET ${runPath}`);
  // `using` and `await using` restore at the end of the block.
  {
    using _h = mock.intercept(realOrigin);
    assert.is.not(globalThis.fetch, before[0]);
  }
  assert.is(globalThis.fetch, before[0]);
  {
    await using _h = mock.intercept(realOrigin);
    assert.is.not(http.request, before[1]);
  }
  assert.is(http.request, before[1]);
});

test('intercept: two mocks on two origins at once stay apart; one origin cannot be taken twice', async () => {
  const a = await fresh();
  const b = await createApp({ storage: 'memory', fixtures: demoFixture(), auth: 'off' });
  const ha = a.intercept('https://a.example.test');
  const hb = b.intercept(['https://b.example.test', 'https://b2.example.test/']);
  try {
    assert.equal(hb.origins, ['https://b.example.test', 'https://b2.example.test']);
    assert.throws(() => b.intercept('https://a.example.test'), /already intercepted by another mock/);
    assert.is((await fetch(`https://a.example.test${runPath}`)).status, 401); // a: auth on
    assert.is((await fetch(`https://b.example.test${runPath}`)).status, 200); // b: auth off
    assert.is((await axios.get(`https://b2.example.test${runPath}`)).status, 200);
    assert.is(a.control.requests().length, 1);
    assert.is(b.control.requests().length, 2);
    // Restoring one leaves the other answering.
    ha.restore();
    assert.is((await fetch(`https://b.example.test${runPath}`)).status, 200);
    assert.is(b.control.requests().length, 3);
    assert.is(a.control.requests().length, 1);
  } finally {
    ha.restore();
    hb.restore();
  }
});

test('intercept: faults apply to intercepted requests (a delay delays, a status answers)', async () => {
  const mock = await fresh();
  using _h = mock.intercept(ORIGIN);
  const fault = mock.control.addFault({ method: 'GET', path: runPath, status: 502, times: 1 });
  mock.control.addFault({ method: 'GET', path: runPath, delay_ms: 30, times: 1 });
  const first = await axios.get(`${ORIGIN}${runPath}`, { headers: owner, validateStatus: () => true });
  assert.is(first.status, 502);
  assert.is(first.headers['x-mock-fault'], fault.id);
  const second = await fetch(`${ORIGIN}${runPath}`, { headers: owner });
  assert.is(second.status, 200);
  const [, e] = mock.control.requests();
  assert.is(e.fault?.delay_ms, 30);
  assert.ok(e.duration_ms >= 29, `${e.duration_ms}`);
});

test('intercept: a client timeout fires while a delay fault holds the answer (the jest recipe)', async () => {
  const mock = await fresh();
  using _h = mock.intercept(ORIGIN);
  mock.control.addFault({ method: 'GET', path: '/api/v3/projects/*/runs/*', delay_ms: 1000, times: 1 });
  await fetch(`${ORIGIN}${runPath}`, { headers: owner, signal: AbortSignal.timeout(50) }).then(
    () => assert.unreachable('the timeout must win'),
    (err: Error) => assert.is(err.name, 'TimeoutError'),
  );
  // The fault was used up; the next request is answered at once.
  assert.is((await fetch(`${ORIGIN}${runPath}`, { headers: owner })).status, 200);
});

test('intercept: origins are checked', () => {
  const mock = { intercept: (o: string) => createApp({ storage: 'memory' }).then((m: MockApp) => m.intercept(o)) };
  return Promise.all([
    mock.intercept('https://x.test/api').then(
      () => assert.unreachable(),
      (e: Error) => assert.match(e.message, /not a URL with a path/),
    ),
    mock.intercept('ftp://x.test').then(
      () => assert.unreachable(),
      (e: Error) => assert.match(e.message, /not an http\(s\) origin/),
    ),
  ]).then(() => undefined);
});

test('intercept: the typed client reaches the intercept whether it was created before or after it', async () => {
  const mock = await fresh();
  const before = createClient({ baseUrl: ORIGIN, token: DEMO.tokens.owner });
  const strayBefore = createClient({ baseUrl: realOrigin, token: DEMO.tokens.owner });
  const handle = mock.intercept(ORIGIN, { onUnhandled: 'error' });
  try {
    const after = createClient({ baseUrl: ORIGIN, token: DEMO.tokens.owner });
    const strayAfter = createClient({ baseUrl: realOrigin, token: DEMO.tokens.owner });
    for (const client of [before, after]) {
      const { data, response } = await client.getRun(P, RUN);
      assert.is(response.status, 200);
      assert.is(data?.id, RUN);
    }
    assert.equal(
      mock.control.requests().map((e) => [e.operation, e.status]),
      [
        ['getRun', 200],
        ['getRun', 200],
      ],
    );
    // An origin nobody handles is refused with onUnhandled 'error', whichever client sends it; nothing reaches the real server.
    for (const stray of [strayBefore, strayAfter]) {
      await stray.getRun(P, RUN).then(
        () => assert.unreachable('an unhandled origin must fail'),
        (err: Error) => assert.instance(err, TypeError),
      );
    }
  } finally {
    handle.restore();
  }
  // Restored: the client made before the intercept now reaches the real server (its text is not JSON), as global fetch does.
  await strayBefore.getRun(P, RUN).then(
    () => assert.unreachable('the real server answers text'),
    (err: Error) => assert.match(err.message, /"real GET \//),
  );
});

test.run();
