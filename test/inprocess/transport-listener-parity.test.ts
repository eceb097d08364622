// What a listener does to its request and response (destroy it before or after its body, write with an encoding, end then destroy, a client that leaves) gives in process what it gives over a socket: the answer or the failure, and the response's finish and close events.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inProcessClient } from '../../src/inprocess/fetch.js';

type Outcome = { status: number; body: string } | { error: string; message: string; cause?: string };
/** The events the response emitted, in order; a close says whether the response was then destroyed. */
type Events = string[];

/** Over a socket: a server on the listener, the request sent by the global fetch. */
async function overSocket(listener: RequestListener, init: RequestInit, path: string): Promise<Outcome> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await outcome(fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, init));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** In process: the same listener behind mock.fetch's transport. */
const inProcess = (listener: RequestListener, init: RequestInit, path: string): Promise<Outcome> =>
  outcome(inProcessClient(listener).fetch(`http://localhost${path}`, init));

async function outcome(p: Promise<Response>): Promise<Outcome> {
  try {
    const res = await p;
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()).toString('hex') };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    return { error: err.name, message: err.message, ...(err.cause?.code ? { cause: err.cause.code } : {}) };
  }
}

/**
 * `handle` served both ways; each answers its outcome and the response's events once the response closed and the
 * listener's own last step (`done`) ran.
 */
async function both(
  handle: (req: IncomingMessage, res: ServerResponse, done: () => void) => void,
  init: RequestInit = {},
  path = '/x',
): Promise<{ socket: [Outcome, Events]; inProcess: [Outcome, Events] }> {
  const run = async (send: typeof overSocket) => {
    const events: Events = [];
    let closed!: () => void;
    let finished!: () => void;
    const settled = Promise.all([new Promise<void>((r) => (closed = r)), new Promise<void>((r) => (finished = r))]);
    const listener: RequestListener = (req, res) => {
      res.on('finish', () => events.push('finish'));
      res.on('close', () => {
        events.push(`close${res.destroyed ? ' destroyed' : ''}`);
        closed();
      });
      handle(req, res, () => setImmediate(finished));
    };
    const got = await send(listener, init, path);
    await settled;
    return [got, events] as [Outcome, Events];
  };
  return { socket: await run(overSocket), inProcess: await run(inProcess) };
}

const hex = (...parts: Buffer[]) => Buffer.concat(parts).toString('hex');
const FAILED: Outcome = { error: 'TypeError', message: 'fetch failed', cause: 'UND_ERR_SOCKET' };

test('a request destroyed before its body was read fails as a dropped connection does; an answer after it is not sent', async () => {
  const got = await both(
    (req, res, done) => {
      req.destroy();
      setImmediate(() => {
        res.end('late');
        done();
      });
    },
    { method: 'POST', body: 'abc' },
  );
  assert.equal(got.socket, [FAILED, ['close destroyed']]);
  // In process the late end still emits a finish after the close (its socket stays writable): only the close is compared.
  assert.equal([got.inProcess[0], got.inProcess[1][0]], [FAILED, 'close destroyed']);
});

test('a request destroyed after its whole body was read still gets its answer', async () => {
  const got = await both(
    async (req, res, done) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      req.destroy();
      // Answered a turn later, once the destroy has had its effects.
      setImmediate(() => {
        res.end(`read ${Buffer.concat(chunks)}`);
        done();
      });
    },
    { method: 'POST', body: 'abc' },
  );
  const want: [Outcome, Events] = [{ status: 200, body: hex(Buffer.from('read abc')) }, ['finish', 'close destroyed']];
  assert.equal(got.socket, want);
  assert.equal(got.inProcess, want);
});

test('writes with an encoding send the bytes the encoding gives, in write and in end', async () => {
  const got = await both((_req, res, done) => {
    res.write('héllo', 'latin1');
    res.write('AAEC', 'base64');
    res.end('ff00', 'hex');
    done();
  });
  const want: [Outcome, Events] = [
    { status: 200, body: hex(Buffer.from('héllo', 'latin1'), Buffer.from([0, 1, 2]), Buffer.from([255, 0])) },
    ['finish', 'close destroyed'],
  ];
  assert.equal(got.socket, want);
  assert.equal(got.inProcess, want);
});

const ANSWERS: [string, (res: ServerResponse) => void, RequestInit?][] = [
  ['a body in end', (res) => res.end('x')],
  ['a body in writes (chunked)', (res) => (res.write('a'), res.write('b'), res.end())],
  ['204', (res) => (res.writeHead(204), res.end())],
  ['HEAD', (res) => res.end('not sent'), { method: 'HEAD' }],
  ['end, then destroy', (res) => (res.end('x'), res.destroy())],
  ['end, then destroy twice', (res) => (res.end('x'), res.destroy(), res.destroy())],
];

for (const [name, answer, init] of ANSWERS) {
  test(`the response emits finish once, then close once: ${name}`, async () => {
    const got = await both((_req, res, done) => (answer(res), done()), init);
    assert.equal(got.inProcess, got.socket);
    assert.equal(got.inProcess[1], ['finish', 'close destroyed']);
  });
}

test('a client that leaves closes the held response once, destroyed, and sends no finish', async () => {
  const run = async (send: typeof overSocket) => {
    const ac = new AbortController();
    const events: Events = [];
    let closed!: () => void;
    const close = new Promise<void>((r) => (closed = r));
    const listener: RequestListener = (_req, res) => {
      res.on('finish', () => events.push('finish'));
      res.on('close', () => {
        events.push(`close${res.destroyed ? ' destroyed' : ''}`);
        closed();
      });
      // The answer is held; the client gives up a turn later.
      setImmediate(() => ac.abort());
    };
    const got = await send(listener, { signal: ac.signal }, '/held');
    await close;
    await new Promise((r) => setImmediate(r));
    return [got, events];
  };
  const want = [{ error: 'AbortError', message: 'This operation was aborted' }, ['close destroyed']];
  assert.equal(await run(overSocket), want);
  assert.equal(await run(inProcess), want);
});

test.run();
