// Reads the fast path hands to the whole chain (a result only Koa renders, a catch-up that failed) answer as the chain does, from the sandbox they name, counted once; results it renders itself (a Reply, a promise) answer as Koa would.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Server } from 'node:http';
import { Readable } from 'node:stream';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { ApiError } from '../../src/errors.js';
import { JsonText, Reply } from '../../src/pipeline/index.js';
import { MemoryAdapter } from '../../src/storage/adapters.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { closeAll, countContexts, listen, newestEntry, send, type Raw } from '../helpers/fast-path.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}`;
const owner = bearer(DEMO.tokens.owner);
const servers: Server[] = [];
test.after.each(() => closeAll(servers));

/**
 * Makes getRun's handler answer `change(its answer)`, on every mock of every app (the one seam: no v3 read answers a
 * result only Koa renders today). The same change applies on both paths, whichever runs the handler. Answers the undo.
 */
function getRunAnswers(mock: MockApp, change: (answer: JsonText) => unknown): () => void {
  const proto = Object.getPrototypeOf(mock.store) as { attributeTo(scope: { operation?: string }, fn: () => unknown): unknown };
  const original = proto.attributeTo;
  proto.attributeTo = function (this: unknown, scope, fn) {
    const out = original.call(this, scope, fn);
    return scope.operation === 'getRun' && out instanceof JsonText ? change(out) : out;
  };
  return () => void (proto.attributeTo = original);
}

interface Servers {
  mock: MockApp;
  fast: Server;
  chain: Server;
  contexts: () => number;
}

async function serve(mock: MockApp): Promise<Servers> {
  const contexts = countContexts(mock);
  const fast = await listen(mock.callback());
  const chain = await listen(mock.app.callback());
  servers.push(fast, chain);
  return { mock, fast, chain, contexts };
}

/** Runs `body` with servers of a fresh demo mock whose clock stands still, closing the mock after it whatever happens. */
async function withServers(body: (s: Servers) => Promise<void>): Promise<void> {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), clock: () => Date.parse(DEMO.now) });
  try {
    await body(await serve(mock));
  } finally {
    await mock.close();
  }
}

/** GETs `path` through the fast path's server, then the whole chain; asserts the same answer and entry; answers the first and the contexts the fast path's server made. */
async function both(s: Servers, path: string, journal = s.mock.control.journal): Promise<{ answer: Raw; contexts: number }> {
  const before = s.contexts();
  const answer = await send(s.fast, path, owner);
  const contexts = s.contexts() - before;
  const entry = newestEntry(journal);
  const chain = await send(s.chain, path, owner);
  assert.equal(answer, chain, `${path}: the whole chain's answer`);
  assert.equal(entry, newestEntry(journal), `${path}: the whole chain's journal entry`);
  return { answer, contexts };
}

test('a sandbox read whose result only Koa renders: the whole chain answers it from that sandbox, journaled there once, its client counted once, and the sandbox expires on time', async () => {
  let now = Date.parse(DEMO.now);
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), clock: () => now });
  const undo = getRunAnswers(mock, (answer) => new Reply(200, Buffer.from(answer.text)));
  try {
    const { id } = await mock.control.createSandbox({ ttl_ms: 1000 });
    const sandbox = mock.control.sandboxControl(id);
    const s = await serve(mock);
    const { answer, contexts } = await both(s, `/sandboxes/${id}${RUN}`, sandbox.journal);
    assert.is(contexts, 1, 'handed to the whole chain');
    assert.equal([answer.status, answer.headers.slice(0, 2)], [200, ['Content-Type', 'application/octet-stream']]);
    assert.is(JSON.parse(answer.body).id, DEMO.runs.waitingApproval);
    // Journaled in the sandbox, under the path without its prefix, each with its principal's one request in flight.
    const entries = sandbox.journal.records();
    assert.equal(
      entries.map((e) => [e.path, e.status, e.client?.principal, e.client?.inFlight]),
      [
        [RUN, 200, DEMO.principals.owner, 1],
        [RUN, 200, DEMO.principals.owner, 1],
      ],
    );
    assert.is(mock.control.journal.records().length, 0, 'nothing reached the default mock');
    // No request is left in flight: the sandbox expires its time to live after the last answer.
    const live = async () => (await mock.control.sandboxes()).items.some((x) => x.id === id);
    now += 999;
    assert.ok(await live(), 'alive within its time to live');
    now += 1;
    assert.not.ok(await live(), 'expired at its time to live');
  } finally {
    undo();
    await mock.close();
  }
});

test('replies and results only Koa renders are left to the whole chain and answered as it answers them', () =>
  withServers(async (s) => {
    const results: [string, (a: JsonText) => unknown][] = [
      ['204', () => new Reply(204, {})],
      ['205', () => new Reply(205, {})],
      ['304', (a) => new Reply(304, JSON.parse(a.text))],
      ['bytes', (a) => new Reply(200, Buffer.from(a.text))],
      ['a stream', (a) => new Reply(200, Readable.from([a.text]))],
      ['its own Content-Length', (a) => new Reply(200, JSON.parse(a.text), { 'content-length': '2' })],
      ['a bare string', (a) => a.text],
      ['bare bytes', (a) => Buffer.from(a.text)],
    ];
    for (const [name, change] of results) {
      const undo = getRunAnswers(s.mock, change);
      try {
        const { contexts } = await both(s, RUN);
        assert.is(contexts, 1, `${name}: handed to the whole chain`);
      } finally {
        undo();
      }
    }
  }));

test('replies the fast path renders itself answer as Koa renders them: its own headers first, a Content-Type given in any letter case kept', () =>
  withServers(async (s) => {
    const replies: [string, (a: JsonText) => unknown, string[]][] = [
      ['a plain object', (a) => JSON.parse(a.text), ['Content-Type', 'Content-Length']],
      [
        'a Reply with headers',
        (a) => new Reply(202, JSON.parse(a.text), { 'X-Extra': 'a', Location: '/here' }),
        ['X-Extra', 'Location', 'Content-Type', 'Content-Length'],
      ],
      ['its own Content-Type', (a) => new Reply(200, JSON.parse(a.text), { 'Content-Type': 'application/problem+json' }), ['Content-Type', 'Content-Length']],
      ['its own content-type', (a) => new Reply(200, JSON.parse(a.text), { 'content-type': 'application/problem+json' }), ['content-type', 'Content-Length']],
    ];
    for (const [name, change, headers] of replies) {
      const undo = getRunAnswers(s.mock, change);
      try {
        const { answer, contexts } = await both(s, RUN);
        assert.is(contexts, 0, `${name}: answered by the fast path`);
        assert.equal(answer.headers.filter((_, i) => i % 2 === 0).slice(0, headers.length), headers, name);
      } finally {
        undo();
      }
    }
  }));

test('a result given later, resolved or rejected, is answered by the fast path itself as the whole chain answers it', () =>
  withServers(async (s) => {
    const refusal = new ApiError('run_not_found', { affected_resource: `run:${DEMO.runs.waitingApproval}` });
    for (const [name, change, status] of [
      ['resolved', (a: JsonText) => Promise.resolve(a), 200],
      ['rejected', () => Promise.reject(refusal), 404],
    ] as const) {
      const undo = getRunAnswers(s.mock, change);
      try {
        const { answer, contexts } = await both(s, RUN);
        assert.equal([answer.status, contexts], [status, 0], name);
      } finally {
        undo();
      }
    }
  }));

/** Memory storage that says it is shared (other instances may write it): its catch-ups fail while `failing` > 0. */
class FlakyShared extends MemoryAdapter {
  failing = 0;
  looks = 0;
  async changesSince(): Promise<[]> {
    this.looks++;
    if (this.failing > 0) {
      this.failing--;
      throw new Error('storage down for this look');
    }
    return [];
  }
}

test('shared storage: a read whose catch-up failed goes to the whole chain, which catches up again: 200 when that look succeeds, its 503 when not', async () => {
  const storage = new FlakyShared();
  const mock = await createApp({ storage, fixtures: demoFixture(), clock: () => Date.parse(DEMO.now), log: () => {} });
  try {
    const s = await serve(mock);
    const run = JSON.parse((await send(s.fast, RUN, owner)).body);
    assert.is(s.contexts(), 0, 'taken by the fast path while its catch-up succeeds');
    storage.failing = 1;
    const looks = storage.looks;
    const once = await send(s.fast, RUN, owner);
    assert.equal([once.status, JSON.parse(once.body), s.contexts(), storage.looks - looks], [200, run, 1, 2]);
    storage.failing = 2;
    const down = await send(s.fast, RUN, owner);
    assert.is(down.status, 503);
    assert.equal(JSON.parse(down.body).detail.reason_code, 'storage_unavailable');
    assert.equal(down.headers.slice(0, 4), ['Content-Type', 'application/json; charset=utf-8', 'Retry-After', '1']);
    assert.equal(
      mock.control.journal.records().map((e) => e.status),
      [200, 200, 503],
    );
  } finally {
    await mock.close();
  }
});

test.run();
