// Shadow mode on the fast path: a GET it answers (no Koa context made) goes to the target and is compared exactly as
// one through the whole chain; a sandbox's GET records into that sandbox; drops over the bounds are counted.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, request, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockApp } from '../../src/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { SHADOW_TOKEN, shadowingMock, targetMock, type Target } from '../helpers/shadow.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}`;
const owner = bearer(DEMO.tokens.owner);

function listen(listener: RequestListener): Promise<Server> {
  const server = createServer(listener);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function get(server: Server, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Counts the Koa contexts the mock makes: the whole chain makes one per request, the fast path none. */
function countContexts(mock: MockApp): () => number {
  let made = 0;
  const create = mock.app.createContext.bind(mock.app);
  mock.app.createContext = ((req, res) => (made++, create(req, res))) as typeof mock.app.createContext;
  return () => made;
}

/** A target whose run detail answers 418: every compared GET of it drifts in `status`. */
async function drifting(): Promise<Target> {
  const target = await targetMock();
  target.perturb = (_path, status, body) => ({ status: status === 200 ? 418 : status, body });
  return target;
}

test('a GET the fast path answers is sent and compared as one through the whole chain: same request, same drift in its entry', async () => {
  const target = await drifting();
  const { mock } = await shadowingMock(target);
  const contexts = countContexts(mock);
  const fast = await listen(mock.callback());
  const full = await listen(mock.app.callback());
  try {
    const path = `${RUN}?runtime_mode=live&access_token=${DEMO.tokens.owner}`;
    const a = await get(fast, path, { ...owner, Accept: 'application/json' });
    assert.is(contexts(), 0, 'taken by the fast path');
    const b = await get(full, path, { ...owner, Accept: 'application/json' });
    assert.is(contexts(), 1);
    assert.equal([a.status, a.body], [b.status, b.body]);
    const report = await mock.control.drift({ settled: true });
    // Both sent alike: the query without the credential, the shadow token in place of the client's.
    const sent = { method: 'GET', path: `${RUN}?runtime_mode=live`, authorization: `Bearer ${SHADOW_TOKEN}`, body: null };
    assert.equal(
      target.sent.map(({ headers: _, ...s }) => s),
      [sent, sent],
    );
    assert.equal(target.sent[0].headers, target.sent[1].headers);
    assert.equal([report.compared, report.drifted, report.same], [2, 2, 0]);
    const drift = [{ field: 'status', mock: 200, target: 418 }];
    assert.equal(
      mock.control.requests().map((e) => e.drift),
      [drift, drift],
    );
  } finally {
    fast.close();
    full.close();
    await mock.close();
    await target.mock.close();
  }
});

test("a sandbox's GET on the fast path records into that sandbox's drift, not the default mock's", async () => {
  const target = await drifting();
  const { mock } = await shadowingMock(target);
  const contexts = countContexts(mock);
  const sandbox = await mock.control.createSandbox();
  const made = contexts();
  assert.is((await mock.fetch(`/sandboxes/${sandbox.id}${RUN}`, { headers: owner })).status, 200);
  assert.is(contexts(), made, 'taken by the fast path');
  await mock.control.drift({ settled: true }); // one queue for the server: settled for the sandbox too
  const settled = (await (await mock.fetch(`/sandboxes/${sandbox.id}/_mock/drift`)).json()) as { compared: number; drifted: number };
  assert.equal([settled.compared, settled.drifted], [1, 1]);
  assert.equal([(await mock.control.drift()).compared, target.sent.map((s) => s.path)], [0, [RUN]]);
  await mock.close();
  await target.mock.close();
});

test('over the rate on the fast path: the answers are unchanged, the drops are counted, only admitted requests are sent', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target, { ratePerSecond: 2 });
  const contexts = countContexts(mock);
  const bodies = new Set<string>();
  for (let i = 0; i < 5; i++) {
    const res = await mock.fetch(RUN, { headers: owner });
    assert.is(res.status, 200);
    bodies.add(await res.text());
  }
  assert.is(contexts(), 0, 'taken by the fast path');
  assert.is(bodies.size, 1);
  const report = await mock.control.drift({ settled: true });
  // Two tokens at the start; five requests within well under the half second a third token takes.
  assert.equal([report.compared, report.dropped], [2, { queue_full: 0, rate_limited: 3, target_down: 0 }]);
  assert.is(target.sent.length, 2);
  await mock.close();
  await target.mock.close();
});

test('a target that is down costs the fast path nothing: the client gets its answer, the miss is counted', async () => {
  const target = await targetMock();
  target.down = true;
  const { mock } = await shadowingMock(target);
  const contexts = countContexts(mock);
  const res = await mock.fetch(RUN, { headers: owner });
  assert.is(res.status, 200);
  assert.is(contexts(), 0);
  const report = await mock.control.drift({ settled: true });
  assert.equal([report.compared, report.unreachable], [0, 1]);
  await mock.close();
  await target.mock.close();
});

test.run();
