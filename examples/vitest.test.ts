// Recipe (vitest, threads pool): one mock and one intercept per file; the typed client stands in for your code under test.
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createApp, demoFixture, type MockApp, type Snapshot } from 'project-runtime-mock';
import { createClient } from 'project-runtime-mock/client';

const P = 'fe1868ee-d60e-4ce6-8db0-f4a764225229'; // the demo's Support Desk project
// Created before the intercept, as your code's client would be: it looks up global fetch when it sends.
const client = createClient({ baseUrl: 'https://api.example.test', token: 'demo-owner-token' });
let mock: MockApp;
let clean: Snapshot;
let intercepting: ReturnType<MockApp['intercept']>;
beforeAll(async () => {
  mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  // 'error': a request to any other origin fails the test instead of going out.
  intercepting = mock.intercept('https://api.example.test', { onUnhandled: 'error' });
  clean = mock.control.snapshot();
});
afterAll(() => intercepting.restore());
beforeEach(() => mock.control.restore(clean));

test('cancel moves the run', async () => {
  const run = await mock.control.createRun(P, { status: 'running' });
  const { data } = await client.cancelRun(P, run.id as string, { reason: 'user asked' });
  expect(data?.status).toBe('cancelled');
  expect(mock.control.requests({ method: 'POST' }).map((e) => e.operation)).toEqual(['cancelRun']);
});

test('a request to another origin fails instead of going out', async () => {
  await expect(fetch('https://elsewhere.example.test/')).rejects.toThrow(TypeError);
});
