// The in-process transport answers every request as light-my-request did: what the server sees, and status, headers and bytes back.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import Koa from 'koa';
import type * as LightMyRequest from 'light-my-request';
import { exchange, RESET, type Answer, type Outgoing } from '../../src/inprocess/transport.js';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from '../helpers/demo.js';

const inject = createRequire(import.meta.url)('light-my-request') as typeof LightMyRequest.inject;

/** Both answers with the Date header's value set aside (it is the clock's second), kept only as present or not. */
const comparable = (a: Pick<Answer, 'statusCode' | 'statusMessage' | 'headers' | 'rawPayload'>) => ({
  status: a.statusCode,
  message: a.statusMessage,
  headers: Object.entries(a.headers).map(([k, v]) => [k, k === 'date' ? typeof v : v]),
  body: a.rawPayload.toString('base64'),
});

type Outcome = { ok: ReturnType<typeof comparable> } | { err: { code?: string; message: string } };

/** The answer or the failure, from both transports. */
async function both(dispatch: RequestListener, out: Outgoing): Promise<[Outcome, Outcome]> {
  const ours = exchange(dispatch, out).then(
    (a) => ({ ok: comparable(a) }),
    (e: Error & { code?: string }) => ({ err: { code: e.code, message: e.message } }),
  );
  const theirs = new Promise<Outcome>((resolve) =>
    inject(
      dispatch,
      { method: out.method as LightMyRequest.InjectOptions['method'], url: out.url, headers: out.headers, payload: out.payload, validate: false },
      (e, r) => resolve(e ? { err: { code: (e as Error & { code?: string }).code, message: e.message } } : { ok: comparable(r as unknown as Answer) }),
    ),
  );
  return Promise.all([ours, theirs]);
}

const big = 'x'.repeat(1024 * 1024 + 7);
/** A server that shows what it received, and answers each documented shape. */
const koa = new Koa();
koa.use(async (ctx) => {
  const req = ctx.req;
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const seen = {
    method: req.method,
    url: req.url,
    headers: req.headers,
    rawHeaders: req.rawHeaders,
    httpVersion: req.httpVersion,
    ip: ctx.ip,
    body: Buffer.concat(chunks).toString('base64'),
  };
  switch (ctx.path) {
    case '/seen':
      ctx.body = seen;
      return;
    case '/cookies':
      ctx.set('Set-Cookie', ['a=1; Path=/', 'b=2; HttpOnly']);
      ctx.set('X-Many', ['1', '2']);
      ctx.body = 'two cookies';
      return;
    case '/empty':
      ctx.status = 204;
      return;
    case '/not-modified':
      ctx.status = 304;
      return;
    case '/stream':
      ctx.type = 'text/plain';
      ctx.body = Readable.from(['one ', 'two ', Buffer.from('three')]);
      return;
    case '/big':
      ctx.body = big;
      return;
    case '/buffer':
      ctx.body = Buffer.from([0, 1, 2, 255]);
      return;
    case '/throws':
      throw Object.assign(new Error('teapot'), { status: 418, expose: true });
    case '/reset':
      ctx.respond = false;
      ctx.res.destroy();
      return;
    case '/reset-mid-body':
      ctx.respond = false;
      ctx.res.writeHead(200, { 'content-type': 'text/plain' });
      ctx.res.write('part');
      ctx.res.destroy();
      return;
    case '/raw-head':
      ctx.respond = false;
      ctx.res.writeHead(201, 'Made', ['X-A', '1', 'X-A', '2', 'Content-Length', '2']);
      ctx.res.end('ok');
      return;
    default:
      ctx.status = 404;
  }
});
const bare = koa.callback();

const o = (method: string, path: string, headers: Record<string, string> = {}, payload?: Buffer | string): Outgoing => ({
  method,
  url: new URL(path, 'http://localhost').href,
  headers,
  payload,
});

const TABLE: [string, Outgoing][] = [
  ['a GET with no header', o('GET', '/seen')],
  ['a query string and an encoded path', o('GET', '/seen?a=1&b=%20x&a=2#frag')],
  ['a text body', o('POST', '/seen', { 'content-type': 'text/plain;charset=UTF-8' }, 'héllo')],
  ['an empty text body (no length)', o('POST', '/seen', { 'content-type': 'text/plain' }, '')],
  ['an empty Buffer body (length 0)', o('PUT', '/seen', {}, Buffer.alloc(0))],
  ['a binary body', o('PUT', '/seen', { 'content-type': 'application/octet-stream' }, Buffer.from([0, 255, 10, 13]))],
  ['a body of 1 MiB', o('POST', '/seen', {}, big)],
  ['its own length, host and user agent', o('POST', '/seen', { 'content-length': '3', host: 'example.test', 'user-agent': 'me' }, 'abc')],
  ['an https origin', { ...o('GET', '/seen'), url: 'https://api.example.test/seen' }],
  ['an origin with a port', { ...o('GET', '/seen'), url: 'http://127.0.0.1:8080/seen?q' }],
  ['a lowercase method', o('delete', '/seen')],
  ['repeated Set-Cookie and headers', o('GET', '/cookies')],
  ['204', o('GET', '/empty')],
  ['304', o('GET', '/not-modified')],
  ['HEAD', o('HEAD', '/big')],
  ['a streamed body (chunked)', o('GET', '/stream')],
  ['a body of 1 MiB back', o('GET', '/big')],
  ['a Buffer body', o('GET', '/buffer')],
  ['a thrown error', o('GET', '/throws')],
  ['a reset before the head', o('GET', '/reset')],
  ['a reset after part of the body', o('GET', '/reset-mid-body')],
  ['a head written raw with a message', o('GET', '/raw-head')],
  ['an unknown path', o('GET', '/nowhere')],
];

for (const [name, out] of TABLE) {
  test(`bare Koa: ${name}`, async () => {
    const [ours, theirs] = await both(bare, out);
    assert.equal(ours, theirs);
  });
}

test('a reset is reported with the reset code, and the bytes written before it are kept', async () => {
  let res: ServerResponse | undefined;
  const err = await exchange(bare, o('GET', '/reset-mid-body'), (r) => (res = r)).catch((e: Error & { code?: string }) => e);
  assert.is((err as { code?: string }).code, RESET);
  const { writtenOf } = await import('../../src/inprocess/transport.js');
  assert.is(writtenOf(res).toString(), 'part');
});

test('a request destroyed by the server with an error fails with that error', async () => {
  const failing: RequestListener = (req: IncomingMessage) => req.destroy(new Error('refused'));
  const [ours, theirs] = await both(failing, o('POST', '/x', {}, 'abc'));
  assert.equal(ours, { err: { code: undefined, message: 'refused' } });
  assert.equal(ours, theirs);
});

// The mock itself: two mocks made alike (same fixture and seed), each request sent to one through each transport.
const owner = { authorization: `Bearer ${DEMO.tokens.owner}` };
const P = DEMO.projects.support;
const MOCK_TABLE: [string, Outgoing][] = [
  ['GET run detail', o('GET', `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`, owner)],
  ['PUT budget', o('PUT', `/api/v3/projects/${P}/budget`, { ...owner, 'content-type': 'application/json' }, '{"project_daily_usd":5}')],
  ['a malformed body', o('PUT', `/api/v3/projects/${P}/budget`, { ...owner, 'content-type': 'application/json' }, '{')],
  ['no token', o('GET', `/api/v3/projects/${P}`)],
  ['HEAD', o('HEAD', `/api/v3/projects/${P}`, owner)],
  ['an unknown route', o('GET', '/api/v3/nowhere', owner)],
  ['health', o('GET', '/_mock/health')],
];

test('the mock: each request answered alike by both transports', async () => {
  const [a, b] = await Promise.all([0, 1].map(() => createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'equal', log: () => {} })));
  try {
    for (const [name, out] of MOCK_TABLE) {
      const ours = await exchange(a!.callback(), out).then(comparable);
      const theirs = comparable(
        (await b!.inject({
          method: out.method as LightMyRequest.InjectOptions['method'],
          url: out.url,
          headers: out.headers,
          payload: out.payload,
        })) as unknown as Answer,
      );
      assert.equal(ours, theirs, name);
    }
  } finally {
    await Promise.all([a!.close(), b!.close()]);
  }
});

test.run();
