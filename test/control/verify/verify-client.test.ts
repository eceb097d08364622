// The typed client's verify, verifySequence and verifyOnly: the same answers as in process, and the same AssertionError.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AssertionError } from 'node:assert';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ControlError, createClient } from '../../../src/client/index.js';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';
import { catchError } from '../../helpers/verify-traffic.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;
const MISSING = `/api/v3/projects/${P}/runs/00000000-0000-4000-8000-000000000000`;
const CANCEL = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`;

async function setup() {
  const t = await freshMock();
  await t.mock.fetch(RUN, { headers: owner });
  await t.mock.fetch(MISSING, { headers: owner });
  await t.mock.fetch(CANCEL, { method: 'POST', headers: { ...owner, 'content-type': 'application/json' }, body: '{}' });
  await t.mock.fetch(`/api/v3/projects/${P}/users`, { headers: owner });
  return t;
}

test('typed client: the same methods answer {matched, ids} or reject with the same AssertionError', async () => {
  const { mock } = await setup();
  const server = createServer(mock.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: DEMO.tokens.owner });
    assert.equal(await client.control.verify({ request: { operation: 'getRun' } }), { matched: 2, ids: [1, 2] });
    assert.equal(await client.control.verifySequence({ requests: [{ operation: 'getRun' }, { method: 'POST' }] }), { matched: 2, ids: [1, 3] });
    assert.equal(await client.control.verifyOnly({ requests: [{ path: '/api/**' }] }), { matched: 4, ids: [1, 2, 3, 4] });
    const inProcess = catchError(() => mock.control.verify({ request: { operation: 'getRun', status: 200 }, count: { exactly: 2 } }));
    const err = await client.control.verify({ request: { operation: 'getRun', status: 200 }, count: { exactly: 2 } }).catch((e: unknown) => e);
    assert.ok(err instanceof AssertionError);
    assert.is(err.message, inProcess.message);
    assert.equal(err.expected, inProcess.expected);
    assert.equal(err.actual, inProcess.actual);
    const only = await client.control.verifyOnly({ requests: [{ method: 'GET' }] }).catch((e: unknown) => e);
    assert.ok(only instanceof AssertionError);
    assert.equal(only.actual, { unexpected: [`#3 POST ${CANCEL} -> 200`] });
    const bad = await client.control.verify({ request: { bogus: 1 } as never }).catch((e: unknown) => e);
    assert.instance(bad, ControlError);
    assert.is((bad as ControlError).status, 422);
  } finally {
    server.close();
  }
});

test.run();
