// The control surface as an admin API: JSON bodies only (415), loopback or allowed Host (421), same-site Origin (403), the control token (401).
import { test } from 'uvu';
import request from 'supertest';
import * as assert from 'uvu/assert';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { isLoopback, requestHost } from '../src/middleware/control-guard.js';
import { CONTROL_OPERATIONS } from '../src/openapi/operations.js';
import { freshMock, stateOf } from './helpers/app.js';
import { DEMO, bearer } from './helpers/demo.js';

const P = DEMO.projects.support;
const RUN = DEMO.runs.waitingApproval;
const envelope = (reason_code: string) => (body: { detail: { reason_code: string } }) => assert.is(body.detail.reason_code, reason_code);

/** A write that changes state, so that a refusal can be seen to change nothing. */
async function dirty(http: Awaited<ReturnType<typeof freshMock>>['http']) {
  const r = await http.post(`/_mock/projects/${P}/runs`).send({ status: 'running' });
  assert.is(r.status, 200);
}

test('control: form posts (text/plain, urlencoded, multipart, xml) are 415 and change nothing', async () => {
  const { mock, http } = await freshMock();
  await dirty(http);
  const before = stateOf(mock);
  const forms: [string, string][] = [
    ['text/plain', '{"status":"running"}'],
    ['application/x-www-form-urlencoded', 'status=running'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'],
    ['application/xml', '<reset/>'],
    ['text/plain', ''],
  ];
  for (const [type, body] of forms) {
    for (const [method, path] of [
      ['post', '/_mock/reset'],
      ['post', `/_mock/projects/${P}/runs`],
      ['put', '/_mock/state'],
      ['post', '/_mock/fixtures'],
      ['post', '/_mock/clock'],
    ] as const) {
      const res = await http[method](path).set('Content-Type', type).send(body);
      assert.is(res.status, 415, `${method} ${path} as ${type}`);
      envelope('unsupported_media_type')(res.body);
    }
  }
  assert.is(stateOf(mock), before);
  assert.is((await mock.control.requests()).length, 0);
});

test('control: JSON media types (with parameters, +json) and untyped requests are accepted', async () => {
  const { mock, http } = await freshMock();
  const clock = await http.post('/_mock/clock').set('Content-Type', 'application/json; charset=utf-8').send('{"advance_ms": 1000}');
  assert.is(clock.status, 200);
  assert.is(clock.body.now, '2026-11-20T12:00:01.000Z');
  const merge = await http.post('/_mock/clock').set('Content-Type', 'Application/Vnd.Api+JSON').send('{"advance_ms": 1000}');
  assert.is(merge.status, 200);
  assert.is(merge.body.now, '2026-11-20T12:00:02.000Z');
  await dirty(http);
  const reset = await http.post('/_mock/reset');
  assert.is(reset.status, 200);
  assert.is(mock.control.exportState().runs.length, (await freshMock()).mock.control.exportState().runs.length);
});

test('control: a Host that is not loopback or allowed is 421 on every /_mock path; nothing changes', async () => {
  const { mock, http } = await freshMock();
  await dirty(http);
  const before = stateOf(mock);
  for (const host of [
    'attacker.example',
    'attacker.example:4010',
    'localhost.attacker.example',
    'evillocalhost',
    'evillocalhost:4010',
    '10.0.0.1',
    '[::2]:80',
    '127.0.0.1.nip.io',
  ]) {
    const reset = await http.post('/_mock/reset').set('Host', host);
    assert.is(reset.status, 421, host);
    envelope('host_not_allowed')(reset.body);
    assert.match(reset.body.detail.message, '--allowed-host');
    assert.is((await http.get('/_mock/state').set('Host', host)).status, 421, host);
    assert.is((await http.put('/_mock/state').set('Host', host).send({})).status, 421, host);
  }
  // The router matches paths in any case; so does the guard. Unknown /_mock paths are refused too.
  // (unchecked client: these paths are not in /openapi.json)
  const raw = request(mock.callback());
  assert.is((await raw.post('/_MOCK/reset').set('Host', 'attacker.example')).status, 421);
  assert.is((await raw.get('/_mock/not-yet-a-route').set('Host', 'attacker.example')).status, 421);
  assert.is(stateOf(mock), before);
  // v3 is not the control surface: any Host is served.
  const run = await http.get(`/api/v3/projects/${P}/runs/${RUN}`).set('Host', 'attacker.example').set(bearer(DEMO.tokens.owner));
  assert.is(run.status, 200);
  assert.is(run.body.id, RUN);
});

test('control: /_mock in any letter case is control traffic: never journaled, never faulted', async () => {
  const { mock, http } = await freshMock();
  await http.post('/_mock/faults').send({ method: '*', path: '/**', status: 503 }).expect(200);
  const raw = request(mock.callback());
  const health = await raw.get('/_MOCK/health');
  assert.is(health.status, 200);
  assert.is(health.body.status, 'ok');
  assert.is(health.headers['x-mock-fault'], undefined);
  assert.equal(mock.control.requests(), []);
});

test('control: loopback names and addresses in any spelling are accepted', async () => {
  const { http } = await freshMock();
  for (const host of [
    'localhost',
    'LOCALHOST:4010',
    'localhost.',
    'web.app.localhost:3000',
    '127.0.0.1',
    '127.1.2.3:9',
    '[::1]',
    '[::1]:4010',
    '[0:0:0:0:0:0:0:1]:80',
    '[::ffff:127.0.0.1]',
  ]) {
    const res = await http.get('/_mock/health').set('Host', host);
    assert.is(res.status, 200, host);
    assert.is(res.body.status, 'ok');
  }
});

test('control: allowedHosts adds names (port, case and trailing dot ignored); * accepts any', async () => {
  const { http } = await freshMock({ allowedHosts: ['mock.internal', 'MOCK2.internal:4010', '192.168.1.5'] });
  for (const host of ['mock.internal', 'Mock.Internal.:4010', 'mock2.internal', '192.168.1.5:4010', 'localhost']) {
    assert.is((await http.get('/_mock/health').set('Host', host)).status, 200, host);
  }
  for (const [host, name] of [
    ['other.internal', 'other.internal'],
    ['sub.mock.internal', 'sub.mock.internal'],
    ['192.168.1.6', '192.168.1.6'],
    ['MOCK.internal.evil:4010', 'mock.internal.evil'],
  ]) {
    const res = await http.get('/_mock/health').set('Host', host);
    assert.is(res.status, 421, host);
    assert.is(res.body.detail.reason_code, 'host_not_allowed');
    assert.is(
      res.body.detail.message,
      `Host ${name} is not allowed on the control surface; allow it with --allowed-host ${name} (createApp({ allowedHosts }))`,
    );
  }
  const any = await freshMock({ allowedHosts: ['*'] });
  assert.is((await any.http.get('/_mock/health').set('Host', 'whatever.example')).status, 200);
});

test('control: a cross-site Origin is 403 even without a body or a Content-Type (fetch no-cors); nothing changes', async () => {
  const { mock, http } = await freshMock({ allowedHosts: ['mock.internal'] });
  await dirty(http);
  const before = stateOf(mock);
  for (const origin of ['http://evil.example', 'https://evil.example:443', 'null', 'file://', 'http://mock.internal.evil.example']) {
    const res = await http.post('/_mock/reset').set('Origin', origin);
    assert.is(res.status, 403, origin);
    envelope('origin_not_allowed')(res.body);
  }
  assert.is(stateOf(mock), before);
  for (const origin of ['http://localhost:3000', 'http://127.0.0.1:4010', 'https://mock.internal']) {
    assert.is((await http.get('/_mock/health').set('Origin', origin)).status, 200, origin);
  }
});

test('control: controlToken makes every /_mock route need X-Mock-Control-Token (401 control_token_invalid otherwise)', async () => {
  const { mock, http } = await freshMock({ controlToken: 's3cret-token' });
  await http.post(`/_mock/projects/${P}/runs`).set('X-Mock-Control-Token', 's3cret-token').send({}).expect(200);
  const before = stateOf(mock);
  for (const given of [undefined, '', 'wrong', 's3cret-token2', 'S3CRET-TOKEN', 's3cret-toke']) {
    let req = http.post('/_mock/reset');
    if (given !== undefined) req = req.set('X-Mock-Control-Token', given);
    const res = await req;
    assert.is(res.status, 401, JSON.stringify(given));
    envelope('control_token_invalid')(res.body);
    assert.is(res.body.detail.next_action, 'check_control_token');
    assert.is(res.headers['www-authenticate'], 'Bearer');
  }
  assert.is(stateOf(mock), before);
  const ok = await http.post('/_mock/reset').set('X-Mock-Control-Token', 's3cret-token');
  assert.is(ok.status, 200);
  assert.is(ok.body.reset, true);
  assert.not.equal(stateOf(mock), before);
  // v3 needs no control token, and the in-process API is not HTTP.
  assert.is((await http.get(`/api/v3/projects/${P}/runs/${RUN}`).set(bearer(DEMO.tokens.owner))).status, 200);
  assert.ok(mock.control.exportState().runs.length > 0);
});

test('control: an empty controlToken is refused at createApp', async () => {
  try {
    await createApp({ storage: 'memory', controlToken: '' });
    assert.unreachable('createApp accepted an empty token');
  } catch (err) {
    assert.match((err as Error).message, 'controlToken');
  }
});

/** Each documented control route with its path parameters filled in. */
const routes = CONTROL_OPERATIONS.map((op) => ({
  method: op.method,
  path: op.path.replace('{project_id}', P).replace('{run_id}', RUN),
}));

test('control: every documented /_mock route is behind the guard (Host, content type, Origin, token)', async () => {
  assert.ok(routes.length >= 18, `${routes.length} routes`);
  const { mock, http } = await freshMock({ controlToken: 'tok' });
  const before = stateOf(mock);
  for (const { method, path } of routes) {
    const call = () => http[method](path);
    const refused = async (res: { status: number; body: { detail: { reason_code: string } } }, status: number, reason: string) => {
      assert.is(res.status, status, `${method} ${path}`);
      assert.is(res.body.detail.reason_code, reason, `${method} ${path}`);
    };
    await refused(await call().set('Host', 'attacker.example').set('X-Mock-Control-Token', 'tok'), 421, 'host_not_allowed');
    await refused(await call().set('X-Mock-Control-Token', 'tok').set('Content-Type', 'text/plain').send('{}'), 415, 'unsupported_media_type');
    await refused(await call().set('X-Mock-Control-Token', 'tok').set('Origin', 'https://evil.example'), 403, 'origin_not_allowed');
    await refused(await call(), 401, 'control_token_invalid');
  }
  assert.is(stateOf(mock), before);
});

test('control: PUT /_mock/state needs a complete document (422 per missing key); nothing changes', async () => {
  const { mock, http } = await freshMock();
  await dirty(http);
  const before = stateOf(mock);
  const empty = await http.put('/_mock/state').send({});
  assert.is(empty.status, 422);
  // Every exported key is required, but simulated_runs: added later, a document exported before it still imports.
  const keys = Object.keys(mock.control.exportState())
    .filter((k) => k !== 'simulated_runs')
    .sort();
  assert.equal(empty.body.detail.map((i: { loc: string[] }) => i.loc[1]).sort(), keys);
  for (const item of empty.body.detail) assert.is(item.type, 'missing');
  assert.is(stateOf(mock), before);

  const full = (await http.get('/_mock/state')).body;
  const { runs: _runs, ...withoutRuns } = full;
  const partial = await http.put('/_mock/state').send(withoutRuns);
  assert.is(partial.status, 422);
  assert.equal(
    partial.body.detail.map((i: { loc: unknown[]; type: string }) => [i.loc, i.type]),
    [[['body', 'runs'], 'missing']],
  );
  assert.is(stateOf(mock), before);

  const array = await http.put('/_mock/state').send([]);
  assert.is(array.status, 422);
  assert.equal(array.body.detail[0].loc, ['body']);
  assert.is(array.body.detail[0].type, 'model_attributes_type');
  try {
    await mock.control.importState({ runs: [] });
    assert.unreachable('importState took a partial document');
  } catch (err) {
    assert.is((err as { items: unknown[] }).items.length, keys.length - 1);
  }
  assert.is(stateOf(mock), before);

  // The whole document, as GET answered it, restores.
  await http.post('/_mock/reset').expect(200);
  const restored = await http.put('/_mock/state').send(full);
  assert.is(restored.status, 200);
  assert.equal(JSON.parse(stateOf(mock)), JSON.parse(before));
});

/** Sends `head` (request line and headers) on a raw socket and returns the status and the body of the answer. */
async function rawExchange(port: number, head: string): Promise<{ status: number; body: string }> {
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(head));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
  const [statusLine] = text.split('\r\n');
  return { status: Number(statusLine.split(' ')[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

test('control: in absolute form the request target names the host (RFC 9112 3.2.2), whatever Host says (raw socket)', async () => {
  const { mock } = await freshMock();
  const server = createServer(mock.callback()).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  try {
    const before = stateOf(mock);
    const evil = await rawExchange(port, 'GET http://evil.example/_mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    assert.is(evil.status, 421);
    const body = JSON.parse(evil.body);
    assert.is(body.detail.reason_code, 'host_not_allowed');
    assert.is(
      body.detail.message,
      'Host evil.example is not allowed on the control surface; allow it with --allowed-host evil.example (createApp({ allowedHosts }))',
    );
    assert.not.ok(evil.body.includes('"projects"'), 'no state in the answer');
    // userinfo does not hide the host; a write in absolute form changes nothing.
    assert.is(
      (await rawExchange(port, 'GET http://127.0.0.1@evil.example:80/_mock/state HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')).status,
      421,
    );
    const reset = await rawExchange(port, 'POST http://evil.example/_mock/reset HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    assert.is(reset.status, 421);
    assert.is(stateOf(mock), before);
    // A loopback authority in absolute form is served, even with a foreign Host header (the target wins).
    const ok = await rawExchange(port, 'GET http://127.0.0.1/_mock/health HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
    assert.is(ok.status, 200);
    assert.is(JSON.parse(ok.body).status, 'ok');
    // Origin form still checks the Host header.
    assert.is((await rawExchange(port, 'GET /_mock/health HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n')).status, 421);
  } finally {
    server.close();
  }
});

test('control: requestHost takes the authority of an absolute target and the Host header otherwise', () => {
  assert.is(requestHost('/_mock/state', 'localhost:4010'), 'localhost:4010');
  assert.is(requestHost('*', 'localhost'), 'localhost');
  assert.is(requestHost('http://evil.example/_mock/state', '127.0.0.1'), 'evil.example');
  assert.is(requestHost('http://EVIL.example:8080/_mock', '127.0.0.1'), 'evil.example:8080');
  assert.is(requestHost('https://[::1]:4010/_mock', 'evil.example'), '[::1]:4010');
  assert.is(requestHost('http://127.0.0.1@evil.example/_mock', '127.0.0.1'), 'evil.example');
  assert.is(requestHost('mailto:someone', '127.0.0.1'), '[invalid]');
  assert.is(requestHost('http//no-scheme', '127.0.0.1'), '[invalid]');
});

test('control: isLoopback: localhost and *.localhost (RFC 6761), 127/8 and ::1; names that only end in "localhost" are not', () => {
  for (const name of ['localhost', 'x.localhost', 'a.b.localhost', '127.0.0.1', '127.255.255.254', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) {
    assert.is(isLoopback(name), true, name);
  }
  for (const name of ['evillocalhost', 'localhost.evil', 'localhostx', 'x.localhost.evil', '128.0.0.1', '126.255.255.255', '::2', '0.0.0.0', '', 'invalid']) {
    assert.is(isLoopback(name), false, name);
  }
});

test.run();
