// Coverage of reads the fast path answers: each v3 read counted once with its status and reason code, in the report of the mock it addressed (a sandbox's in its own), as the whole chain counts it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RequestListener, Server } from 'node:http';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { closeAll, countContexts, listen, send } from '../helpers/fast-path.js';

const P = `/api/v3/projects/${DEMO.projects.support}`;
const RUN = `${P}/runs/${DEMO.runs.waitingApproval}`;
const owner = bearer(DEMO.tokens.owner);
const servers: Server[] = [];
test.after.each(() => closeAll(servers));

/** Reads of getRun and listApprovals: ok, refused for each reason the pipeline has, and refused by validation (no reason code). */
const READS: [string, Record<string, string>][] = [
  [RUN, owner],
  [RUN, {}],
  [RUN, bearer('nope')],
  [`${P}/runs/00000000-0000-4000-8000-000000000000`, owner],
  [`${P}/runs/not-a-uuid`, owner],
  [`${P}/approvals?status=bogus`, owner],
  [`${P}/approvals`, owner],
];

/** The counts of the operations `mock` answered (its report's rows with requests). */
const counted = (report: ReturnType<MockApp['control']['coverage']>) =>
  report.operations.filter((o) => o.requests > 0).map((o) => ({ operation: o.operation, requests: o.requests, exercised: o.exercised }));

/** Sends READS (prefixed with `prefix`) to a fresh demo mock through `listener(mock)`; answers the mock and the Koa contexts made. */
async function readAll(listener: (mock: MockApp) => RequestListener, prefix: (mock: MockApp) => Promise<string>) {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const before = await prefix(mock);
  const contexts = countContexts(mock);
  const server = await listen(listener(mock));
  servers.push(server);
  for (const [path, headers] of READS) await send(server, before + path, headers);
  return { mock, contexts: contexts() };
}

const EXPECTED = [
  {
    operation: 'listApprovals',
    requests: 2,
    exercised: { statuses: [200, 422], reason_codes: [], transitions: [] },
  },
  {
    operation: 'getRun',
    requests: 5,
    exercised: { statuses: [200, 401, 404, 422], reason_codes: ['authentication_required', 'run_not_found', 'token_invalid'], transitions: [] },
  },
].sort((a, b) => a.operation.localeCompare(b.operation));

const bySorted = (rows: ReturnType<typeof counted>) => [...rows].sort((a, b) => a.operation.localeCompare(b.operation));

test('each read counted once with its status and reason code: the report the whole chain makes of the same reads', async () => {
  const none = async () => '';
  const fast = await readAll((m) => m.callback(), none);
  const chain = await readAll((m) => m.app.callback(), none);
  try {
    assert.is(fast.contexts, 0, 'every read taken by the fast path');
    assert.equal(bySorted(counted(fast.mock.control.coverage())), EXPECTED);
    assert.equal(counted(fast.mock.control.coverage()), counted(chain.mock.control.coverage()));
  } finally {
    await fast.mock.close();
    await chain.mock.close();
  }
});

test('a sandbox read counts in that sandbox report, and nothing in the default mock', async () => {
  let id = '';
  const sandbox = async (m: MockApp) => `/sandboxes/${(id = (await m.control.createSandbox()).id)}`;
  const fast = await readAll((m) => m.callback(), sandbox);
  try {
    assert.is(fast.contexts, 0, 'every read taken by the fast path');
    assert.equal(bySorted(counted(fast.mock.control.sandboxControl(id).coverage())), EXPECTED);
    assert.equal(counted(fast.mock.control.coverage()), []);
  } finally {
    await fast.mock.close();
  }
});

test.run();
