// A fresh in-memory mock per test, seeded with the demo fixture, and a supertest client for it.
import request from 'supertest';
import { createApp, type CreateAppOptions, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';

export interface TestMock {
  mock: MockApp;
  http: ReturnType<typeof request>;
}

export async function freshMock(options: CreateAppOptions = {}): Promise<TestMock> {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), ...options });
  return { mock, http: request(mock.callback()) };
}

/** The stored state as JSON, to assert that a refused request changed nothing. */
export const stateOf = (mock: MockApp): string => JSON.stringify(mock.store.toData());
