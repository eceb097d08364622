// A sandbox that ends while the fast path answers its read: a read that succeeded keeps its 200, a refusal becomes the selector's 404 sandbox_not_found (its headers kept, one Content-Length), as on the whole chain.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RequestListener, Server } from 'node:http';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { gone } from '../helpers/sandbox-end.js';
import { closeAll, countContexts, listen, readingAuthorization, send, type Raw } from '../helpers/fast-path.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}`;
const servers: Server[] = [];
test.after.each(() => closeAll(servers));

/**
 * GETs the run from a fresh sandbox through `path` ('fast': the mock's listener, 'owned': it in a server as the CLI's,
 * 'chain': Koa's whole chain) with `token`; the sandbox is deleted at the second read of Authorization, which is
 * authentication's: after the request was handed to the sandbox, before it is answered. Answers what the client got
 * once the deletion is over (it waits for the request), and the Koa contexts made.
 */
async function endedWhileRead(mock: MockApp, path: 'fast' | 'owned' | 'chain', token: string): Promise<{ id: string; answer: Raw; contexts: number }> {
  const { id } = await mock.control.createSandbox();
  const contexts = countContexts(mock);
  let deletion: Promise<void> | undefined;
  const listener: RequestListener = path === 'chain' ? mock.app.callback() : mock.callback();
  const hooked = readingAuthorization(listener, (n) => {
    if (n === 2) deletion = mock.control.deleteSandbox(id);
    return `Bearer ${token}`;
  });
  const server = await listen(hooked, path === 'owned');
  servers.push(server);
  const answer = await send(server, `/sandboxes/${id}${RUN}`);
  assert.ok(deletion, 'the sandbox was deleted while the request was answered');
  await deletion;
  return { id, answer, contexts: contexts() };
}

const header = (raw: Raw, name: string) => raw.headers[raw.headers.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === name) + 1];
const names = (raw: Raw) => raw.headers.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase());

test('a read that succeeded before its sandbox ended keeps its 200, on the fast path (plain and owned server) as on the whole chain', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  try {
    // The sandbox starts from the default mock's state: the same run.
    const expected = await (await mock.fetch(RUN, { headers: bearer(DEMO.tokens.owner) })).json();
    const chain = await endedWhileRead(mock, 'chain', DEMO.tokens.owner);
    for (const path of ['fast', 'owned'] as const) {
      const { answer, contexts } = await endedWhileRead(mock, path, DEMO.tokens.owner);
      assert.is(contexts, 0, `${path}: taken by the fast path`);
      assert.is(answer.status, 200, path);
      assert.equal(JSON.parse(answer.body), expected, path);
      assert.is(header(answer, 'content-length'), String(Buffer.byteLength(answer.body)), path);
      assert.equal(answer.headers, chain.answer.headers, `${path}: the headers of the whole chain`);
    }
    assert.is(chain.answer.status, 200);
  } finally {
    await mock.close();
  }
});

test('a refusal of a read whose sandbox ended meanwhile is 404 sandbox_not_found for that id: the 401 headers kept, one Content-Length', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  try {
    const chain = await endedWhileRead(mock, 'chain', 'not-a-token');
    for (const path of ['fast', 'owned', 'chain'] as const) {
      const { id, answer, contexts } = path === 'chain' ? chain : await endedWhileRead(mock, path, 'not-a-token');
      if (path !== 'chain') assert.is(contexts, 0, `${path}: taken by the fast path`);
      assert.is(answer.status, 404, path);
      assert.equal(JSON.parse(answer.body), gone(id), path);
      assert.is(header(answer, 'content-length'), String(Buffer.byteLength(answer.body)), path);
      assert.is(header(answer, 'www-authenticate'), 'Bearer', `${path}: the refusal's own header stays`);
      assert.equal(names(answer).slice(0, 3), ['content-type', 'www-authenticate', 'content-length'], path);
      assert.is(names(answer).filter((n) => n === 'content-length').length, 1, path);
      assert.equal(names(answer), names(chain.answer), `${path}: the headers of the whole chain`);
    }
  } finally {
    await mock.close();
  }
});

test.run();
