// Recipe (jest's default setup: CommonJS test files, babel-jest, no jest configuration at all): `npx jest`.
// require() gets the package's CommonJS build; the typed client comes from 'project-runtime-mock/client' the same way.
const { afterAll, beforeAll, beforeEach, expect, test } = require('@jest/globals');
const { createApp, demoFixture } = require('project-runtime-mock');
const { createClient } = require('project-runtime-mock/client');

const P = 'fe1868ee-d60e-4ce6-8db0-f4a764225229'; // the demo's Support Desk project
const RUN = '59cfeed3-439a-4dab-a2ba-fa30f52df113'; // one of its runs
const BASE_URL = 'https://api.example.test';
let mock, intercepting, clean;
beforeAll(async () => {
  mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 1 });
  // Your code keeps its real base URL: global fetch (and node:http) to it is answered by the mock.
  intercepting = mock.intercept(BASE_URL);
  clean = mock.control.snapshot();
});
afterAll(() => intercepting.restore());
beforeEach(async () => {
  await mock.control.restore(clean);
  mock.control.clearFaults();
});

test('mock.fetch answers in process', async () => {
  const res = await mock.fetch(`/api/v3/projects/${P}/runs/${RUN}`, { headers: { Authorization: 'Bearer demo-owner-token' } });
  expect(res.status).toBe(200);
  expect((await res.json()).id).toBe(RUN);
});

test('the typed client reaches the mock through the intercept', async () => {
  const client = createClient({ baseUrl: BASE_URL, token: 'demo-owner-token' });
  const run = await client.getRun(P, RUN);
  expect(run.response.status).toBe(200);
  expect(run.data.id).toBe(RUN);
});

test('a fault turns the next answer into a 503', async () => {
  mock.control.addFault({ method: 'GET', path: '/api/v3/projects/*/runs/*', status: 503, times: 1 });
  const client = createClient({ baseUrl: BASE_URL, token: 'demo-owner-token' });
  expect((await client.getRun(P, RUN)).response.status).toBe(503);
  expect((await client.getRun(P, RUN)).response.status).toBe(200);
});
