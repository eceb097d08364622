// A fault's `match` fields must all hold (each alone is not enough), falsy values match as given, a header sent twice is its values joined with ", ", and the 422s of documents whose fields do not go together.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';
import { ValidationError } from '../../../src/validation.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;
const RETRY = `/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`;

test('match: every field must hold; a request meeting one of two fields (or one of two headers) is not faulted', async () => {
  const { mock, http } = await freshMock();
  mock.control.addFault({ method: 'GET', path: RUN, match: { query: { v: '1' }, headers: { 'X-A': 'a', 'X-B': 'b' } }, status: 503 });
  const status = async (query: string, headers: Record<string, string>) => (await http.get(`${RUN}${query}`).set({ ...owner, ...headers })).status;
  assert.is(await status('?v=1', { 'x-a': 'a', 'x-b': 'b' }), 503);
  assert.is(await status('', { 'x-a': 'a', 'x-b': 'b' }), 200, 'the headers without the query');
  assert.is(await status('?v=1', {}), 200, 'the query without the headers');
  assert.is(await status('?v=1', { 'x-a': 'a' }), 200, 'one header of two');
  assert.is(await status('?v=1', { 'x-b': 'b' }), 200, 'the other header of two');
  assert.is(await status('?v=1', { 'x-a': 'a', 'x-b': 'c' }), 200, 'both headers, one value wrong');
});

test('match.headers: a header sent twice matches as its values joined with ", " (not "," and not one value)', async () => {
  const { mock, http } = await freshMock();
  mock.control.addFault({ method: 'GET', path: RUN, match: { headers: { 'Set-Cookie': 'a=1, b=2' } }, status: 503 });
  mock.control.addFault({ method: 'GET', path: RUN, match: { headers: { 'set-cookie': 'a=1,b=2' } }, status: 502 });
  assert.is(
    (
      await http
        .get(RUN)
        .set(owner)
        .set({ 'Set-Cookie': ['a=1', 'b=2'] })
    ).status,
    503,
  );
  assert.is((await http.get(RUN).set(owner).set('Set-Cookie', 'a=1')).status, 200);
});

test('match.body: a falsy JSON value (0) matches only that body; a body fault behind another candidate still reads the body', async () => {
  const { mock } = await freshMock();
  const post = (body: string) => mock.fetch(RETRY, { method: 'POST', headers: { ...owner, 'content-type': 'application/json' }, body });
  // The first candidate asks for a header only, the second for the body: the body is read because one of them needs it.
  mock.control.addFault({ method: 'POST', path: RETRY, match: { headers: { 'x-never': 'sent' } }, status: 501 });
  mock.control.addFault({ method: 'POST', path: RETRY, match: { body: { reason: 'boom' } }, status: 500, times: 1 });
  assert.is((await post('{"reason":"boom"}')).status, 500);
  mock.control.clearFaults();
  mock.control.addFault({ method: 'POST', path: RETRY, match: { body: 0 }, status: 503 });
  assert.is((await post('0')).status, 503);
  assert.is((await post('{"reason":"fine"}')).status, 201, 'another body is not 0');
});

test('match.principal: an empty principal never matches (a request without a token has none, not "")', async () => {
  const { mock } = await freshMock();
  mock.control.addFault({ method: 'GET', path: RUN, match: { principal: '' }, status: 503 });
  assert.is((await mock.fetch(RUN, { headers: owner })).status, 200);
  assert.is((await mock.fetch(RUN)).status, 401);
});

test('fault documents: the 422 of each pair of fields that do not go together, and a p99 equal to the median is taken', async () => {
  const { http } = await freshMock();
  const items = async (body: object) => {
    const res = await http.post('/_mock/faults').send(body);
    assert.is(res.status, 422, JSON.stringify(res.body));
    return res.body.detail.map((d: { loc: unknown; msg: string }) => [d.loc, d.msg]);
  };
  const rl = { requests: 1, per_ms: 10 };
  assert.equal(await items({ path: '/x', delay_ms: 5, body: { a: 1 } }), [[['body', 'body'], 'Value error, A fault body needs a status']]);
  assert.equal(await items({ path: '/x', rate_limit: rl, probability: 0.5 }), [
    [['body', 'probability'], 'Value error, probability does not apply to a rate_limit (every matching request counts)'],
  ]);
  assert.equal(await items({ path: '/x', rate_limit: rl, transport: 'reset' }), [
    [['body', 'transport'], 'Value error, transport cannot be given together with rate_limit'],
  ]);
  const equal = await http.post('/_mock/faults').send({ path: '/x', delay_ms: { distribution: 'lognormal', median_ms: 40, p99_ms: 40 } });
  assert.is(equal.status, 200, JSON.stringify(equal.body));
});

test('match.operation: a misspelt id is 422 naming the closest id in ctx.did_you_mean; one close to none gives examples and no ctx', async () => {
  // In process: the same items the HTTP 422 carries as its detail.
  const { mock } = await freshMock();
  const items = (operation: string) => {
    try {
      mock.control.addFault({ status: 500, match: { operation } });
    } catch (err) {
      assert.instance(err, ValidationError);
      return (err as ValidationError).items;
    }
    return assert.unreachable('refused');
  };
  const loc = ['body', 'match', 'operation'];
  assert.equal(items('getRnu'), [
    {
      type: 'value_error',
      loc,
      msg: 'Value error, Not an operation id of /openapi.json (did you mean "getRun"?)',
      input: 'getRnu',
      ctx: { error: {}, did_you_mean: 'getRun' },
    },
  ]);
  assert.equal(items('zzzzzzzzzzzz'), [
    {
      type: 'value_error',
      loc,
      msg: 'Value error, Not an operation id of /openapi.json (such as getRun or cancelRun)',
      input: 'zzzzzzzzzzzz',
      ctx: { error: {} },
    },
  ]);
  assert.equal(mock.control.faults(), []);
});

test('match.operation over HTTP: the 422 for a misspelt id, for a fault and for a verify pattern, is one /openapi.json describes', async () => {
  // freshMock's client checks every answer against the served document, so an item shape it lacks fails the request.
  const { http } = await freshMock();
  const fault = await http.post('/_mock/faults').send({ status: 500, match: { operation: 'getRnu' } });
  assert.is(fault.status, 422);
  assert.equal(fault.body.detail[0].ctx, { error: {}, did_you_mean: 'getRun' });
  const verify = await http.post('/_mock/verify').send({ request: { operation: 'cancelRnu' }, count: { exactly: 1 } });
  assert.is(verify.status, 422, JSON.stringify(verify.body));
  assert.equal(verify.body.detail[0].ctx, { error: {}, did_you_mean: 'cancelRun' });
  assert.equal((await http.get('/_mock/faults')).body, { items: [] });
});

test.run();
