// The control surface's Host check: loopback or allowed names only (421), in any spelling, and in absolute form the
// request target's authority, whatever the Host header says.
import { test } from 'uvu';
import request from 'supertest';
import * as assert from 'uvu/assert';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { isLoopback, requestHost } from '../../src/middleware/control-guard.js';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { dirty, envelope } from '../helpers/control-refusals.js';

const P = DEMO.projects.support;
const RUN = DEMO.runs.waitingApproval;

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

test('control: in absolute form the request target names the host (RFC 9112 3.2.2); a Host that disagrees is 400 (raw socket)', async () => {
  const { mock } = await freshMock();
  const server = createServer(mock.callback()).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  try {
    const before = stateOf(mock);
    const evil = await rawExchange(port, 'GET http://evil.example/_mock/state HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
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
      (await rawExchange(port, 'GET http://127.0.0.1@evil.example:80/_mock/state HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n')).status,
      421,
    );
    const reset = await rawExchange(
      port,
      'POST http://evil.example/_mock/reset HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
    );
    assert.is(reset.status, 421);
    // A Host that names another host than the target is refused before the guard: neither can be trusted.
    const split = await rawExchange(port, 'POST http://evil.example/_mock/reset HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    assert.is(split.status, 400);
    assert.is(JSON.parse(split.body).detail.reason_code, 'host_invalid');
    assert.is(stateOf(mock), before);
    // A loopback authority in absolute form is served when Host agrees with it.
    const ok = await rawExchange(port, 'GET http://127.0.0.1/_mock/health HTTP/1.1\r\nHost: 127.0.0.1:80\r\nConnection: close\r\n\r\n');
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
