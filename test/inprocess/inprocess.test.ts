// mock.fetch and mock.inject: every v3 endpoint answers in process exactly as over a socket; the fetch signature; faults, journal, coverage, clock.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { signBrokerPayload } from '../../src/client-helpers.js';
import type { Snapshot } from '../../src/storage/store.js';
import { ENDPOINTS, METHODS, any, asSigned, body, headers, path, query } from '../helpers/generators.js';
import { DEMO } from '../helpers/demo.js';
import { propertyRuns } from '../runner/config.mjs';

// A quarter of the property runs: the property suite already covers the answers themselves.
const RUNS = Math.ceil(propertyRuns() / 4);
const P = DEMO.projects.support;
const RUN = DEMO.runs.failedApi;
const owner = { authorization: `Bearer ${DEMO.tokens.owner}` };
const runPath = `/api/v3/projects/${P}/runs/${RUN}`;

// Two identical mocks (same fixture, same seed: same ids and tokens): one over a socket, one in process.
let overSocket: MockApp;
let inProcess: MockApp;
let server: Server;
let base: string;
let snaps: [Snapshot, Snapshot];

test.before(async () => {
  overSocket = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'equal' });
  inProcess = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'equal' });
  snaps = [overSocket.control.snapshot(), inProcess.control.snapshot()];
  server = overSocket.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after(() => new Promise<void>((r) => server.close(() => r())));

/** Headers that describe the connection, not the answer. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const answerHeaders = (res: Response) => [...res.headers].filter(([k]) => !CONNECTION_HEADERS.has(k));

for (const [n, method, template] of ENDPOINTS) {
  test(`in process: endpoint ${n} ${method} ${template} answers through mock.fetch exactly as over a socket`, async () => {
    await fc.assert(
      fc.asyncProperty(
        path(template),
        query,
        headers,
        body,
        fc.oneof({ weight: 9, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: any(...METHODS) }),
        async (p, q, h, b, m) => {
          await overSocket.control.restore(snaps[0]);
          await inProcess.control.restore(snaps[1]);
          if (h['x-broker-hmac-sha256'] === 'sign') h['x-broker-hmac-sha256'] = signBrokerPayload(asSigned(b), DEMO.brokerSecret).signature;
          const init = { method: m, headers: h, body: m === 'GET' ? undefined : b };
          const wire = await fetch(base + p + q, init);
          const local = await inProcess.fetch(p + q, init);
          const [wireText, localText] = [await wire.text(), await local.text()];
          const what = `${m} ${p}${q}`;
          assert.is(local.status, wire.status, `${what}: ${localText.slice(0, 200)} vs ${wireText.slice(0, 200)}`);
          assert.is(localText, wireText, what);
          assert.equal(answerHeaders(local), answerHeaders(wire), what);
          assert.is(JSON.stringify(inProcess.store.toData()), JSON.stringify(overSocket.store.toData()), `${what}: the stored states differ`);
        },
      ),
      { numRuns: RUNS },
    );
  });
}

test('mock.fetch: a path, a URL, or a Request; headers as an object, a Headers or pairs', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const expected = await (await mock.fetch(runPath, { headers: owner })).json();
  assert.is((expected as { id: string }).id, RUN);
  for (const [input, init] of [
    [new URL(runPath, 'https://api.example.test'), { headers: new Headers(owner) }],
    [`http://anything.test${runPath}`, { headers: [['Authorization', owner.authorization]] }],
    [new Request(`https://api.example.test${runPath}`, { headers: owner }), undefined],
  ] as [string | URL | Request, RequestInit | undefined][]) {
    const res = await mock.fetch(input, init);
    assert.is(res.status, 200);
    assert.equal(await res.json(), expected);
    assert.is(res.headers.get('content-type'), 'application/json; charset=utf-8');
  }
  assert.is((await mock.fetch(runPath)).url, `http://localhost${runPath}`);
});

test("mock.fetch: header values are read as fetch sends them (trimmed, joined), so the body type is the socket's", async () => {
  const cancel = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`;
  // A blank Content-Type goes out empty (a JSON body then), a padded one goes out trimmed; an array value is what fetch makes of it.
  const cases: [Record<string, string | string[]>, string][] = [
    [{ 'content-type': ' ' }, '[]'],
    [{ 'content-type': '\t' }, '{"reason":"x"}'],
    [{ 'content-type': ' application/json ' }, '{"reason":"x"}'],
    [{ 'content-type': '\ttext/plain ' }, '{"reason":"x"}'],
    [{ 'content-type': ['application/json', 'text/plain'] }, '{"reason":"x"}'],
  ];
  for (const [h, b] of cases) {
    await overSocket.control.restore(snaps[0]);
    await inProcess.control.restore(snaps[1]);
    const init = { method: 'POST', headers: { ...owner, ...h } as unknown as Record<string, string>, body: b };
    const wire = await fetch(base + cancel, init);
    const local = await inProcess.fetch(cancel, init);
    const [wireText, localText] = [await wire.text(), await local.text()];
    assert.is(local.status, wire.status, `${JSON.stringify(h)}: ${localText} vs ${wireText}`);
    assert.is(localText, wireText, JSON.stringify(h));
    assert.is(inProcess.control.requests().at(-1)!.request.headers['content-type'], overSocket.control.requests().at(-1)!.request.headers['content-type']);
  }
  // The first case, whole: an empty type reads as JSON, and `[]` is not an object.
  await inProcess.control.restore(snaps[1]);
  const blank = await inProcess.fetch(cancel, { method: 'POST', headers: { ...owner, 'content-type': ' ' }, body: '[]' });
  assert.is(blank.status, 422);
  assert.equal(await blank.json(), {
    detail: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: [] }],
  });
});

test('mock.fetch: a body from a string, a Request, or bytes; a string without a type is text/plain, as fetch sends it', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const cancel = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`;
  const json = { ...owner, 'content-type': 'application/json' };
  const first = await mock.fetch(cancel, { method: 'POST', headers: json, body: JSON.stringify({ reason: 'a' }) });
  assert.is(first.status, 200);
  assert.is(((await first.json()) as { status: string }).status, 'cancelled');
  // The same cancel again, as a Request and as bytes: the run is already cancelled.
  const again = await mock.fetch(new Request(`http://localhost${cancel}`, { method: 'POST', headers: json, body: '{"reason":"b"}' }));
  const bytes = await mock.fetch(cancel, { method: 'POST', headers: json, body: new TextEncoder().encode('{"reason":"c"}') });
  const [x, y] = [await again.json(), await bytes.json()];
  assert.equal(x, y);
  assert.is((x as { detail: { reason_code: string } }).detail.reason_code, 'run_not_cancellable');
  const bodies = mock.control.requests().map((e) => e.request.body);
  assert.equal(bodies, [{ reason: 'a' }, { reason: 'b' }, { reason: 'c' }]);
  const plain = await mock.fetch('/api/v3/auth/token', { method: 'POST', body: 'grant_type=x' });
  assert.is(mock.control.requests().at(-1)!.request.headers['content-type'], 'text/plain;charset=UTF-8');
  assert.is(plain.status, 422);
});

test('mock.fetch: a plain-object headers whose names are not lower case is sent as fetch sends it (one content-type, names lower case)', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const cancel = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`;
  const res = await mock.fetch(cancel, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', AUTHORIZATION: owner.authorization, 'X-Trace-Id': 'abc' },
    body: JSON.stringify({ reason: 'mixed case' }),
  });
  const body = (await res.json()) as { id: string; status: string };
  assert.is(res.status, 200, JSON.stringify(body));
  assert.is(body.id, DEMO.runs.waitingApproval);
  assert.is(body.status, 'cancelled');
  const [e] = mock.control.requests();
  // The JSON type was taken as given: no text/plain added beside it, no second spelling of a name.
  assert.is(e.request.headers['content-type'], 'application/json');
  assert.is(e.request.headers['x-trace-id'], 'abc');
  assert.is(e.request.headers.authorization, '[redacted]');
  assert.equal(
    Object.keys(e.request.headers).filter((k) => k !== k.toLowerCase()),
    [],
  );
  assert.equal(e.request.body, { reason: 'mixed case' });
  // Without a type, the string body is text/plain, whatever the case of the other names.
  const plain = await mock.fetch('/api/v3/auth/token', { method: 'POST', headers: { 'X-Other': '1' }, body: '{}' });
  assert.is(plain.status, 422);
  assert.is(mock.control.requests().at(-1)!.request.headers['content-type'], 'text/plain;charset=UTF-8');
});

test('mock.fetch: HEAD and null-body statuses have no body; an aborted signal rejects with its reason', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  mock.control.addFault({ method: 'GET', path: '/api/v3/x', status: 204, times: 1 });
  const empty = await mock.fetch('/api/v3/x');
  assert.is(empty.status, 204);
  assert.is(empty.body, null);
  const ac = new AbortController();
  ac.abort(new Error('stop'));
  try {
    await mock.fetch(runPath, { signal: ac.signal });
    assert.unreachable('an aborted signal must reject');
  } catch (err) {
    assert.is((err as Error).message, 'stop');
  }
  // A signal aborted while the answer is delayed: the caller stops waiting.
  mock.control.addFault({ method: 'GET', path: runPath, delay_ms: 1000, times: 1 });
  const late = new AbortController();
  const pending = mock.fetch(runPath, { headers: owner, signal: late.signal });
  setTimeout(() => late.abort(), 20);
  try {
    await pending;
    assert.unreachable('aborting must reject');
  } catch (err) {
    assert.is((err as DOMException).name, 'AbortError');
  }
});

test('mock.fetch: the answer is a real Response: every body reader, bodyUsed, clone, the body stream', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const res = await mock.fetch(runPath, { headers: owner });
  assert.instance(res, Response);
  assert.is(res.ok, true);
  assert.is(res.statusText, 'OK');
  const copy = res.clone();
  const text = await res.text();
  assert.is(res.bodyUsed, true);
  await res.text().then(
    () => assert.unreachable('a body reads once'),
    (e: Error) => assert.instance(e, TypeError),
  );
  assert.throws(() => res.clone(), TypeError);
  assert.equal(await copy.json(), JSON.parse(text));
  const bytes = new Uint8Array(await (await mock.fetch(runPath, { headers: owner })).arrayBuffer());
  assert.is(Buffer.from(bytes).toString('utf8'), text);
  const blob = await (await mock.fetch(runPath, { headers: owner })).blob();
  assert.is(await blob.text(), text);
  // Through the stream, as a client library reading chunks would.
  const streamed = await mock.fetch(runPath, { headers: owner });
  const reader = streamed.body!.getReader();
  const chunks: Uint8Array[] = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  assert.is(Buffer.concat(chunks).toString('utf8'), text);
  assert.is(streamed.bodyUsed, true);
  const head = await mock.fetch(runPath, { method: 'HEAD', headers: owner });
  assert.is(head.status, 200);
  assert.is(head.body, null);
  assert.is(await head.text(), '');
  assert.is(head.headers.get('content-length'), String(Buffer.byteLength(text)));
});

test('mock.inject: the raw form answers with light-my-request responses', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const res = await mock.inject({ method: 'GET', url: runPath, headers: owner });
  assert.is(res.statusCode, 200);
  assert.is(res.json().id, RUN);
  const anon = await mock.inject(runPath);
  assert.is(anon.statusCode, 401);
  assert.is(anon.headers['www-authenticate'], 'Bearer');
  assert.is(anon.json().detail.reason_code, 'authentication_required');
});

/** One request through each in-process path. */
const PATHS: [string, (mock: MockApp, url: string, init?: RequestInit) => Promise<{ status: number; text: string; fault?: string }>][] = [
  [
    'fetch',
    async (mock, url, init) => {
      const r = await mock.fetch(url, init);
      return { status: r.status, text: await r.text(), fault: r.headers.get('x-mock-fault') ?? undefined };
    },
  ],
  [
    'inject',
    async (mock, url, init) => {
      const r = await mock.inject({
        method: (init?.method ?? 'GET') as 'GET',
        url,
        headers: init?.headers as Record<string, string>,
        payload: init?.body as string,
      });
      return { status: r.statusCode, text: r.payload, fault: r.headers['x-mock-fault'] as string | undefined };
    },
  ],
];

for (const [name, send] of PATHS) {
  test(`${name}: faults (status and delay), the journal, coverage and the clock behave as over a socket`, async () => {
    const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
    const fault = mock.control.addFault({ method: 'GET', path: '/api/v3/projects/*/runs/*', status: 503, body: { detail: 'down' }, times: 1 });
    const injected = await send(mock, runPath, { headers: owner });
    assert.equal(injected, { status: 503, text: '{"detail":"down"}', fault: fault.id });
    mock.control.addFault({ method: 'GET', path: runPath, delay_ms: 40, times: 1 });
    await mock.control.advanceClock(60_000);
    const delayed = await send(mock, runPath, { headers: owner });
    assert.is(delayed.status, 200);
    assert.is(JSON.parse(delayed.text).id, RUN);
    const [a, b] = mock.control.requests();
    assert.equal(a.fault, { id: fault.id, status: 503 });
    assert.equal([a.status, a.operation, b.status, b.operation], [503, 'getRun', 200, 'getRun']); // an injected answer never reached a route, but names the operation it was for
    assert.is(b.fault?.delay_ms, 40);
    assert.ok(b.duration_ms >= 39, `the delay is in the answer: ${b.duration_ms} ms`);
    assert.is(a.at, DEMO.now);
    assert.is(b.at, '2026-11-20T12:01:00.000Z'); // the mock clock, advanced
    const getRun = mock.control.coverage().operations.find((o) => o.operation === 'getRun')!;
    assert.is(getRun.requests, 1); // the injected 503 is not the mock's behaviour: not counted
    assert.equal(getRun.exercised.statuses, [200]);
  });
}

test('mock.fetch: a tight loop of requests does not pile up finished responses (memory stays flat)', () => {
  // A child with --expose-gc, so the figure is live memory, not garbage waiting for a collection.
  const out = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(new URL('../helpers/fetch-loop.ts', import.meta.url))], {
    encoding: 'utf8',
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
  });
  assert.is(out.status, 0, out.stderr.slice(-2000));
  // Without a turn of the event loop every 64 requests, each of these would keep ~13 KB alive (65 MB here).
  const { grownMB } = JSON.parse(out.stdout) as { grownMB: number };
  assert.ok(grownMB < 10, `heap grew ${grownMB.toFixed(1)} MB over 5,000 requests`);
});

test.run();
