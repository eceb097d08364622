// Verification of the journal: each pattern field, each count form, the 200 and 417 answers, near misses and bad documents.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../../helpers/app.js';
import { CANCEL, MISSING, owner, RUN, setup, USERS } from '../../helpers/verify-traffic.js';
import { compilePattern } from '../../../src/control/verify/pattern.js';
import type { JournalEntry } from '../../../src/control/journal.js';

const ids = async (http: Awaited<ReturnType<typeof setup>>['http'], request: object) => {
  const res = await http.post('/_mock/verify').send({ request, count: { at_least: 0 } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.ids as number[];
};

test('verify: each pattern field selects the entries it describes', async () => {
  const { http } = await setup();
  assert.equal(await ids(http, {}), [1, 2, 3, 4]);
  assert.equal(await ids(http, { method: 'get' }), [1, 2, 4]);
  assert.equal(await ids(http, { method: 'POST' }), [3]);
  assert.equal(await ids(http, { path: RUN }), [1]);
  assert.equal(await ids(http, { path: `/api/v3/projects/*/runs/*` }), [1, 2]);
  assert.equal(await ids(http, { path: `/api/v3/**` }), [1, 2, 3, 4]);
  assert.equal(await ids(http, { operation: 'getRun' }), [1, 2]);
  assert.equal(await ids(http, { operation: 'cancelRun' }), [3]);
  assert.equal(await ids(http, { operation: 'retryRun' }), []);
  assert.equal(await ids(http, { status: 404 }), [2]);
  assert.equal(await ids(http, { status: 200 }), [1, 3, 4]);
  assert.equal(await ids(http, { status: '4xx' }), [2]);
  assert.equal(await ids(http, { status: '2XX' }), [1, 3, 4]);
  assert.equal(await ids(http, { reason_code: 'run_not_found' }), [2]);
  assert.equal(await ids(http, { reason_code: 'project_not_found' }), []);
  assert.equal(await ids(http, { query: { limit: '2' } }), [4]);
  assert.equal(await ids(http, { query: { limit: '3' } }), []);
  assert.equal(await ids(http, { query: { tag: ['x', 'y'] } }), [4]);
  assert.equal(await ids(http, { query: { tag: 'x' } }), []);
  assert.equal(await ids(http, { headers: { 'x-TRACE': 'abc' } }), [2]);
  assert.equal(await ids(http, { headers: { 'X-Trace': 'ABC' } }), []);
  assert.equal(await ids(http, { body: { reason: 'stop' } }), [3]);
  assert.equal(await ids(http, { body: { tags: ['a', { k: 1 }] } }), [3]);
  assert.equal(await ids(http, { body: { tags: ['a', {}] } }), [3], 'objects inside arrays are subsets too');
  assert.equal(await ids(http, { body: { tags: [{ k: 1 }, 'a'] } }), [], 'arrays match by position');
  assert.equal(await ids(http, { body: { tags: ['a'] } }), [], 'arrays match with the same length');
  assert.equal(await ids(http, { body: { reason: 'stop', extra: null } }), []);
  assert.equal(await ids(http, { method: 'GET', status: '2xx', operation: 'getRun' }), [1]);
});

test('verify: each count form passes and fails at its boundary', async () => {
  const { http } = await setup();
  const status = async (count: object | undefined) =>
    (await http.post('/_mock/verify').send({ request: { operation: 'getRun' }, ...(count ? { count } : {}) })).status;
  assert.is(await status(undefined), 200); // at least 1
  assert.is(await status({ exactly: 2 }), 200);
  assert.is(await status({ exactly: 1 }), 417);
  assert.is(await status({ exactly: 3 }), 417);
  assert.is(await status({ at_least: 2 }), 200);
  assert.is(await status({ at_least: 3 }), 417);
  assert.is(await status({ at_most: 2 }), 200);
  assert.is(await status({ at_most: 1 }), 417);
  assert.is(await status({ at_least: 2, at_most: 2 }), 200);
  assert.is(await status({ at_least: 0, at_most: 1 }), 417);
  assert.is(await status({ exactly: 0 }), 417);
  const none = await http.post('/_mock/verify').send({ request: { operation: 'retryRun' } });
  assert.is(none.status, 417);
  const zero = await http.post('/_mock/verify').send({ request: { operation: 'retryRun' }, count: { exactly: 0 } });
  assert.equal(zero.body, { matched: 0, ids: [] });
});

test('verify: 200 answers {matched, ids}', async () => {
  const { http } = await setup();
  const res = await http.post('/_mock/verify').send({ request: { method: 'GET' } });
  assert.equal(res.body, { matched: 3, ids: [1, 2, 4] });
});

test('verify: 417 has the envelope, matched, expected and near misses closest first', async () => {
  const { http } = await setup();
  const res = await http
    .post('/_mock/verify')
    .send({ request: { method: 'GET', operation: 'getRun', status: 200, headers: { 'X-Trace': 'abc' } }, count: { exactly: 1 } });
  assert.is(res.status, 417);
  assert.is(res.body.detail.reason_code, 'verification_failed');
  assert.is(res.body.matched, 0);
  assert.equal(res.body.expected, { exactly: 1 });
  assert.equal(res.body.near_misses, [
    { id: 2, differences: [{ field: 'status', expected: 200, actual: 404 }] },
    { id: 1, differences: [{ field: 'headers.x-trace', expected: 'abc', actual: null }] },
    {
      id: 4,
      differences: [
        { field: 'operation', expected: 'getRun', actual: 'listUsers' },
        { field: 'headers.x-trace', expected: 'abc', actual: null },
      ],
    },
    {
      id: 3,
      differences: [
        { field: 'method', expected: 'GET', actual: 'POST' },
        { field: 'operation', expected: 'getRun', actual: 'cancelRun' },
        { field: 'headers.x-trace', expected: 'abc', actual: null },
      ],
    },
  ]);
  assert.is(
    res.body.detail.message,
    [
      'Expected exactly 1 request matching {"method":"GET","operation":"getRun","status":200,"headers":{"x-trace":"abc"}}, but 0 matched among 4 journaled requests.',
      'Closest requests:',
      `  #2 GET ${MISSING} -> 404: status expected 200, got 404`,
      `  #1 GET ${RUN} -> 200: headers.x-trace expected "abc", got null`,
      `  #4 GET ${USERS} -> 200: operation expected "getRun", got "listUsers"; headers.x-trace expected "abc", got null`,
      `  #3 POST ${CANCEL} -> 200: method expected "GET", got "POST"; operation expected "getRun", got "cancelRun"; headers.x-trace expected "abc", got null`,
    ].join('\n'),
  );
});

test('verify: near misses are at most 5; body differences name the innermost field', async () => {
  const { mock, http } = await freshMock();
  for (let i = 0; i < 7; i++)
    await mock.fetch(CANCEL, { method: 'POST', headers: { ...owner, 'content-type': 'application/json' }, body: JSON.stringify({ reason: `r${i}` }) });
  const res = await http.post('/_mock/verify').send({ request: { body: { reason: 'x' } } });
  assert.is(res.body.near_misses.length, 5);
  assert.equal(
    res.body.near_misses.map((m: { id: number }) => m.id),
    [7, 6, 5, 4, 3],
    'ties: the newest first',
  );
  assert.equal(res.body.near_misses[0].differences, [{ field: 'body.reason', expected: 'x', actual: 'r6' }]);
  assert.match(res.body.detail.message, /^Expected at least 1 request matching \{"body":\{"reason":"x"\}\}, but 0 matched among 7 journaled requests\./);
});

test('verify: a count failure with matches lists their ids', async () => {
  const { http } = await setup();
  const res = await http.post('/_mock/verify').send({ request: { operation: 'getRun' }, count: { at_most: 1 } });
  assert.is(res.body.matched, 2);
  assert.match(res.body.detail.message, /^Expected at most 1 request matching \{"operation":"getRun"\}, but 2 matched \(#1, #2\) among 4 journaled requests\./);
  const between = await http.post('/_mock/verify').send({ request: { operation: 'getRun' }, count: { at_least: 3, at_most: 5 } });
  assert.match(between.body.detail.message, /^Expected between 3 and 5 requests/);
});

test('verify: bad documents are 422 with loc, unknown keys included', async () => {
  const { http } = await setup();
  const loc = async (body: object) => {
    const res = await http.post('/_mock/verify').send(body);
    assert.is(res.status, 422, JSON.stringify(res.body));
    return res.body.detail.map((d: { loc: unknown }) => d.loc);
  };
  assert.equal(await loc({ request: { operation: 'getRun' }, count: {} }), [['body', 'count']]);
  assert.equal(await loc({ request: {}, count: { exactly: 1, at_least: 1 } }), [['body', 'count']]);
  assert.equal(await loc({ request: {}, count: { at_least: 2, at_most: 1 } }), [['body', 'count']]);
  assert.equal(await loc({ request: {}, count: { exactly: -1 } }), [['body', 'count', 'exactly']]);
  assert.equal(await loc({ request: { status: '4x' } }), [['body', 'request', 'status']]);
  assert.equal(await loc({ request: { path: 'no-slash' } }), [['body', 'request', 'path']]);
  assert.equal(await loc({ request: { colour: 'red' } }), [['body', 'request', 'colour']]);
  assert.equal(await loc({ request: {}, extra: 1 }), [['body', 'extra']]);
  assert.equal(await loc({}), [['body', 'request']]);
  assert.equal(await loc({ requests: [] }), [
    ['body', 'request'],
    ['body', 'requests'],
  ]);
  const seq = await http.post('/_mock/verify/sequence').send({ requests: [] });
  assert.is(seq.status, 422);
  assert.equal(seq.body.detail[0].loc, ['body', 'requests']);
});

test('verify: a header sent more than once matches as its values joined with ", ", as HTTP folds them', () => {
  const entry = { method: 'GET', path: '/x', status: 200, request: { headers: { 'set-cookie': ['a=1', 'b=2'], 'x-one': 'v' } } } as unknown as JournalEntry;
  const matches = (headers: Record<string, string>) => compilePattern({ headers }).matches(entry);
  assert.is(matches({ 'Set-Cookie': 'a=1, b=2' }), true);
  assert.is(matches({ 'set-cookie': 'a=1,b=2' }), false);
  assert.is(matches({ 'set-cookie': 'a=1' }), false);
  assert.is(matches({ 'X-One': 'v' }), true);
  assert.equal(compilePattern({ headers: { 'set-cookie': 'a=1' } }).differences(entry), [{ field: 'headers.set-cookie', expected: 'a=1', actual: 'a=1, b=2' }]);
});

test.run();
