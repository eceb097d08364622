// Cancels the waiting run: its journal holds its own requests only, whatever the other files send meanwhile.
import { expect, test } from 'vitest';
import { mock } from './setup.js';

const P = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';
const RUN = '391206e3-21b8-4eae-b109-2fe71e9c7b14'; // waiting for the refund approval

test('cancel moves the run, and the journal shows this file only', async () => {
  expect((await mock.getRun(P, RUN)).data?.status).toBe('waiting_approval');
  expect((await mock.cancelRun(P, RUN, { reason: 'user asked' })).data?.status).toBe('cancelled');
  expect((await mock.control.requests({ path: '/api/v3/**' })).map((e) => e.operation)).toEqual(['getRun', 'cancelRun']);
  // Each request named this test (setup.ts): the inspector's waterfall, and the journal's `test` filter, find them by it.
  const named = await mock.control.requests({ summary: true, test: 'cancel moves the run, and the journal shows this file only' });
  expect(named.map((e) => e.operation)).toEqual(['getRun', 'cancelRun']);
});
