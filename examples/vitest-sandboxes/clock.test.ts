// Moves its own clock past the refund's expiry: only this file's sandbox sees the approval expire.
import { expect, test } from 'vitest';
import { mock } from './setup.js';

const P = 'fe1868ee-d60e-4ce6-8db0-f4a764225229';

test('a day later the refund approval has expired', async () => {
  await mock.control.advanceClock(25 * 60 * 60 * 1000);
  expect((await mock.control.clock()).now).toBe('2026-11-21T13:00:00.000Z');
  expect((await mock.getApproval(P, 'apr_r3fund49')).data?.status).toBe('expired');
});
