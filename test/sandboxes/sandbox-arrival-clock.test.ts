// Without a given clock, a sandbox GET on the fast path reads the clock once: the reading that times the request is its
// touch's time, so its time to live restarts from the arrival and it reads no more clocks than the same GET at the root.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from '../helpers/demo.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const TTL = 60_000;

/** Counts of Date.now and performance.now calls while `counting` is on. */
const reads = { on: false, date: 0, perf: 0 };
const realDate = Date.now;
const realPerf = performance.now.bind(performance);

interface Raw {
  mock: MockApp;
  server: Server;
  sock: Socket;
  /** Sends one GET over a raw socket (no client in this process reads a clock) and resolves with the response head. */
  get(path: string): Promise<string>;
}

async function raw(): Promise<Raw> {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), log: () => {}, sandboxes: { max: 3, ttlMs: TTL } });
  const server = createServer(mock.callback());
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const sock = connect((server.address() as { port: number }).port, '127.0.0.1');
  await new Promise((ok) => sock.once('connect', ok));
  const get = (path: string) =>
    new Promise<string>((ok) => {
      sock.once('data', (d) => ok(String(d).split('\r\n')[0]));
      sock.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${DEMO.tokens.owner}\r\n\r\n`);
    });
  return { mock, server, sock, get };
}

async function done(r: Raw) {
  r.sock.destroy();
  await new Promise((ok) => r.server.close(ok));
  await r.mock.close();
}

/** Clock reads per GET of `path`, over `n` GETs after a warm-up. */
async function readsPer(r: Raw, path: string, n = 50): Promise<{ date: number; perf: number }> {
  for (let i = 0; i < 5; i++) assert.is(await r.get(path), 'HTTP/1.1 200 OK');
  reads.date = reads.perf = 0;
  reads.on = true;
  try {
    for (let i = 0; i < n; i++) await r.get(path);
  } finally {
    reads.on = false;
  }
  return { date: reads.date / n, perf: reads.perf / n };
}

test.before(() => {
  Date.now = () => (reads.on && reads.date++, realDate());
  performance.now = () => (reads.on && reads.perf++, realPerf());
});
test.after(() => {
  Date.now = realDate;
  performance.now = realPerf;
});

test('a sandbox GET reads the clock as often as the same GET at the root, and never Date.now', async () => {
  const r = await raw();
  try {
    const { id } = await r.mock.control.createSandbox();
    const root = await readsPer(r, RUN);
    const sandbox = await readsPer(r, `/sandboxes/${id}${RUN}`);
    assert.equal(sandbox, root);
    assert.is(sandbox.date, 0);
    // Its own readings are there: a start and an end per request (the request's duration in the journal).
    assert.is(sandbox.perf, 2);
  } finally {
    await done(r);
  }
});

test('the time to live restarts from the reading at arrival, on the real clock', async () => {
  const r = await raw();
  try {
    const { id } = await r.mock.control.createSandbox();
    const before = performance.timeOrigin + realPerf();
    assert.is(await r.get(`/sandboxes/${id}${RUN}`), 'HTTP/1.1 200 OK');
    const after = performance.timeOrigin + realPerf();
    const expires = Date.parse((await r.mock.control.sandbox(id)).expires_at);
    // ISO text keeps whole milliseconds (cut, not rounded).
    assert.ok(expires >= Math.floor(before + TTL) && expires <= after + TTL, `${expires} within [${before + TTL}, ${after + TTL}]`);
    // And close to Date.now (the two clocks agree to well under a second).
    assert.ok(Math.abs(expires - TTL - realDate()) < 1_000);
  } finally {
    await done(r);
  }
});

test.run();
