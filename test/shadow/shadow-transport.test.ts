// How a shadow request reaches the target: an answer of exactly 1 MiB is read and one byte more is not, a silent target times out, a redirect is an answer, an empty body is empty text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchTransport, httpTransport } from '../../src/shadow/transport.js';

const MIB = 1024 * 1024;

/** A local target: /size/N answers N bytes, /silent never answers, /moved redirects. */
function target(): Promise<Server> {
  const server = createServer((req, res) => {
    const size = /^\/size\/(\d+)$/.exec(req.url ?? '');
    if (size) return res.end('x'.repeat(Number(size[1])));
    if (req.url === '/moved') return res.writeHead(302, { location: '/size/2' }).end();
    // /silent: no answer; the server's close ends the socket.
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const at = (server: Server, path: string) => new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
const req = (url: URL, timeoutMs = 5_000) => ({ url, method: 'GET', headers: { accept: 'application/json' }, timeoutMs });

for (const [name, transport] of [
  ['node:http', httpTransport(2)],
  ['fetch', fetchTransport(fetch)],
] as const) {
  test(`${name}: an answer of exactly 1 MiB is read whole; one byte more is not read (null)`, async () => {
    const server = await target();
    try {
      const whole = await transport(req(at(server, `/size/${MIB}`)));
      assert.equal([whole.status, whole.text?.length], [200, MIB]);
      const over = await transport(req(at(server, `/size/${MIB + 1}`)));
      assert.equal([over.status, over.text], [200, null]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  test(`${name}: a target silent past timeoutMs fails the request with TimeoutError`, async () => {
    const server = await target();
    try {
      const err = await transport(req(at(server, '/silent'), 30)).then(
        () => null,
        (e: { name?: string; code?: unknown }) => e,
      );
      assert.ok(err !== null, 'answered');
      assert.ok(err.code === 'TimeoutError' || err.name === 'TimeoutError', String(err.code ?? err.name));
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
}

test('fetch: a redirect is the answer compared, not followed', async () => {
  const server = await target();
  try {
    const answer = await fetchTransport(fetch)(req(at(server, '/moved')));
    assert.equal([answer.status, answer.headers.location, answer.text], [302, '/size/2', '']);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('fetch: an answer without a body is empty text, not an unread one', async () => {
  const answer = await fetchTransport(async () => new Response(null, { status: 204 }))(req(new URL('http://target.test/x')));
  assert.equal(answer, { status: 204, headers: {}, text: '' });
});

test.run();
