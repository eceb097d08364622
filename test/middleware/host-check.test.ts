// An ambiguous Host is 400 `host_invalid` before any route runs, on v3, /_mock and sandbox paths alike: two Host headers
// (Node keeps the first, a proxy may have used the second), or a Host that disagrees with an absolute-form target.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import type { MockApp } from '../../src/app.js';

let server: Server;
let port = 0;
let mock: MockApp;
test.before(async () => {
  ({ mock } = await freshMock());
  server = createServer(mock.callback()).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
});
test.after(() => void server.close());

/** Sends `head` as written (no client adds or merges headers) and reads the whole answer. */
async function raw(head: string): Promise<{ status: number; body: unknown }> {
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(head));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  return { status: Number(text.split(' ')[1]), body: body.startsWith('{') ? JSON.parse(body) : body };
}

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}`;
const AUTH = `Authorization: Bearer ${DEMO.tokens.owner}\r\n`;
const refused = (message: string) => ({
  status: 400,
  body: { detail: { reason_code: 'host_invalid', message } },
});

test('two Host headers are 400 on a v3 read, a control read and a control write; the write changes nothing', async () => {
  const before = stateOf(mock);
  const two = 'The request has 2 Host headers; send one.';
  assert.equal(await raw(`GET ${RUN} HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n${AUTH}Connection: close\r\n\r\n`), refused(two));
  // The first is loopback, the second is not: the guard alone would have let it through.
  assert.equal(await raw('GET /_mock/state HTTP/1.1\r\nHost: localhost\r\nhost: evil.example\r\nConnection: close\r\n\r\n'), refused(two));
  assert.equal(
    await raw('POST /_mock/reset HTTP/1.1\r\nHOST: localhost\r\nHost: localhost\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'),
    refused('The request has 3 Host headers; send one.'),
  );
  assert.is(stateOf(mock), before);
  // Nothing reached a mock: no journal entry.
  assert.is(mock.control.requests().length, 0);
});

test('a Host that disagrees with an absolute-form target is 400; one that agrees (the scheme port implied) is served', async () => {
  const target = `http://127.0.0.1:${port}${RUN}`;
  assert.equal(
    await raw(`GET ${target} HTTP/1.1\r\nHost: localhost:${port}\r\n${AUTH}Connection: close\r\n\r\n`),
    refused('The Host header (localhost) does not name the host of the request target.'),
  );
  assert.equal(
    await raw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port + 1}\r\n${AUTH}Connection: close\r\n\r\n`),
    refused('The Host header (127.0.0.1) does not name the host of the request target.'),
  );
  assert.equal(
    await raw(`GET http://a.example/ HTTP/1.1\r\nHost: a.example:81\r\nConnection: close\r\n\r\n`),
    refused('The Host header (a.example) does not name the host of the request target.'),
  );
  const same = await raw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${AUTH}Connection: close\r\n\r\n`);
  assert.is(same.status, 200);
  assert.is((same.body as { id: string }).id, DEMO.runs.waitingApproval);
  const implied = await raw(`GET http://127.0.0.1${RUN} HTTP/1.1\r\nHost: 127.0.0.1:80\r\n${AUTH}Connection: close\r\n\r\n`);
  assert.is(implied.status, 200);
  // One Host in origin form is what every client sends: served.
  assert.is((await raw(`GET ${RUN} HTTP/1.1\r\nHost: 127.0.0.1\r\n${AUTH}Connection: close\r\n\r\n`)).status, 200);
});

test('a sandbox named by host is refused alike when a second Host names another (no sandbox is addressed)', async () => {
  const sb = await mock.control.createSandbox({});
  const answer = await raw(`GET ${RUN} HTTP/1.1\r\nHost: ${sb.id}.localhost\r\nHost: localhost\r\n${AUTH}Connection: close\r\n\r\n`);
  assert.equal(answer, refused('The request has 2 Host headers; send one.'));
  assert.is(mock.control.sandboxControl(sb.id).requests().length, 0);
});

test.run();
