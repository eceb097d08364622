// Recipe (jest in its native ESM mode: `node --experimental-vm-modules node_modules/jest/bin/jest.js`, no transform).
// Each test file has its own module registry and globals: intercept in beforeAll, restore in afterAll.
import { createApp, demoFixture } from 'project-runtime-mock';

const P = 'fe1868ee-d60e-4ce6-8db0-f4a764225229'; // the demo's Support Desk project
const RUN = '59cfeed3-439a-4dab-a2ba-fa30f52df113'; // one of its runs
const BASE_URL = 'https://api.example.test';
let mock, intercepting, clean;
beforeAll(async () => {
  mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 1 });
  intercepting = mock.intercept(BASE_URL);
  clean = mock.control.snapshot();
});
afterAll(() => intercepting.restore());
beforeEach(async () => {
  await mock.control.restore(clean);
  mock.control.clearFaults();
});

// Your code under test: a client with a timeout, configured with the real base URL.
async function getRun(runId, { timeoutMs }) {
  const res = await fetch(`${BASE_URL}/api/v3/projects/${P}/runs/${runId}`, {
    headers: { Authorization: 'Bearer demo-owner-token' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  return res.json();
}

test('the run comes back through the intercept', async () => {
  expect((await getRun(RUN, { timeoutMs: 5000 })).id).toBe(RUN);
});

test('a slow upstream trips the client timeout', async () => {
  // The delay holds the in-process answer, as it would hold a socket's.
  mock.control.addFault({ method: 'GET', path: '/api/v3/projects/*/runs/*', delay_ms: 2000, times: 1 });
  await expect(getRun(RUN, { timeoutMs: 100 })).rejects.toThrow(/timeout/);
});
