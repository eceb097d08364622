// Global fetch to an intercepted origin: a standard Response with the request's url, every kind of input, the errors fetch gives.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from '../helpers/demo.js';

const ORIGIN = 'https://fetch.example.test';
const P = DEMO.projects.support;
const runUrl = `${ORIGIN}/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;
const owner = { authorization: `Bearer ${DEMO.tokens.owner}` };
const fresh = () => createApp({ storage: 'memory', fixtures: demoFixture() });

test('global fetch: the answer is a Response with the url, status, headers and body of the request it answers', async () => {
  const mock = await fresh();
  using _h = mock.intercept(ORIGIN);
  const res = await fetch(runUrl, { headers: owner });
  assert.instance(res, Response);
  assert.is(res.url, runUrl);
  assert.is(res.status, 200);
  assert.is(res.redirected, false);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const body = (await res.json()) as { id: string; project_id: string };
  assert.is(body.id, DEMO.runs.failedApi);
  assert.is(body.project_id, P);
  assert.is(res.bodyUsed, true);
});

test('global fetch: a URL object, a Request, and a Request with a body all reach the mock as sent', async () => {
  const mock = await fresh();
  using _h = mock.intercept(ORIGIN);
  assert.is((await fetch(new URL(runUrl), { headers: owner })).status, 200);
  assert.is((await fetch(new Request(runUrl, { headers: owner }))).status, 200);
  const cancel = new Request(`${ORIGIN}/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`, {
    method: 'POST',
    headers: { ...owner, 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 'from a Request' }),
  });
  const answered = await fetch(cancel);
  assert.is(answered.status, 200);
  assert.is(((await answered.json()) as { status: string }).status, 'cancelled');
  const journal = mock.control.requests();
  assert.equal(
    journal.map((e) => [e.method, e.status]),
    [
      ['GET', 200],
      ['GET', 200],
      ['POST', 200],
    ],
  );
  assert.equal(journal[2].request.body, { reason: 'from a Request' });
});

test('global fetch: a relative URL is still refused as fetch refuses it, and an aborted signal rejects before the mock sees it', async () => {
  const mock = await fresh();
  using _h = mock.intercept(ORIGIN);
  let err: unknown;
  await fetch('/api/v3/health').catch((e: unknown) => (err = e));
  assert.instance(err, TypeError);
  const ac = new AbortController();
  ac.abort();
  err = undefined;
  await fetch(runUrl, { headers: owner, signal: ac.signal }).catch((e: unknown) => (err = e));
  assert.is((err as Error).name, 'AbortError');
  assert.is(mock.control.requests().length, 0, 'nothing reached the mock');
});

test('global fetch: another origin passes by the shortcut to the network, and the shortcut goes with the last handle', async () => {
  const before = globalThis.fetch;
  const mock = await fresh();
  const handle = mock.intercept(ORIGIN);
  let err: unknown;
  // An origin nobody intercepts and nothing serves: fetch fails as over the network.
  await fetch('http://127.0.0.1:9/nothing').catch((e: unknown) => (err = e));
  assert.instance(err, TypeError);
  assert.is(mock.control.requests().length, 0);
  handle.restore();
  assert.is(globalThis.fetch, before);
});

test.run();
