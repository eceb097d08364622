// Recipe (the tutorial, docs/tutorial.md): a node:test file that gives each test a sandbox of its own, breaks a request
// with a fault and verifies what the code under test sent. One mock in process; against a running server, only the
// client's baseUrl and fetch change.
import { after, afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp, demoFixture } from 'project-runtime-mock';
import { createClient } from 'project-runtime-mock/client';

const PROJECT = 'fe1868ee-d60e-4ce6-8db0-f4a764225229'; // the demo's Support Desk
const RUN = '391206e3-21b8-4eae-b109-2fe71e9c7b14'; // its run waiting for a refund's approval

// The code under test: cancels a run, trying once more when the service is briefly unavailable.
async function cancelRun(baseUrl, runId, reason) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${baseUrl}/api/v3/projects/${PROJECT}/runs/${runId}/cancel`, {
      method: 'POST',
      headers: { Authorization: 'Bearer demo-operator-token', 'Content-Type': 'application/json' },
      body: JSON.stringify({ reason }),
    });
    if (res.status !== 503 || attempt === 2) return res.json();
  }
}

// 1. One mock for the file; intercept() answers the service's real origin, so the code under test is unchanged.
const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
const API = 'https://api.example.test';
const intercepting = mock.intercept(API);
after(() => intercepting.restore());
const server = createClient({ baseUrl: 'http://localhost', token: 'demo-owner-token', fetch: mock.fetch });

// 2. A sandbox per test: its own state, clock, faults and journal, dropped after the test.
let sandbox;
beforeEach(async () => {
  sandbox = await server.control.createSandbox({ name: 'tutorial' });
});
afterEach(() => server.control.deleteSandbox(sandbox.sandbox.id));
const baseUrl = () => `${API}/sandboxes/${sandbox.sandbox.id}`;

test('cancelling a run sends the reason once', async () => {
  const run = await cancelRun(baseUrl(), RUN, 'customer asked');
  assert.equal(run.status, 'cancelled');
  // 3. Verify: exactly one cancel, with that reason (a failure lists the closest requests and why each missed).
  await sandbox.control.verify({ request: { operation: 'cancelRun', body: { reason: 'customer asked' } }, count: { exactly: 1 } });
});

test('a 503 is tried again, and the second attempt cancels', async () => {
  // 4. A fault: the next cancel answers 503, once.
  await sandbox.control.addFault({ match: { operation: 'cancelRun' }, status: 503, times: 1 });
  const run = await cancelRun(baseUrl(), RUN, 'customer asked');
  assert.equal(run.status, 'cancelled'); // this sandbox's run: the first test's cancel happened in another one
  await sandbox.control.verifySequence({
    requests: [
      { operation: 'cancelRun', status: 503 },
      { operation: 'cancelRun', status: 200 },
    ],
  });
});
