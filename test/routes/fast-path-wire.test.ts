// What the fast path writes: Content-Length in bytes for text beyond ASCII (ready JSON text and objects, plain and owned servers), and a response someone else's server already ended or began left as the whole chain leaves it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RequestListener, Server, ServerResponse } from 'node:http';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { closeAll, countContexts, listen, send } from '../helpers/fast-path.js';

const P = `/api/v3/projects/${DEMO.projects.support}`;
const RUN = `${P}/runs/${DEMO.runs.waitingApproval}`;
const owner = bearer(DEMO.tokens.owner);
const servers: Server[] = [];
test.after.each(() => closeAll(servers));

async function withMock(body: (mock: MockApp) => Promise<void>): Promise<void> {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), clock: () => Date.parse(DEMO.now) });
  try {
    await body(mock);
  } finally {
    await mock.close();
  }
}

async function serve(listener: RequestListener, owned = false): Promise<Server> {
  const server = await listen(listener, owned);
  servers.push(server);
  return server;
}

const PREVIEW = 'Kopfhörer kaputt — 49 € zurück';
const JOB = 'Nächtliche Übersicht ✓';

test('text beyond ASCII: Content-Length counts its bytes, for ready JSON text and for objects, on a plain and an owned server', () =>
  withMock(async (mock) => {
    const state = structuredClone(mock.control.exportState());
    const run = state.runs.find((r) => r.id === DEMO.runs.waitingApproval)!;
    run.request_metadata = { ...run.request_metadata, message_preview: PREVIEW };
    const job = state.jobs.find((j) => j.project_id === DEMO.projects.support)!;
    job.name = JOB;
    await mock.control.importState(state);
    const contexts = countContexts(mock);
    const [plain, owned, chain] = [await serve(mock.callback()), await serve(mock.callback(), true), await serve(mock.app.callback())];
    for (const [path, read] of [
      [RUN, (b: any) => b.request_metadata.message_preview],
      [`${P}/jobs`, (b: any) => b.items.find((j: { id: string }) => j.id === job.id).name],
    ] as const) {
      const whole = await send(chain, path, owner);
      for (const server of [plain, owned]) {
        const made = contexts();
        const answer = await send(server, path, owner);
        assert.is(contexts(), made, `${path}: taken by the fast path`);
        assert.equal(answer, whole, `${path}: the whole chain's answer`);
        const length = answer.headers[answer.headers.indexOf('Content-Length') + 1];
        assert.is(length, String(Buffer.byteLength(answer.body)));
        assert.ok(Number(length) > answer.body.length, 'more bytes than characters');
        assert.is(read(JSON.parse(answer.body)), path === RUN ? PREVIEW : JOB);
      }
    }
  }));

/** Someone else's server: `first` handles the response, then the mock's listener is given the request. */
function theirs(listener: RequestListener, first: (res: ServerResponse) => void, errors: unknown[]): RequestListener {
  return (req, res) => {
    res.on('error', (err) => errors.push(err));
    first(res);
    try {
      listener(req, res);
    } catch (err) {
      errors.push(err);
    }
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

test('a response their server already ended: the fast path writes nothing more and throws nothing, and journals the read once, as the whole chain', () =>
  withMock(async (mock) => {
    const errors: unknown[] = [];
    const contexts = countContexts(mock);
    const ended = (res: ServerResponse) => res.end('theirs');
    for (const listener of [mock.callback(), mock.app.callback()]) {
      const before = mock.control.journal.next;
      const answer = await send(await serve(theirs(listener, ended, errors)), RUN, owner);
      await settle();
      assert.equal([answer.status, answer.body, errors], [200, 'theirs', []]);
      assert.is(mock.control.journal.next, before + 1, 'journaled once');
      assert.is(mock.control.journal.records().at(-1)?.path, RUN);
    }
    assert.is(contexts(), 1, 'only the whole chain made a context');
  }));

test('a response whose head their server already sent: the answer body follows it, as on the whole chain', () =>
  withMock(async (mock) => {
    const errors: unknown[] = [];
    const contexts = countContexts(mock);
    const began = (res: ServerResponse) => {
      res.writeHead(299, { 'X-Theirs': 'yes' });
      res.write('theirs:');
    };
    const run = await (await mock.fetch(RUN, { headers: owner })).text();
    const fast = await send(await serve(theirs(mock.callback(), began, errors)), RUN, owner);
    assert.is(contexts(), 0, 'taken by the fast path');
    const chain = await send(await serve(theirs(mock.app.callback(), began, errors)), RUN, owner);
    assert.equal(fast, chain, 'the whole chain answers the same');
    assert.equal([fast.status, fast.headers.slice(0, 2), fast.body, errors], [299, ['X-Theirs', 'yes'], `theirs:${run}`, []]);
  }));

test.run();
