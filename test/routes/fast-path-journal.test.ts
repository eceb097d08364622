// Journal bodies of reads the fast path answers, under a small journal body limit: ready JSON text, objects and refusals are cut as the whole chain cuts them, in the default mock and in a sandbox.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Server } from 'node:http';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { closeAll, countContexts, listen, newestEntry, send } from '../helpers/fast-path.js';

const P = `/api/v3/projects/${DEMO.projects.support}`;
const owner = bearer(DEMO.tokens.owner);
const LIMIT = 64;
const servers: Server[] = [];
test.after.each(() => closeAll(servers));

/** What the journal shows of a body longer than LIMIT bytes (ASCII here: as many characters). */
const cut = (body: string) => `${body.slice(0, LIMIT)}…[truncated: ${Buffer.byteLength(body)} bytes in all]`;

test('a journal body limit cuts each answer the fast path gives as the whole chain cuts it: ready JSON text, objects, refusals, twice over', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), clock: () => Date.parse(DEMO.now), journal: { bodyBytes: LIMIT } });
  try {
    const { id } = await mock.control.createSandbox();
    const sandbox = mock.control.sandboxControl(id);
    const contexts = countContexts(mock);
    const fast = await listen(mock.callback());
    const chain = await listen(mock.app.callback());
    servers.push(fast, chain);
    const reads: [string, typeof mock.control][] = [
      [`${P}/runs/${DEMO.runs.waitingApproval}`, mock.control], // a cached JsonText
      [`${P}/approvals`, mock.control], // an object
      [`${P}/runs/00000000-0000-4000-8000-000000000000`, mock.control], // a refusal
      [`/sandboxes/${id}${P}/runs/${DEMO.runs.waitingApproval}`, sandbox], // the same JsonText, in a sandbox
    ];
    for (let round = 0; round < 2; round++) {
      for (const [path, control] of reads) {
        const made = contexts();
        const answer = await send(fast, path, owner);
        assert.is(contexts(), made, `${path}: taken by the fast path`);
        assert.ok(Buffer.byteLength(answer.body) > LIMIT, `${path}: a body over the limit`);
        assert.is(control.requests().at(-1)?.response?.body, cut(answer.body), `${path}: the body as the journal shows it`);
        const entry = newestEntry(control.journal);
        assert.equal((await send(chain, path, owner)).body, answer.body);
        assert.equal(newestEntry(control.journal), entry, `${path}: the whole chain's entry`);
      }
    }
  } finally {
    await mock.close();
  }
});

test.run();
