// Verify patterns as matched and shown: a method given in lowercase is shown in capitals in a 417 (its `expected` and message, as the pattern is matched), a status class in lowercase and a path as it was sent in a near miss, a falsy JSON body (0, false, "") is a pattern like any other (it matches no request that lacks it) and null matches the requests sent without a body, and a near miss names at most 10 differences, in field order.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../../helpers/app.js';
import { MISSING, owner, RUN, setup } from '../../helpers/verify-traffic.js';

test('verify: a method given in lowercase is matched and shown in capitals (sequence expected, count message)', async () => {
  const { http } = await setup();
  const seq = await http.post('/_mock/verify/sequence').send({ requests: [{ method: 'post' }, { method: 'delete' }] });
  assert.is(seq.status, 417);
  assert.equal([seq.body.failed_at, seq.body.ids, seq.body.expected], [1, [3], { method: 'DELETE' }]);
  assert.equal(seq.body.near_misses, [{ id: 4, differences: [{ field: 'method', expected: 'DELETE', actual: 'GET' }] }]);
  assert.is(
    seq.body.detail.message.split('\n')[0],
    'Expected requests in order; pattern 1 {"method":"DELETE"} has no match after #3 (1 of 2 matched in order: #3).',
  );
  const count = await http.post('/_mock/verify').send({ request: { method: 'delete' } });
  assert.is(count.status, 417);
  assert.is(count.body.detail.message.split('\n')[0], 'Expected at least 1 request matching {"method":"DELETE"}, but 0 matched among 4 journaled requests.');
});

test('verify: a falsy JSON body (0, false, "") is a pattern like any other; null matches the requests without a body', async () => {
  const { http } = await setup();
  const ids = async (body: unknown) => {
    const res = await http.post('/_mock/verify').send({ request: { body }, count: { at_least: 0 } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    return res.body.ids;
  };
  assert.equal(await ids(0), []);
  assert.equal(await ids(false), []);
  assert.equal(await ids(''), []);
  // The three GETs sent no body (journaled as null); #3 sent an object.
  assert.equal(await ids(null), [1, 2, 4]);
  const miss = await http.post('/_mock/verify').send({ request: { method: 'POST', body: 0 } });
  assert.is(miss.status, 417);
  // #3 differs in its body alone; each GET in its method and its missing body (null), the newest first.
  const get = [
    { field: 'method', expected: 'POST', actual: 'GET' },
    { field: 'body', expected: 0, actual: null },
  ];
  assert.equal(miss.body.near_misses, [
    { id: 3, differences: [{ field: 'body', expected: 0, actual: { reason: 'stop', tags: ['a', { k: 1 }] } }] },
    { id: 4, differences: get },
    { id: 2, differences: get },
    { id: 1, differences: get },
  ]);
});

test('verify: a near miss names at most 10 differences, in the order of the fields (the 11th and 12th left out)', async () => {
  const { mock, http } = await freshMock();
  await mock.fetch(RUN, { headers: owner });
  // Twelve fields that #1 (GET of a run, 200, no query, no X- headers, no body) does not have.
  const request = {
    method: 'POST',
    path: '/elsewhere',
    operation: 'cancelRun',
    status: 500,
    reason_code: 'run_not_found',
    query: { a: '1' },
    headers: { 'X-A': '1', 'X-B': '2', 'X-C': '3', 'X-D': '4', 'X-E': '5' },
    body: { z: 1 },
  };
  const res = await http.post('/_mock/verify').send({ request });
  assert.is(res.status, 417);
  assert.equal(res.body.near_misses, [
    {
      id: 1,
      differences: [
        { field: 'method', expected: 'POST', actual: 'GET' },
        { field: 'path', expected: '/elsewhere', actual: RUN },
        { field: 'operation', expected: 'cancelRun', actual: 'getRun' },
        { field: 'status', expected: 500, actual: 200 },
        { field: 'reason_code', expected: 'run_not_found', actual: null },
        { field: 'query.a', expected: '1', actual: null },
        { field: 'headers.x-a', expected: '1', actual: null },
        { field: 'headers.x-b', expected: '2', actual: null },
        { field: 'headers.x-c', expected: '3', actual: null },
        { field: 'headers.x-d', expected: '4', actual: null },
      ],
    },
  ]);
  // Ten differences are shown on the message's line too, and neither the last header's nor the body's is among them.
  const line = res.body.detail.message.split('\n')[2];
  assert.is(line.split('; ').length, 10);
  assert.not.match(line, /x-e|body/);
});

test('verify: a near miss shows a status class as matched ("5xx") and the path as it was sent, capitals kept', async () => {
  const { mock, http } = await freshMock();
  // The router matches literal segments in any case; the journal keeps the path as sent.
  const sent = RUN.replace('/runs/', '/Runs/');
  await mock.fetch(sent, { headers: owner });
  const res = await http.post('/_mock/verify').send({ request: { status: '5XX' } });
  assert.is(res.status, 417);
  assert.equal(res.body.near_misses, [{ id: 1, differences: [{ field: 'status', expected: '5xx', actual: 200 }] }]);
  const path = await http.post('/_mock/verify').send({ request: { path: MISSING } });
  assert.equal(path.body.near_misses, [{ id: 1, differences: [{ field: 'path', expected: MISSING, actual: sent }] }]);
});

test.run();
