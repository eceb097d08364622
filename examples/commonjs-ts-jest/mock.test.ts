// Recipe (ts-jest, CommonJS): `npx jest` with this folder's jest.config.js and tsconfig.json ("module": "node16" in a
// package without "type": "module"). The imports below compile to require() and are typed by the package's .d.cts files.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createApp, demoFixture, type MockApp } from 'project-runtime-mock';
import { createClient } from 'project-runtime-mock/client';

const P = 'fe1868ee-d60e-4ce6-8db0-f4a764225229'; // the demo's Support Desk project
const RUN = '59cfeed3-439a-4dab-a2ba-fa30f52df113'; // one of its runs
const BASE_URL = 'https://api.example.test';
let mock: MockApp;
let intercepting: ReturnType<MockApp['intercept']>;
beforeAll(async () => {
  mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 1 });
  intercepting = mock.intercept(BASE_URL);
});
afterAll(() => intercepting.restore());

test('mock.fetch answers in process', async () => {
  const res = await mock.fetch(`/api/v3/projects/${P}/runs/${RUN}`, { headers: { Authorization: 'Bearer demo-owner-token' } });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { id: string }).id).toBe(RUN);
});

test('the typed client reads a run with its declared type', async () => {
  const client = createClient({ baseUrl: BASE_URL, token: 'demo-owner-token' });
  const run = await client.getRun(P, RUN);
  if (!run.data) throw new Error(`getRun answered ${run.response.status}`);
  const status: string = run.data.status;
  expect(run.data.id).toBe(RUN);
  expect(typeof status).toBe('string');
});
