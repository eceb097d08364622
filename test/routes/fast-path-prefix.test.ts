// A sandbox's read on the fast path marks its path prefix only on a Koa context made for it: an unexpected error's
// report gets a context whose request carries the prefix (as the whole chain's sandbox router marks it), a request
// answered without one is left as it came.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'koa';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { pathPrefixOf } from '../../src/pipeline/index.js';
import { DEMO } from '../helpers/demo.js';

const RUN_PATH = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}`;

/** A response that keeps what was written; a request whose Authorization header throws at its `failAt`-th read (0: never). */
function exchange(url: string, failAt: number) {
  let reads = 0;
  const headers: Record<string, string> = { host: 'localhost' };
  Object.defineProperty(headers, 'authorization', {
    enumerable: true,
    get: () => {
      if (++reads === failAt) throw new Error('unexpected read failure');
      return `Bearer ${DEMO.tokens.owner}`;
    },
  });
  const req = { method: 'GET', url, headers, rawHeaders: ['Host', 'localhost', 'Authorization', `Bearer ${DEMO.tokens.owner}`], socket: {} };
  const sent = { status: 0, body: '' };
  const res = {
    statusCode: 200,
    writableEnded: false,
    headersSent: false,
    setHeader() {},
    end(body: string) {
      sent.status = this.statusCode;
      sent.body = body;
    },
  };
  return { req: req as unknown as IncomingMessage, res: res as unknown as ServerResponse, sent };
}

test('fast path prefix: an unexpected error in a sandbox read is reported with a context marked with /sandboxes/{id}', async () => {
  const reported: Context[] = [];
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), log: () => {}, onError: (_err, ctx) => void reported.push(ctx as Context) });
  try {
    const { id } = await mock.control.createSandbox();
    const listener = mock.callback();
    // The first read is the client observer's at arrival, the second authentication's inside the handler's pipeline.
    const failing = exchange(`/sandboxes/${id}${RUN_PATH}`, 2);
    listener(failing.req, failing.res);
    await new Promise((r) => setImmediate(r));
    assert.is(failing.sent.status, 500);
    assert.is(reported.length, 1);
    assert.is(reported[0].req, failing.req);
    assert.is(pathPrefixOf(reported[0].req), `/sandboxes/${id}`);
    assert.is(failing.req.url, RUN_PATH);

    // Answered without a context: the request is readdressed, and not marked.
    const ok = exchange(`/sandboxes/${id}${RUN_PATH}`, 0);
    listener(ok.req, ok.res);
    await new Promise((r) => setImmediate(r));
    assert.is(ok.sent.status, 200);
    assert.equal(JSON.parse(ok.sent.body).id, DEMO.runs.waitingApproval);
    assert.is(pathPrefixOf(ok.req), '');
    assert.is(reported.length, 1);
  } finally {
    await mock.close();
  }
});

test('fast path prefix: the default mock read with an unexpected error is reported with an unmarked context', async () => {
  const reported: Context[] = [];
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), log: () => {}, onError: (_err, ctx) => void reported.push(ctx as Context) });
  try {
    const failing = exchange(RUN_PATH, 2);
    mock.callback()(failing.req, failing.res);
    await new Promise((r) => setImmediate(r));
    assert.is(failing.sent.status, 500);
    assert.is(reported.length, 1);
    assert.is(pathPrefixOf(reported[0].req), '');
  } finally {
    await mock.close();
  }
});

test.run();
