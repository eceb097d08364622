// Denies the refund within its day: another file's clock move (clock.test.ts) would have expired it, but not here.
import { expect, test } from 'vitest';
import { mock } from './setup.js';

const P = 'fe1868ee-d60e-4ce6-8db0-f4a764225229'; // the demo's Support Desk project

test('the refund approval is still pending, and a deny decides it', async () => {
  expect((await mock.control.clock()).now).toBe('2026-11-20T12:00:00.000Z');
  const { data } = await mock.denyApproval(P, 'apr_r3fund49', { reason: 'not this one' });
  expect(data?.approval.status).toBe('denied');
  expect((await mock.control.requests({ path: '/api/v3/**' })).map((e) => e.operation)).toEqual(['denyApproval']);
});
