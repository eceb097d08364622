// Verification of the journal beyond one pattern: sequences, only-lists, evictions, and the in-process verify's errors.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AssertionError } from 'node:assert';
import { freshMock } from '../../helpers/app.js';
import { CANCEL, MISSING, catchError, owner, RUN, setup, USERS } from '../../helpers/verify-traffic.js';

test('verify/sequence: in order with others between passes; the failure names the first pattern without a match after the previous', async () => {
  const { http } = await setup();
  const ok = await http.post('/_mock/verify/sequence').send({ requests: [{ operation: 'getRun' }, { operation: 'listUsers' }] });
  assert.equal(ok.body, { matched: 2, ids: [1, 4] });
  const again = await http.post('/_mock/verify/sequence').send({ requests: [{ operation: 'getRun' }, { operation: 'getRun' }, { method: 'POST' }] });
  assert.equal(again.body, { matched: 3, ids: [1, 2, 3] });
  const bad = await http.post('/_mock/verify/sequence').send({ requests: [{ operation: 'cancelRun' }, { status: 404 }, { operation: 'listUsers' }] });
  assert.is(bad.status, 417);
  assert.is(bad.body.detail.reason_code, 'verification_failed');
  assert.is(bad.body.failed_at, 1);
  assert.is(bad.body.matched, 1);
  assert.equal(bad.body.ids, [3]);
  assert.equal(bad.body.expected, { status: 404 });
  assert.equal(bad.body.near_misses, [{ id: 4, differences: [{ field: 'status', expected: 404, actual: 200 }] }], 'only entries after the previous match');
  assert.is(
    bad.body.detail.message,
    `Expected requests in order; pattern 1 {"status":404} has no match after #3 (1 of 3 matched in order: #3).\nClosest requests after #3:\n  #4 GET ${USERS} -> 200: status expected 404, got 200`,
  );
  const first = await http.post('/_mock/verify/sequence').send({ requests: [{ operation: 'retryRun' }] });
  assert.match(first.body.detail.message, /^Expected requests in order; pattern 0 \{"operation":"retryRun"\} has no match \(0 of 1 matched in order\)\./);
});

test('verify/only: every entry matches some pattern, or the failure lists the unexpected ones', async () => {
  const { http } = await setup();
  const ok = await http.post('/_mock/verify/only').send({ requests: [{ method: 'GET' }, { operation: 'cancelRun' }] });
  assert.equal(ok.body, { matched: 4, ids: [1, 2, 3, 4] });
  const bad = await http.post('/_mock/verify/only').send({ requests: [{ operation: 'getRun', status: 200 }, { method: 'POST' }] });
  assert.is(bad.status, 417);
  assert.is(bad.body.matched, 2);
  assert.equal(bad.body.unexpected, [
    { id: 2, method: 'GET', path: MISSING, status: 404, operation: 'getRun' },
    { id: 4, method: 'GET', path: USERS, status: 200, operation: 'listUsers' },
  ]);
  assert.is(bad.body.unexpected_count, 2);
  assert.is(
    bad.body.detail.message,
    `Expected only requests matching one of 2 patterns, but 2 requests matched none:\n  #2 GET ${MISSING} -> 404\n  #4 GET ${USERS} -> 200`,
  );
});

test('verify/only: at most 20 unexpected entries are listed, all are counted', async () => {
  const { mock, http } = await freshMock();
  for (let i = 0; i < 23; i++) await mock.fetch(RUN, { headers: owner });
  const res = await http.post('/_mock/verify/only').send({ requests: [{ method: 'POST' }] });
  assert.is(res.body.unexpected.length, 20);
  assert.is(res.body.unexpected_count, 23);
  assert.match(res.body.detail.message, /\n {2}\.\.\. and 3 more$/);
});

test('verify: entries the journal evicted are reported, not silently uncounted', async () => {
  const { mock, http } = await freshMock({ journal: { entries: 3 } });
  for (let i = 0; i < 5; i++) await mock.fetch(RUN, { headers: owner });
  const res = await http.post('/_mock/verify').send({ request: { operation: 'getRun' }, count: { exactly: 5 } });
  assert.is(res.status, 417);
  assert.is(res.body.evicted, 2);
  assert.is(res.body.matched, 3);
  assert.match(res.body.detail.message, /\n2 earlier requests left the journal \(its bounds\) and could not be checked\.$/);
  const ok = await http.post('/_mock/verify').send({ request: { operation: 'getRun' } });
  assert.equal(ok.body, { matched: 3, ids: [3, 4, 5], evicted: 2 });
  await http.delete('/_mock/requests');
  await mock.fetch(RUN, { headers: owner });
  assert.equal((await http.post('/_mock/verify').send({ request: {} })).body, { matched: 1, ids: [6] }, 'clearing is not eviction');
});

test('in process: verify answers {matched, ids}, and failures throw AssertionError with expected and actual', async () => {
  const { mock } = await setup();
  assert.equal(mock.control.verify({ request: { operation: 'getRun' }, count: { exactly: 2 } }), { matched: 2, ids: [1, 2] });
  let err: unknown;
  try {
    mock.control.verify({ request: { operation: 'getRun', status: 200 }, count: { exactly: 2 } });
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof AssertionError);
  const a = err as AssertionError;
  assert.is(a.operator, 'verify');
  assert.match(a.message, /^Expected exactly 2 requests matching \{"operation":"getRun","status":200\}, but 1 matched \(#1\)/);
  // Three entries differ in one field each: the newest is the closest.
  assert.equal(a.expected, { matched: { exactly: 2 }, id: 4, operation: 'getRun' });
  assert.equal(a.actual, { matched: 1, id: 4, operation: 'listUsers' });
  assert.is(a.generatedMessage, false);

  const seq = catchError(() => mock.control.verifySequence({ requests: [{ method: 'POST' }, { operation: 'getRun' }] }));
  assert.is(seq.operator, 'verifySequence');
  assert.equal(seq.expected, { failed_at: 1, pattern: { operation: 'getRun' }, id: 4, operation: 'getRun' });
  assert.equal(seq.actual, { failed_at: 1, pattern: 'no match in order', id: 4, operation: 'listUsers' });

  const only = catchError(() => mock.control.verifyOnly({ requests: [{ method: 'GET' }] }));
  assert.is(only.operator, 'verifyOnly');
  assert.equal(only.expected, { unexpected: [] });
  assert.equal(only.actual, { unexpected: [`#3 POST ${CANCEL} -> 200`] });
  assert.equal(mock.control.verifyOnly({ requests: [{ path: '/api/**' }] }), { matched: 4, ids: [1, 2, 3, 4] });
});

test('in process: bad input throws the same 422 ValidationError as the route', async () => {
  const { mock } = await setup();
  try {
    mock.control.verify({ request: { bogus: 1 } as never });
    assert.unreachable('should throw');
  } catch (e) {
    assert.is((e as { status?: number }).status, 422);
    assert.equal(
      (e as { items: { loc: unknown }[] }).items.map((i) => i.loc),
      [['body', 'request', 'bogus']],
    );
  }
});

test.run();
