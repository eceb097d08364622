// transport "truncate" over a socket: the head announces the handler's whole Content-Length, and exactly the first half of the body (rounded down: 748 of 1,497 bytes) arrives before the connection closes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { freshMock } from '../../helpers/app.js';
import { DEMO } from '../../helpers/demo.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const TOKEN = DEMO.tokens.owner;

/** Everything the server sent on one connection for a GET of `path`, until it closed. */
function rawGet(port: number, path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', (c) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    socket.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve(Buffer.concat(chunks)) : reject(err)));
  });
}

test('truncate: the full Content-Length is announced and floor(length / 2) bytes of the body arrive', async () => {
  const { mock } = await freshMock();
  const real = Buffer.from(await (await mock.fetch(RUN, { headers: { authorization: `Bearer ${TOKEN}` } })).text());
  assert.is(real.length % 2, 1, 'an odd length, so the half is rounded');
  mock.control.addFault({ method: 'GET', path: RUN, transport: 'truncate' });
  const server = createServer(mock.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const sent = await rawGet((server.address() as AddressInfo).port, RUN);
    const split = sent.indexOf('\r\n\r\n');
    const head = sent.subarray(0, split).toString();
    const body = sent.subarray(split + 4);
    assert.match(head, /^HTTP\/1\.1 200 /);
    assert.match(head, new RegExp(`\r\ncontent-length: ${real.length}\r\n`, 'i'));
    assert.is(body.length, Math.floor(real.length / 2));
    assert.ok(body.equals(real.subarray(0, body.length)), 'the first half of the real body');
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test.run();
