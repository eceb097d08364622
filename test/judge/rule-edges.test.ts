// The client report's rules at their edges, on facts made by hand: what keys a streak, a wait or a burst, where each ends, and how many findings one slip makes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Fact } from '../../src/judge/facts.js';
import { hotPolling } from '../../src/judge/hot-polling.js';
import { retryAfterIgnored } from '../../src/judge/retry-after-ignored.js';
import { unboundedConcurrency } from '../../src/judge/unbounded-concurrency.js';
import { retriedFinalError } from '../../src/judge/retried-final-error.js';
import { expiredTokenResent } from '../../src/judge/expired-token-resent.js';
import { codeReused } from '../../src/judge/code-reused.js';
import { refreshTokenReused } from '../../src/judge/refresh-token-reused.js';

const WHO = 'p-1';
let nextId = 1;
function fact(over: Partial<Fact> & { inFlight?: number; access?: string }): Fact {
  const { inFlight = 1, access, ...rest } = over;
  return {
    id: nextId++,
    atMs: 0,
    method: 'GET',
    path: '/api/v3/projects/p/runs/r',
    querystring: '',
    operation: 'getRun',
    status: 200,
    reason: null,
    principal: WHO,
    client: { principal: WHO, inFlight, ...(access ? { access } : {}) },
    retryAfterMs: null,
    requestText: null,
    responseText: '{"state":"running"}',
    ...rest,
  };
}
const entries = (findings: { entries: number[] }[]) => findings.map((f) => f.entries);

test('hot_polling: a changed answer starts a new streak; six unchanged reads in a second are one finding', () => {
  nextId = 1;
  // Five reads, the answer changes, five more: no streak passes five.
  const changing = [0, 100, 200, 300, 400]
    .map((atMs) => fact({ atMs }))
    .concat([500, 600, 700, 800, 900].map((atMs) => fact({ atMs, responseText: '{"state":"done"}' })));
  assert.equal(hotPolling.check(changing), []);
  // Eight unchanged reads within a second: one finding, naming the six reads that passed the bound.
  nextId = 1;
  const eight = [0, 100, 200, 300, 400, 500, 600, 700].map((atMs) => fact({ atMs }));
  const found = hotPolling.check(eight);
  assert.equal(entries(found), [[1, 2, 3, 4, 5, 6]]);
  assert.is(found[0].message, 'GET /api/v3/projects/p/runs/r was read 6 times within one second of mock time, unchanged.');
});

test('hot_polling: the same path with different queries is different resources', () => {
  nextId = 1;
  const reads = [0, 100, 200, 300, 400, 500].map((atMs, i) => fact({ atMs, querystring: i % 2 === 0 ? 'page=1' : 'page=2' }));
  assert.equal(hotPolling.check(reads), []);
  nextId = 1;
  const same = [0, 100, 200, 300, 400, 500].map((atMs) => fact({ atMs, querystring: 'page=1' }));
  assert.is(hotPolling.check(same)[0].message, 'GET /api/v3/projects/p/runs/r?page=1 was read 6 times within one second of mock time, unchanged.');
});

test('retry_after_ignored: one finding per refusal; the early seconds are rounded', () => {
  nextId = 1;
  const refusal = fact({ atMs: 0, status: 429, retryAfterMs: 3000 });
  // 1.5 s early, then again 1 s early: only the first request after the refusal is the finding.
  const early = fact({ atMs: 1500 });
  const again = fact({ atMs: 2000 });
  const found = retryAfterIgnored.check([refusal, early, again]);
  assert.equal(entries(found), [[1, 2]]);
  assert.is(found[0].message, 'Request 2 (getRun) came 2 s before the Retry-After of request 1 (429) had passed.');
});

test('unbounded_concurrency: a burst ends only when the count falls back to one; its figure is its highest count', () => {
  nextId = 1;
  // 33, 40, then down to 20 (still fanned out), 35 again, then 1: one burst, its most 40.
  const facts = [33, 40, 20, 35, 1].map((inFlight) => fact({ inFlight }));
  const found = unboundedConcurrency.check(facts);
  assert.equal(entries(found), [[1, 2, 4]]);
  assert.is(found[0].message, '40 requests were in flight at once (more than 32), from request 1.');
  // A burst of 150 requests past the bound names its first 100.
  nextId = 1;
  const long = unboundedConcurrency.check(Array.from({ length: 150 }, (_, i) => fact({ inFlight: 33 + (i % 3) })));
  assert.is(long[0].entries.length, 100);
  assert.is(long[0].entries[99], 100);
  assert.is(long[0].message, '35 requests were in flight at once (more than 32), from request 1.');
});

test('retried_final_error: 422 is final; a retryable answer ends the streak; every final 409 reason counts', () => {
  nextId = 1;
  const write = (atMs: number, status: number, reason: string | null = null) =>
    fact({ atMs, method: 'POST', path: '/api/v3/projects/p/runs/r/cancel', operation: 'cancelRun', status, reason, requestText: '{}' });
  assert.equal(entries(retriedFinalError.check([write(0, 422), write(1000, 422)])), [[1, 2]]);
  // The repeat answered 500 is a finding; the next repeat follows that 500, an answer a retry may change, so it is not.
  nextId = 1;
  assert.equal(entries(retriedFinalError.check([write(0, 404), write(1000, 500), write(2000, 404)])), [[1, 2]]);
  for (const reason of [
    'run_not_cancellable',
    'run_not_retryable',
    'approval_not_pending',
    'approval_expired',
    'project_archived',
    'confirmation_mismatch',
    'project_not_empty',
  ]) {
    nextId = 1;
    assert.equal(entries(retriedFinalError.check([write(0, 409, reason), write(1000, 409, reason)])), [[1, 2]], reason);
  }
  nextId = 1;
  assert.equal(entries(retriedFinalError.check([write(0, 409, 'stale_base_revision'), write(1000, 409, 'stale_base_revision')])), []);
});

test('expired_token_resent: only a 401 token_expired marks a token; one finding per expiry, a third send starts over', () => {
  nextId = 1;
  const other401 = [fact({ status: 401, reason: 'token_invalid', access: 'fp-a' }), fact({ access: 'fp-a' })];
  assert.equal(expiredTokenResent.check(other401), []);
  nextId = 1;
  const expired = fact({ status: 401, reason: 'token_expired', access: 'fp-b' });
  const again = fact({ status: 200, access: 'fp-b' });
  const third = fact({ status: 200, access: 'fp-b' });
  assert.equal(entries(expiredTokenResent.check([expired, again, third])), [[1, 2]]);
});

/** A token exchange presenting `grant`'s credential `fp`, answered `status`. */
const exchange = (grant: string, fp: string, status: number): Fact => {
  const f = fact({ method: 'POST', path: '/api/v3/auth/token', operation: 'exchangeToken', status });
  f.client = { principal: WHO, inFlight: 1, grant, ...(grant === 'refresh_token' ? { refresh: fp } : { code: fp }) };
  return f;
};

test('code_reused: every later presentation names the first; a code under another grant is not looked at', () => {
  nextId = 1;
  const found = codeReused.check([
    exchange('authorization_code', 'c1', 200),
    exchange('authorization_code', 'c1', 400),
    exchange('authorization_code', 'c1', 400),
  ]);
  assert.equal(entries(found), [
    [1, 2],
    [1, 3],
  ]);
  nextId = 1;
  assert.equal(codeReused.check([exchange('authorization_code', 'c2', 200), exchange('client_credentials', 'c2', 400)]), []);
});

test('refresh_token_reused: only a refresh answered 200 rotates the token; a refused one may be tried again', () => {
  nextId = 1;
  assert.equal(refreshTokenReused.check([exchange('refresh_token', 'r1', 400), exchange('refresh_token', 'r1', 200)]), []);
  nextId = 1;
  const found = refreshTokenReused.check([exchange('refresh_token', 'r2', 200), exchange('refresh_token', 'r2', 400)]);
  assert.equal(entries(found), [[1, 2]]);
  assert.is(found[0].message, 'Refresh token rotated by request 1 was presented again by request 2 (answered 400).');
});

test.run();
