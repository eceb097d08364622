// Verify failures in whole at their edges: an empty journal (0 requests, no `evicted`), one request, a sequence that fails after two matches, a single pattern for verify/only, a status class given in capitals, and a reason_code that is not text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../../helpers/app.js';
import { CANCEL, MISSING, owner, RUN, setup, USERS } from '../../helpers/verify-traffic.js';

const failed = (message: string) => ({ reason_code: 'verification_failed', message });

test('verify: a failure on an empty journal says 0 requests, and a body without evictions has no `evicted`', async () => {
  const { mock, http } = await freshMock();
  const none = await http.post('/_mock/verify').send({ request: { operation: 'getRun' } });
  assert.is(none.status, 417);
  assert.equal(none.body, {
    detail: failed('Expected at least 1 request matching {"operation":"getRun"}, but 0 matched among 0 journaled requests.'),
    matched: 0,
    expected: { at_least: 1 },
    near_misses: [],
  });
  await mock.fetch(USERS, { headers: owner });
  const one = await http.post('/_mock/verify').send({ request: { operation: 'getRun' }, count: { exactly: 1 } });
  assert.equal(one.body, {
    detail: failed(
      `Expected exactly 1 request matching {"operation":"getRun"}, but 0 matched among 1 journaled request.\nClosest requests:\n  #1 GET ${USERS} -> 200: operation expected "getRun", got "listUsers"`,
    ),
    matched: 0,
    expected: { exactly: 1 },
    near_misses: [{ id: 1, differences: [{ field: 'operation', expected: 'getRun', actual: 'listUsers' }] }],
  });
});

test('verify/sequence: a failure after two matches is "after" the second, and lists near misses after it only', async () => {
  const { http } = await setup();
  const res = await http.post('/_mock/verify/sequence').send({ requests: [{ operation: 'getRun' }, { operation: 'getRun' }, { operation: 'getRun' }] });
  assert.is(res.status, 417);
  // #1 and #2 are the two getRuns; #3 (cancelRun) and #4 (listUsers) differ by their operation alone: newest first.
  assert.equal(res.body, {
    detail: failed(
      `Expected requests in order; pattern 2 {"operation":"getRun"} has no match after #2 (2 of 3 matched in order: #1, #2).\nClosest requests after #2:\n` +
        `  #4 GET ${USERS} -> 200: operation expected "getRun", got "listUsers"\n` +
        `  #3 POST ${CANCEL} -> 200: operation expected "getRun", got "cancelRun"`,
    ),
    matched: 2,
    ids: [1, 2],
    failed_at: 2,
    expected: { operation: 'getRun' },
    near_misses: [
      { id: 4, differences: [{ field: 'operation', expected: 'getRun', actual: 'listUsers' }] },
      { id: 3, differences: [{ field: 'operation', expected: 'getRun', actual: 'cancelRun' }] },
    ],
  });
});

test('verify/only: with one pattern the failure says "the pattern" and counts 1 request in the singular', async () => {
  const { http } = await setup();
  const res = await http.post('/_mock/verify/only').send({ requests: [{ method: 'GET' }] });
  assert.is(res.status, 417);
  assert.equal(res.body, {
    detail: failed(`Expected only requests matching the pattern, but 1 request matched none:\n  #3 POST ${CANCEL} -> 200`),
    matched: 3,
    unexpected: [{ id: 3, method: 'POST', path: CANCEL, status: 200, operation: 'cancelRun' }],
    unexpected_count: 1,
  });
});

test('verify: a status class given in capitals ("4XX") matches as "4xx" and is shown in lowercase', async () => {
  const { http } = await setup();
  assert.equal((await http.post('/_mock/verify').send({ request: { status: '4XX' } })).body, { matched: 1, ids: [2] });
  const res = await http.post('/_mock/verify/sequence').send({ requests: [{ status: '4XX', path: RUN }] });
  assert.is(res.status, 417);
  assert.equal(res.body.expected, { status: '4xx', path: RUN });
  assert.equal(res.body.near_misses[0], { id: 2, differences: [{ field: 'path', expected: RUN, actual: MISSING }] });
  assert.is(
    res.body.detail.message.split('\n')[0],
    `Expected requests in order; pattern 0 {"path":"${RUN}","status":"4xx"} has no match (0 of 1 matched in order).`,
  );
});

test('verify: reason_code matches only a text reason_code (a number in an answer envelope is no reason_code)', async () => {
  const { mock, http } = await freshMock();
  mock.control.addFault({ method: 'GET', path: RUN, status: 503, body: { detail: { reason_code: 42 } } });
  assert.is((await mock.fetch(RUN, { headers: owner })).status, 503);
  assert.equal((await http.post('/_mock/verify').send({ request: { reason_code: '42' }, count: { exactly: 0 } })).body, { matched: 0, ids: [] });
});

test.run();
