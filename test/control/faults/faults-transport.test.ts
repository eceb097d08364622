// Transport faults through every door: a socket, mock.fetch, mock.inject and an intercepted origin, observed by fetch
// and axios; each kind behaves as the table in docs/verification-and-faults.md says, and is marked in the journal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import axios, { type AxiosError } from 'axios';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';
import type { MockApp } from '../../../src/app.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;
const ORIGIN = 'https://faults.example.test';

interface Doors {
  mock: MockApp;
  socket: string;
  server: Server;
  /** The run detail as the handler answers it, for comparison. */
  real: string;
}

async function doors(transport: string, extra: object = {}): Promise<Doors> {
  const { mock } = await freshMock();
  const real = await (await mock.fetch(RUN, { headers: owner })).text();
  mock.control.clearRequests();
  mock.control.addFault({ method: 'GET', path: RUN, transport: transport as never, ...extra });
  const server = createServer(mock.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { mock, server, real, socket: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function close(d: Doors): Promise<void> {
  d.server.closeAllConnections();
  await new Promise((resolve) => d.server.close(resolve));
}

/** Every way in: [name, a fetch-like call]. */
function fetchers(d: Doors): [string, (signal?: AbortSignal) => Promise<Response>][] {
  return [
    ['socket fetch', (signal) => fetch(d.socket + RUN, { headers: owner, signal })],
    ['mock.fetch', (signal) => d.mock.fetch(RUN, { headers: owner, signal })],
    ['intercepted fetch', (signal) => fetch(ORIGIN + RUN, { headers: owner, signal })],
  ];
}
function axiosCalls(d: Doors): [string, (timeout?: number) => Promise<unknown>][] {
  return [
    ['socket axios', (timeout) => axios.get(d.socket + RUN, { headers: owner, timeout, responseType: 'text' })],
    ['intercepted axios', (timeout) => axios.get(ORIGIN + RUN, { headers: owner, timeout, responseType: 'text' })],
  ];
}

const rejection = async (p: Promise<unknown>): Promise<Error & { code?: string; cause?: { code?: string } }> => {
  try {
    await p;
  } catch (e) {
    return e as Error & { code?: string; cause?: { code?: string } };
  }
  throw new Error('expected a rejection');
};

/** Waits (real time, a plain timer) until the journal holds n entries: a socket's close reaches the server a moment later. */
async function journaled(mock: MockApp, n: number): Promise<void> {
  for (let i = 0; i < 500 && mock.control.requests().length < n; i++) await new Promise((r) => setTimeout(r, 10));
}

test('reset: the connection is destroyed without an answer; fetch rejects with TypeError, axios with a network error', async () => {
  const d = await doors('reset');
  const handle = d.mock.intercept(ORIGIN);
  try {
    for (const [name, call] of fetchers(d)) {
      const err = await rejection(call());
      assert.instance(err, TypeError, name);
      assert.is(err.message, 'fetch failed', name);
    }
    assert.is((await rejection(fetchers(d)[1][1]())).cause?.code, 'UND_ERR_SOCKET', 'mock.fetch: the cause undici gives');
    for (const [name, call] of axiosCalls(d)) {
      const err = (await rejection(call())) as AxiosError;
      assert.ok(err.isAxiosError || err instanceof TypeError, name);
      assert.is(err.response, undefined, `${name}: no answer`);
    }
    const injected = await rejection(d.mock.inject({ url: RUN, headers: owner }));
    assert.is(injected.code, 'LIGHT_ECONNRESET', 'inject: the response was destroyed before completion');
    await journaled(d.mock, 6);
    const entries = d.mock.control.requests();
    // axios through node:http may try a reset request once more, as an idempotent GET.
    assert.ok(entries.length >= 6, String(entries.length));
    for (const e of entries) {
      assert.is(e.status, 0, 'nothing was answered');
      assert.is(e.fault?.transport, 'reset');
    }
  } finally {
    handle.restore();
    await close(d);
  }
});

test('hang: no answer until the client gives up (its AbortSignal, axios timeout)', async () => {
  const d = await doors('hang');
  const handle = d.mock.intercept(ORIGIN);
  try {
    for (const [name, call] of fetchers(d)) {
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), 50);
      const err = await rejection(call(ac.signal));
      clearTimeout(timer);
      assert.is(err.name, 'AbortError', name);
    }
    for (const [name, call] of axiosCalls(d)) {
      const err = (await rejection(call(50))) as AxiosError;
      assert.is(err.code, 'ECONNABORTED', name);
    }
    const pending = await Promise.race([
      d.mock.inject({ url: RUN, headers: owner }).then(() => 'answered'),
      new Promise((r) => setTimeout(() => r('still waiting'), 80)),
    ]);
    assert.is(pending, 'still waiting', 'inject: no answer');
    await journaled(d.mock, 4);
    const entries = d.mock.control.requests();
    // Journaled once the client leaves: a socket that closes, an in-process signal (axios's timeout through the
    // interceptor does not abort the intercepted request: that one waits until the fault's limit).
    assert.ok(entries.length >= 4, `each client that gave up is journaled (${entries.length})`);
    for (const e of entries) assert.equal([e.status, e.fault?.transport], [0, 'hang']);
  } finally {
    handle.restore();
    await close(d);
  }
});

test('truncate: the answer announces its full length and stops; reading the body fails', async () => {
  const d = await doors('truncate');
  const handle = d.mock.intercept(ORIGIN);
  try {
    for (const [name, call] of fetchers(d)) {
      const res = await call();
      assert.is(res.status, 200, name);
      assert.is(res.headers.get('content-length'), String(Buffer.byteLength(d.real)), `${name}: the full length`);
      const err = await rejection(res.text());
      assert.instance(err, TypeError, name);
      assert.is(err.message, 'terminated', name);
    }
    for (const [name, call] of axiosCalls(d)) {
      const err = (await rejection(call())) as AxiosError;
      assert.ok(err.isAxiosError, name);
      assert.is(err.response?.data, undefined, `${name}: no body delivered`);
    }
    assert.is((await rejection(d.mock.inject({ url: RUN, headers: owner }))).code, 'LIGHT_ECONNRESET');
    await journaled(d.mock, 6);
    for (const e of d.mock.control.requests()) assert.equal([e.status, e.fault?.transport], [200, 'truncate']);
  } finally {
    handle.restore();
    await close(d);
  }
});

test('malformed_json: a 200 application/json whose body is not JSON, the same everywhere', async () => {
  const d = await doors('malformed_json');
  const handle = d.mock.intercept(ORIGIN);
  const expected = d.real.slice(0, Math.floor(d.real.length / 2));
  try {
    for (const [name, call] of fetchers(d)) {
      const res = await call();
      assert.is(res.status, 200, name);
      assert.match(res.headers.get('content-type')!, /^application\/json/, name);
      const text = await res.text();
      assert.is(text, expected, name);
      assert.throws(() => JSON.parse(text), SyntaxError);
    }
    for (const [name, call] of axiosCalls(d)) {
      const res = (await call()) as { status: number; data: string; headers: Record<string, string> };
      assert.is(res.status, 200, name);
      assert.is(res.data, expected, name);
      assert.match(res.headers['content-type'], /^application\/json/);
    }
    const injected = await d.mock.inject({ url: RUN, headers: owner });
    assert.is(injected.statusCode, 200);
    assert.is(injected.payload, expected);
    assert.throws(() => injected.json());
    for (const e of d.mock.control.requests()) assert.equal([e.status, e.fault?.transport], [200, 'malformed_json']);
  } finally {
    handle.restore();
    await close(d);
  }
});

test('slow_body: the whole body arrives, at bytes_per_s', async () => {
  const rate = 4000;
  const d = await doors('slow_body', { bytes_per_s: rate });
  const handle = d.mock.intercept(ORIGIN);
  // Writes of rate/10 bytes every 100 ms: a body of n bytes takes (ceil(n / 400) - 1) x 100 ms at least.
  const least = (Math.ceil(Buffer.byteLength(d.real) / (rate / 10)) - 1) * 100;
  try {
    assert.ok(least >= 200, `a body long enough to measure (${least} ms)`);
    for (const [name, call] of fetchers(d)) {
      const t0 = performance.now();
      const res = await call();
      assert.is(await res.text(), d.real, name);
      assert.ok(performance.now() - t0 >= least - 20, `${name}: ${Math.round(performance.now() - t0)} ms >= ${least}`);
    }
    for (const [name, call] of axiosCalls(d)) {
      const t0 = performance.now();
      assert.is(((await call()) as { data: string }).data, d.real, name);
      assert.ok(performance.now() - t0 >= least - 20, name);
    }
    const t0 = performance.now();
    assert.is((await d.mock.inject({ url: RUN, headers: owner })).payload, d.real);
    assert.ok(performance.now() - t0 >= least - 20, 'inject');
    for (const e of d.mock.control.requests()) assert.equal(e.fault, { id: 'flt_1', transport: 'slow_body' });
  } finally {
    handle.restore();
    await close(d);
  }
});

test('status (with headers), delay and rate-limit faults answer alike through every door', async () => {
  const { mock } = await freshMock();
  await mock.control.setClock(DEMO.now);
  const server = createServer(mock.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const d: Doors = { mock, server, real: '', socket: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  const handle = mock.intercept(ORIGIN);
  try {
    mock.control.addFault({ method: 'GET', path: RUN, status: 418, headers: { 'X-Teapot': 'yes' }, body: { short: true }, delay_ms: 1 });
    for (const [name, call] of fetchers(d)) {
      const res = await call();
      assert.equal([res.status, res.headers.get('x-teapot'), await res.json()], [418, 'yes', { short: true }], name);
    }
    for (const [name, call] of axiosCalls(d)) {
      const err = (await rejection(call())) as AxiosError;
      assert.equal([err.response?.status, err.response?.headers['x-teapot']], [418, 'yes'], name);
    }
    const injected = await mock.inject({ url: RUN, headers: owner });
    assert.equal([injected.statusCode, injected.headers['x-teapot'], injected.json()], [418, 'yes', { short: true }]);
    assert.ok(mock.control.requests().every((e) => e.fault?.status === 418 && e.fault.delay_ms === 1));

    mock.control.clearFaults();
    mock.control.addFault({ method: 'GET', path: RUN, rate_limit: { requests: 1, per_ms: 10_000 } });
    assert.is((await mock.fetch(RUN, { headers: owner })).status, 200);
    for (const [name, call] of fetchers(d)) {
      const res = await call();
      assert.equal([res.status, res.headers.get('retry-after')], [429, '10'], name);
    }
    for (const [name, call] of axiosCalls(d)) {
      const err = (await rejection(call())) as AxiosError;
      assert.equal([err.response?.status, err.response?.headers['retry-after']], [429, '10'], name);
    }
    assert.equal([(await mock.inject({ url: RUN, headers: owner })).statusCode], [429]);
  } finally {
    handle.restore();
    await close(d);
  }
});

test('transport faults with times: the connection after them is answered normally', async () => {
  const d = await doors('reset', { times: 1 });
  try {
    assert.instance(await rejection(d.mock.fetch(RUN, { headers: owner })), TypeError);
    const res = await fetch(d.socket + RUN, { headers: owner });
    assert.is(res.status, 200);
    assert.is(await res.text(), d.real);
  } finally {
    await close(d);
  }
});

test.run();
