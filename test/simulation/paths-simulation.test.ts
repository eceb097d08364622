// The simulation behaves the same whichever way requests arrive (a socket, mock.fetch, mock.inject, an intercepted
// origin): the same chat message, clock move and reads give the same run, journal, coverage and stored state.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AddressInfo } from 'node:net';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from '../helpers/demo.js';

const P = DEMO.projects.support;
const HOOK = `/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`;
const owner = { authorization: `Bearer ${DEMO.tokens.owner}` };
type Send = (path: string, init: { method?: string; headers: Record<string, string>; body?: string }) => Promise<{ status: number; text: string }>;
type Way = { name: string; open(mock: MockApp): Promise<{ send: Send; close(): Promise<void> | void }> };

const WAYS: Way[] = [
  {
    name: 'socket',
    async open(mock) {
      const server = mock.app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return {
        send: async (path, init) => {
          const r = await fetch(base + path, init);
          return { status: r.status, text: await r.text() };
        },
        close: () => new Promise<void>((r) => server.close(() => r())),
      };
    },
  },
  {
    name: 'mock.fetch',
    async open(mock) {
      return { send: async (path, init) => ((r) => r.text().then((text) => ({ status: r.status, text })))(await mock.fetch(path, init)), close: () => {} };
    },
  },
  {
    name: 'mock.inject',
    async open(mock) {
      return {
        send: async (path, init) => {
          const r = await mock.inject({ method: (init.method ?? 'GET') as 'GET', url: path, headers: init.headers, payload: init.body });
          return { status: r.statusCode, text: r.payload };
        },
        close: () => {},
      };
    },
  },
  {
    name: 'intercept',
    async open(mock) {
      const origin = 'https://runtime.parity.test';
      const handle = mock.intercept(origin);
      return {
        send: async (path, init) => {
          const r = await fetch(origin + path, init);
          return { status: r.status, text: await r.text() };
        },
        close: () => handle.restore(),
      };
    },
  },
];

/** One scenario: a chat message, an hour of simulated time, reads; everything a test could look at afterwards. */
async function scenario(way: Way) {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'parity', simulation: { mode: 'auto' } });
  const { send, close } = await way.open(mock);
  try {
    const json = { ...{ 'content-type': 'application/json' }, 'x-chatapp-secret-token': DEMO.chatSecret };
    const hook = await send(HOOK, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ update_id: 7, message: { from: { id: 99 }, text: 'Where is my refund?' } }),
    });
    assert.is(hook.status, 200, `${way.name}: ${hook.text}`);
    const runId = JSON.parse(hook.text).run_id as string;
    const queued = JSON.parse((await send(`/api/v3/projects/${P}/runs/${runId}`, { headers: owner })).text);
    await mock.control.advanceClock(60 * 60 * 1000);
    const done = await send(`/api/v3/projects/${P}/runs/${runId}`, { headers: owner });
    const approvals = await send(`/api/v3/projects/${P}/approvals?status=approved`, { headers: owner });
    return {
      queued: queued.status as string,
      run: JSON.parse(done.text),
      approvals: JSON.parse(approvals.text),
      journal: mock.control.requests().map((e) => [e.method, e.path, e.status, e.operation, e.at]),
      coverage: mock.control.coverage(),
      state: JSON.stringify(mock.control.exportState()),
    };
  } finally {
    await close();
  }
}

test('the simulation through a socket, mock.fetch, mock.inject and an intercepted origin: the same run, journal, coverage and state', async () => {
  const results = [];
  for (const way of WAYS) results.push(await scenario(way));
  const [first] = results;
  // The scenario itself did what the simulation promises (so equality below is not equality of nothing).
  assert.is(first.queued, 'queued');
  assert.is(first.run.status, 'succeeded');
  assert.ok(first.run.steps.length >= 2, 'the behaviour ran its steps');
  assert.equal(
    first.journal.map((e) => [e[0], e[2], e[3]]),
    [
      ['POST', 200, 'chatWebhook'],
      ['GET', 200, 'getRun'],
      ['GET', 200, 'getRun'],
      ['GET', 200, 'listApprovals'],
    ],
  );
  assert.ok(first.coverage.simulated.transitions.includes('run: queued -> running'), 'coverage reports simulated transitions apart');
  assert.ok(first.coverage.simulated.events >= 4);
  for (let i = 1; i < WAYS.length; i++) {
    const other = results[i];
    const name = WAYS[i].name;
    assert.equal(other.run, first.run, `${name}: the run`);
    assert.equal(other.approvals, first.approvals, `${name}: the approvals`);
    assert.equal(other.journal, first.journal, `${name}: the journal`);
    assert.equal(other.coverage, first.coverage, `${name}: the coverage report`);
    assert.is(other.state, first.state, `${name}: the stored state`);
  }
});

test.run();
