// A fresh in-memory mock per test, seeded with the demo fixture, and a supertest client for it.
import request from 'supertest';
import { createApp, type CreateAppOptions, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { checkedClient } from './openapi-check.js';

export interface TestMock {
  mock: MockApp;
  http: ReturnType<typeof request>;
}

export async function freshMock(options: CreateAppOptions = {}): Promise<TestMock> {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), ...options });
  // Every response is validated against /openapi.json (openapi-check.ts); a mismatch fails the request.
  return { mock, http: checkedClient(request(mock.callback()), mock.deps.config.control) };
}

/** The stored state as JSON, to assert that a refused request changed nothing. */
export const stateOf = (mock: MockApp): string => JSON.stringify(mock.store.toData());
