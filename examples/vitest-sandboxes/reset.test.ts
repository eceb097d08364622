// Resets between tests: a reset returns this file's sandbox to the demo, and no other file's.
import { beforeEach, expect, test } from 'vitest';
import { mock } from './setup.js';

const P = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const RUN = '391206e3-21b8-4eae-b109-2fe71e9c7b14';

beforeEach(() => mock.control.reset());

test('a cancel in one test', async () => {
  expect((await mock.cancelRun(P, RUN)).data?.status).toBe('cancelled');
});

test('is gone in the next, and the clock is the demo clock', async () => {
  expect((await mock.getRun(P, RUN)).data?.status).toBe('waiting_approval');
  expect((await mock.control.clock()).now).toBe('2026-11-20T12:00:00.000Z');
});
