// GET targets remembered by the fast path: the same route, parameters and query as the table and Koa give, one frozen
// object per target while remembered, targets of up to 256 characters, 1,024 at most; and answers through a mock that
// stay each mock's own when one target is read at the root, in a sandbox, and with other queries.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { bodyReader } from '../../src/pipeline/endpoint.js';
import type { EndpointMiddleware } from '../../src/pipeline/index.js';
import { V3_ROUTES } from '../../src/routes/index.js';
import { routeTable } from '../../src/routes/table.js';
import { routedTargets } from '../../src/fast-path-targets.js';
import { DEMO } from '../helpers/demo.js';
import { countContexts } from '../helpers/fast-path.js';

const table = routeTable(V3_ROUTES.map((m) => m(bodyReader(1024), 1024)));
const P = DEMO.projects.support;
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;
const TOKEN = { authorization: `Bearer ${DEMO.tokens.owner}` };

test('a routed target: the path, parameters and operation the table finds, and the query as Koa parses it', () => {
  const at = routedTargets(table);
  const cases: [string, string, Record<string, string>, Record<string, unknown>][] = [
    [RUN, 'getRun', { project_id: P, run_id: DEMO.runs.waitingApproval }, {}],
    [`${RUN}?runtime_mode=test`, 'getRun', { project_id: P, run_id: DEMO.runs.waitingApproval }, { runtime_mode: 'test' }],
    [`${RUN}/?a=1&a=2&b=`, 'getRun', { project_id: P, run_id: DEMO.runs.waitingApproval }, { a: ['1', '2'], b: '' }],
    [`/api/v3/projects/${P}/runs/x%20y?q=%41`, 'getRun', { project_id: P, run_id: 'x y' }, { q: 'A' }],
  ];
  for (const [target, operation, params, query] of cases) {
    const routed = at(target)!;
    const q = target.indexOf('?');
    const path = q < 0 ? target : target.slice(0, q);
    assert.equal(
      { path: routed.path, querystring: routed.querystring, params: routed.params, query: { ...routed.query }, operation: routed.fast.operation },
      { path, querystring: q < 0 ? '' : target.slice(q + 1), params, query, operation },
      target,
    );
    const found = table.lookup('GET', path) as { handler: EndpointMiddleware };
    assert.is(routed.fast, found.handler.fast, `${target}: the route's own pipeline`);
  }
});

test('a target no offered pipeline serves for GET is null, remembered as such', () => {
  const at = routedTargets(table);
  for (const target of ['/api/v3/nothing/here', `/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`, '/api/v3/']) {
    assert.is(at(target), null, target);
    assert.is(at(target), null, `${target} (remembered)`);
  }
});

test('a remembered target is one frozen object: its parameters, its query and a repeated key values cannot be changed', () => {
  const at = routedTargets(table);
  const target = `${RUN}?a=1&a=2`;
  const first = at(target)!;
  assert.is(at(target), first);
  assert.is.not(at(`${RUN}?a=1`), first);
  for (const part of [first, first.params, first.query, first.query.a]) assert.ok(Object.isFrozen(part));
  assert.throws(() => ((first.params as Record<string, string>).run_id = 'other'));
  assert.is(first.params.run_id, DEMO.runs.waitingApproval);
});

/** A run-detail target of exactly `n` characters (the rest a query). */
const ofLength = (n: number) => `${RUN}?x=${'y'.repeat(n - RUN.length - 3)}`;

test('targets of 256 characters are remembered, of 257 routed each time (with the same answer)', () => {
  const at = routedTargets(table);
  const [t256, t257] = [ofLength(256), ofLength(257)];
  assert.equal([t256.length, t257.length], [256, 257]);
  assert.is(at(t256), at(t256));
  assert.is.not(at(t257), at(t257));
  assert.equal(at(t257)!.query, { x: 'y'.repeat(257 - RUN.length - 3) });
});

test('1,024 targets are kept; the 1,025th starts the memory again, and every target still routes right', () => {
  const at = routedTargets(table);
  const target = (i: number) => `${RUN}?i=${i}`;
  const first = at(target(0));
  for (let i = 1; i < 1024; i++) at(target(i));
  assert.is(at(target(0)), first, 'the 1,024th kept the first');
  const last = at(target(1023));
  at(target(1024));
  const again = at(target(0))!;
  assert.is.not(again, first, 'the 1,025th emptied the memory');
  assert.equal(again.query, { i: '0' });
  assert.is.not(at(target(1023)), last);
});

test('one target at the root, in a sandbox and with other queries: each answer is its own mock and query, on the fast path', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), clock: () => Date.parse(DEMO.now) });
  try {
    const { id } = await mock.control.createSandbox();
    const cancel = await mock.fetch(`/sandboxes/${id}${RUN}/cancel`, {
      method: 'POST',
      headers: { ...TOKEN, 'content-type': 'application/json' },
      body: '{"reason":"test"}',
    });
    assert.is(cancel.status, 200);
    const contexts = countContexts(mock);
    const read = async (target: string) => {
      const res = await mock.fetch(target, { headers: TOKEN });
      return [res.status, await res.json()] as [number, { status?: string; detail?: { reason_code: string } }];
    };
    for (let round = 0; round < 2; round++) {
      const [rootStatus, root] = await read(RUN);
      const [sandboxStatus, sandbox] = await read(`/sandboxes/${id}${RUN}`);
      assert.equal([rootStatus, root.status], [200, 'waiting_approval'], `round ${round}: the root's run`);
      assert.equal([sandboxStatus, sandbox.status], [200, 'cancelled'], `round ${round}: the sandbox's run`);
      const mode = (root as { runtime_mode: string }).runtime_mode;
      const [otherMode, other] = await read(`${RUN}?runtime_mode=${mode === 'live' ? 'test' : 'live'}`);
      const [sameMode] = await read(`${RUN}?runtime_mode=${mode}`);
      assert.equal([otherMode, other.detail?.reason_code, sameMode], [404, 'run_not_found', 200], `round ${round}: the query read each time`);
      const [badMode, bad] = await read(`${RUN}?runtime_mode=nope`);
      assert.equal([badMode, (bad.detail as unknown as { type: string }[])[0].type], [422, 'enum'], `round ${round}: a refused query`);
    }
    assert.is(contexts(), 0, 'every read on the fast path');
  } finally {
    await mock.close();
  }
});

test.run();
