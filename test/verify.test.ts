// Verification of the journal: each pattern field, each count form, sequences, only-lists, near misses, evictions and failure messages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AssertionError } from 'node:assert';
import { freshMock } from './helpers/app.js';
import { DEMO, bearer } from './helpers/demo.js';
import type { MockApp } from '../src/app.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;
const MISSING = `/api/v3/projects/${P}/runs/00000000-0000-4000-8000-000000000000`;
const CANCEL = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`;
const USERS = `/api/v3/projects/${P}/users`;

/** Four requests: #1 GET run 200, #2 GET missing run 404, #3 POST cancel with a body, #4 GET users?limit=2. */
async function traffic(mock: MockApp): Promise<void> {
  await mock.fetch(RUN, { headers: owner });
  await mock.fetch(MISSING, { headers: { ...owner, 'X-Trace': 'abc' } });
  await mock.fetch(CANCEL, {
    method: 'POST',
    headers: { ...owner, 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 'stop', tags: ['a', { k: 1 }] }),
  });
  await mock.fetch(`${USERS}?limit=2&tag=x&tag=y`, { headers: owner });
}

async function setup() {
  const t = await freshMock();
  await traffic(t.mock);
  return t;
}

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

function catchError(fn: () => unknown): AssertionError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AssertionError) return e;
    throw e;
  }
  throw new Error('did not throw');
}

test.run();
