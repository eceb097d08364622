// How a shadow request reaches the target: an answer of exactly 1 MiB is read and one byte more is not, a silent target times out, a redirect is an answer, an empty body is empty text;
// from the worker: a body reaches the target whole, a refused connection fails with its code, close() stops it and a later request starts another, and an idle worker keeps no process alive.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { fetchTransport } from '../../src/shadow/transport.js';
import { workerTransport } from '../../src/shadow/worker-transport.js';

const MIB = 1024 * 1024;

/** A local target: /size/N answers N bytes, /silent never answers, /moved redirects. */
function target(): Promise<Server> {
  const server = createServer((req, res) => {
    const size = /^\/size\/(\d+)$/.exec(req.url ?? '');
    if (size) return res.end('x'.repeat(Number(size[1])));
    if (req.url === '/moved') return res.writeHead(302, { location: '/size/2' }).end();
    if (req.url === '/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      return req.on('end', () => res.end(`${req.method} ${req.headers['content-type']} ${Buffer.concat(chunks).toString('hex')}`));
    }
    // /silent: no answer; the server's close ends the socket.
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const at = (server: Server, path: string) => new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
const req = (url: URL, timeoutMs = 5_000) => ({ url, method: 'GET', headers: { accept: 'application/json' }, timeoutMs });

const worker = workerTransport(2, MIB);
test.after(() => worker.close());

for (const [name, transport] of [
  ['node:http in a worker', worker],
  ['fetch', fetchTransport(fetch)],
] as const) {
  test(`${name}: an answer of exactly 1 MiB is read whole; one byte more is not read (null)`, async () => {
    const server = await target();
    try {
      const whole = await transport.send(req(at(server, `/size/${MIB}`)));
      assert.equal([whole.status, whole.text?.length], [200, MIB]);
      const over = await transport.send(req(at(server, `/size/${MIB + 1}`)));
      assert.equal([over.status, over.text], [200, null]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  test(`${name}: a target silent past timeoutMs fails the request with TimeoutError`, async () => {
    const server = await target();
    try {
      const err = await transport.send(req(at(server, '/silent'), 30)).then(
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
    const answer = await fetchTransport(fetch).send(req(at(server, '/moved')));
    assert.equal([answer.status, answer.headers.location, answer.text], [302, '/size/2', '']);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('fetch: an answer without a body is empty text, not an unread one', async () => {
  const answer = await fetchTransport(async () => new Response(null, { status: 204 })).send(req(new URL('http://target.test/x')));
  assert.equal(answer, { status: 204, headers: {}, text: '' });
});

test('node:http in a worker: a body reaches the target byte for byte, with its headers', async () => {
  const server = await target();
  try {
    const body = Buffer.from([0, 1, 2, 255, 0x7b, 0x7d]);
    const answer = await worker.send({ ...req(at(server, '/echo')), method: 'POST', headers: { 'content-type': 'application/json' }, body });
    assert.equal([answer.status, answer.text], [200, 'POST application/json 000102ff7b7d']);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('node:http in a worker: a refused connection fails with its code, never a message', async () => {
  const server = await target();
  const url = at(server, '/size/1');
  await new Promise((resolve) => server.close(resolve));
  const err = await worker.send(req(url)).then(
    () => null,
    (e: { code?: unknown; message?: string }) => e,
  );
  assert.equal([err?.code, err?.message], ['ECONNREFUSED', 'shadow request failed']);
});

test('node:http in a worker: close() stops it and fails nothing later; the next request starts another worker', async () => {
  const own = workerTransport(1, MIB);
  const server = await target();
  try {
    assert.is((await own.send(req(at(server, '/size/3')))).text, 'xxx');
    await own.close();
    await own.close();
    assert.is((await own.send(req(at(server, '/size/4')))).text, 'xxxx');
  } finally {
    await own.close();
    server.closeAllConnections();
    server.close();
  }
});

test('node:http in a worker: a process whose only work left is an idle worker ends by itself', async () => {
  const server = await target();
  try {
    const script = `const { workerTransport } = await import(${JSON.stringify(new URL('../../src/shadow/worker-transport.ts', import.meta.url).href)});
      const t = workerTransport(1, 1024);
      const a = await t.send({ url: new URL(process.argv[1]), method: 'GET', headers: {}, timeoutMs: 5000 });
      process.stdout.write(a.status + ' ' + a.text);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, at(server, '/size/2').href], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => (child.kill(), resolve(-1)), 15_000);
      child.on('exit', (c) => (clearTimeout(timer), resolve(c)));
    });
    assert.equal([code, out], [0, '200 xx']);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test.run();
