// What the fast path reports: an unexpected error in a read goes to onError with a Koa context like the whole chain's (path, params, operation, the mock addressed), and a shadow-mode failure after the answer is out is reported while the client keeps its answer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RequestListener, Server } from 'node:http';
import type { Context } from 'koa';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { addressed, pathPrefixOf } from '../../src/pipeline/index.js';
import { DEMO } from '../helpers/demo.js';
import { shadowingMock, targetMock } from '../helpers/shadow.js';
import { closeAll, countContexts, listen, readingAuthorization, send } from '../helpers/fast-path.js';

const P = DEMO.projects.support;
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;
const TOKEN = `Bearer ${DEMO.tokens.owner}`;
const servers: Server[] = [];
test.after.each(() => closeAll(servers));

async function serve(listener: RequestListener): Promise<Server> {
  const server = await listen(listener);
  servers.push(server);
  return server;
}

test('an unexpected error in a read: onError gets a context with the path, params, operation and mock the whole chain gives it, in a sandbox too', async () => {
  const reported: { err: unknown; ctx: Context }[] = [];
  const mock: MockApp = await createApp({
    storage: 'memory',
    fixtures: demoFixture(),
    log: () => {},
    onError: (err, ctx) => void reported.push({ err, ctx: ctx as Context }),
  });
  try {
    const { id } = await mock.control.createSandbox();
    const sandbox = mock.control.sandboxControl(id);
    const contexts = countContexts(mock);
    // Authentication's read of the header (the second) fails: an error no reason code names, a 500 to report.
    const failing = (listener: RequestListener) =>
      readingAuthorization(listener, (n) => {
        if (n === 2) throw new Error('unexpected read failure');
        return TOKEN;
      });
    const fast = await serve(failing(mock.callback()));
    const chain = await serve(failing(mock.app.callback()));
    const seen = (ctx: Context) => ({
      path: ctx.path,
      params: { ...ctx.params },
      operation: ctx.state.operation,
      transitions: ctx.state.transitions,
      prefix: pathPrefixOf(ctx.req),
      mock: addressed(ctx).control === sandbox ? 'sandbox' : addressed(ctx).control === mock.control ? 'default' : 'other',
    });
    for (const [prefix, named] of [
      ['', 'default'],
      [`/sandboxes/${id}`, 'sandbox'],
    ] as const) {
      const made = contexts();
      const a = await send(fast, prefix + RUN);
      assert.is(contexts(), made + 1, 'one context, made for the report');
      const b = await send(chain, prefix + RUN);
      assert.equal([a.status, b.status, a.body], [500, 500, b.body]);
      assert.is(reported.length, 2);
      const [onFast, onChain] = reported.splice(0).map((r) => seen(r.ctx));
      assert.equal(onFast, {
        path: RUN,
        params: { project_id: P, run_id: DEMO.runs.waitingApproval },
        operation: 'getRun',
        transitions: [],
        prefix,
        mock: named,
      });
      assert.equal(onFast, onChain, `${prefix || 'default'}: the whole chain's context`);
    }
  } finally {
    await mock.close();
  }
});

test('shadow mode failing once the answer is out: the client keeps its answer, the failure goes to onError', async () => {
  const target = await targetMock();
  const reported: unknown[] = [];
  const { mock } = await shadowingMock(target, {}, { onError: (err) => void reported.push(err) });
  try {
    const contexts = countContexts(mock);
    const expected = await (await mock.fetch(RUN, { headers: { authorization: TOKEN } })).text();
    // Shadow mode reads the client's Authorization (to send the shadow token in its place) after the answer is written.
    const failure = new Error('shadow mode failed');
    const server = await serve(
      readingAuthorization(mock.callback(), (_n, res) => {
        if (res.headersSent) throw failure;
        return TOKEN;
      }),
    );
    const answer = await send(server, RUN);
    assert.is(contexts(), 0, 'taken by the fast path');
    assert.equal([answer.status, answer.body], [200, expected]);
    assert.equal(reported, [failure]);
  } finally {
    await mock.close();
    await target.mock.close();
  }
});

test.run();
