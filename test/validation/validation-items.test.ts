// Validation items beyond one row per type: exclusive bounds' ctx, several items in declaration order, union members,
// pydantic's lax mode and UUIDs in every form the uuid crate reads (with its exact messages).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { parse, ValidationError, type ValidationItem } from '../../src/validation.js';
import { Float } from '../../src/schemas/common.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const operator = bearer(DEMO.tokens.operator);
const UUID_CHAR = (c: string, at: number) =>
  `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${c}\` at ${at}`;

type Http = Awaited<ReturnType<typeof freshMock>>['http'];
type Send = (http: Http) => Promise<{ status: number; body: { detail: ValidationItem[] } }>;
const chat =
  (body: unknown): Send =>
  (http) =>
    http
      .post(`/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`)
      .set('X-Chatapp-Secret-Token', DEMO.chatSecret)
      .send(body as object);
const budget = `/api/v3/projects/${P}/budget`;
const update = (fields: Record<string, unknown>) => ({ update_id: 7, message: { from: { id: 1 }, text: 'x' }, ...fields });

test('pydantic rows greater_than and less_than (exclusive bounds): ctx gt / lt only', () => {
  const check = (schema: v.GenericSchema, input: unknown, item: ValidationItem) => {
    try {
      parse(schema, input, 'body');
      assert.unreachable('expected a 422');
    } catch (err) {
      assert.instance(err, ValidationError);
      assert.equal((err as ValidationError).items, [item]);
    }
  };
  check(
    v.object({ n: v.pipe(Float, v.gtValue(0)) }),
    { n: 0 },
    { type: 'greater_than', loc: ['body', 'n'], msg: 'Input should be greater than 0', input: 0, ctx: { gt: 0 } },
  );
  check(
    v.object({ n: v.pipe(Float, v.ltValue(2.5)) }),
    { n: '3' },
    { type: 'less_than', loc: ['body', 'n'], msg: 'Input should be less than 2.5', input: '3', ctx: { lt: 2.5 } },
  );
});

test('several items per request, in field declaration order; path and query items together', async () => {
  const { http } = await freshMock();
  const res = await http.put(budget).set(operator).send({ project_daily_usd: 'x', funding_mode: 'credit', clear: 'maybe' });
  assert.is(res.status, 422);
  // BudgetRequest declares clear, funding_mode, then the amounts: pydantic reports in that order, not the body's.
  assert.equal(
    res.body.detail.map((i: ValidationItem) => [i.loc.at(-1), i.type]),
    [
      ['clear', 'bool_parsing'],
      ['funding_mode', 'enum'],
      ['project_daily_usd', 'float_parsing'],
    ],
  );
  const both = await http.get('/api/v3/projects/nope/users?limit=0').set(owner);
  assert.equal(
    both.body.detail.map((i: ValidationItem) => [i.loc, i.type, i.input]),
    [
      [['path', 'project_id'], 'uuid_parsing', 'nope'],
      [['query', 'limit'], 'greater_than_equal', '0'],
    ],
  );
  // A repeated query key is read as its last value, as Starlette reads a scalar parameter.
  const repeated = await http.get(`/api/v3/projects/${P}/users?limit=5&limit=abc`).set(owner);
  assert.equal(
    repeated.body.detail.map((i: ValidationItem) => [i.type, i.input]),
    [['int_parsing', 'abc']],
  );
});

test('a str | int union reports each member, named at the end of the loc', async () => {
  const { http } = await freshMock();
  const res = await chat(update({ message: { from: { id: 2.5 }, text: 'x' } }))(http);
  assert.equal(res.body.detail, [
    { type: 'string_type', loc: ['body', 'message', 'from', 'id', 'str'], msg: 'Input should be a valid string', input: 2.5 },
    {
      type: 'int_from_float',
      loc: ['body', 'message', 'from', 'id', 'int'],
      msg: 'Input should be a valid integer, got a number with a fractional part',
      input: 2.5,
    },
  ]);
});

test('lax mode, as pydantic: numeric strings, "true"/"0" booleans and whole floats are accepted and converted', async () => {
  const { mock, http } = await freshMock();
  const res = await http.put(budget).set(operator).send({ project_daily_usd: ' 10.5 ', project_monthly_usd: '1_000', clear: 'false', user_daily_usd: true });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.limits, { project_daily_usd: 10.5, project_monthly_usd: 1000, user_daily_usd: 1, user_monthly_usd: 50 }); // the demo keeps its user_monthly_usd
  const page = await http.get(`/api/v3/projects/${P}/users?limit=+02`).set(owner);
  assert.is(page.status, 200);
  assert.is(page.body.items.length, 2);
  // A chat user id given as true is the int 1 (bool is an int in lax mode), stored as its decimal string.
  const hook = await chat(update({ update_id: 991, message: { from: { id: true }, text: 'hi' } }))(http);
  assert.is(hook.status, 200, JSON.stringify(hook.body));
  assert.ok([...mock.store.values('users')].some((u) => u.external_user_id === '1' && u.external_provider === 'chatapp'));
});

test('UUIDs in any form the uuid crate reads are the same id (simple, braced, urn, upper case)', async () => {
  const { http } = await freshMock();
  const forms = [P.toUpperCase(), P.replace(/-/g, ''), `{${P}}`, `urn:uuid:${P}`];
  for (const form of forms) {
    const res = await http.get(`/api/v3/projects/${encodeURIComponent(form)}/users?limit=1`).set(owner);
    assert.is(res.status, 200, `${form}: ${JSON.stringify(res.body)}`);
  }
});

test('uuid_parsing: the uuid crate (1.18.1) message for each kind of fault', async () => {
  const { http } = await freshMock();
  const cases: [string, string][] = [
    ['12345', 'invalid length: expected length 32 for simple format, found 5'],
    ['abcd-ef', 'invalid group count: expected 5, found 2'],
    ['0123456-89ab-cdef-0123-456789abcdef', 'invalid group length in group 0: expected 8, found 7'],
    ['01234567-89ab-cdef-0123-456789abcdeff', 'invalid group length in group 4: expected 12, found 13'],
    ['{0123}', 'invalid group count: expected 5, found 1'],
    ['01234567-89ab-cdef-0123-45678Zabcdef', UUID_CHAR('Z', 30)],
    ['urn:uuid:x', UUID_CHAR('x', 10)],
  ];
  for (const [id, error] of cases) {
    const res = await http.get(`/api/v3/projects/${encodeURIComponent(id)}/users`).set(owner);
    assert.equal(
      res.body.detail,
      [{ type: 'uuid_parsing', loc: ['path', 'project_id'], msg: `Input should be a valid UUID, ${error}`, input: id, ctx: { error } }],
      id,
    );
  }
});

test.run();
