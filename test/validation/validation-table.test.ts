// The pydantic table, one row per error type: a real request that pydantic v2 (under FastAPI) answers with that type,
// and the exact item it answers. Expected messages are pydantic-core's words written out here, not read from the table.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { demoFixture } from '../../src/fixtures.js';
import { signBrokerPayload } from '../../src/client-helpers.js';
import { PYDANTIC_ERROR_TYPES, type ValidationItem } from '../../src/validation.js';
import { MUTATION_TYPES } from '../../src/schemas/desired-state.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const operator = bearer(DEMO.tokens.operator);
const USER = (demoFixture() as { users: { id: string; project_id: string }[] }).users.find((u) => u.project_id === P)!.id;
const BASE = '00000000-0000-4000-8000-000000000000';
const UUID_CHAR = (c: string, at: number) =>
  `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${c}\` at ${at}`;

type Http = Awaited<ReturnType<typeof freshMock>>['http'];
type Send = (http: Http) => Promise<{ status: number; body: { detail: ValidationItem[] } }>;

const put =
  (path: string, body: unknown, h: Record<string, string> = operator): Send =>
  (http) =>
    http
      .put(path)
      .set(h)
      .send(body as object);
const post =
  (path: string, body: unknown, h: Record<string, string> = operator): Send =>
  (http) =>
    http
      .post(path)
      .set(h)
      .send(body as object);
const raw =
  (method: 'post' | 'put', path: string, text: string, h: Record<string, string> = operator): Send =>
  (http) =>
    http[method](path).set(h).set('Content-Type', 'application/json').send(text);
const get =
  (path: string, h: Record<string, string> = owner): Send =>
  (http) =>
    http.get(path).set(h);
const chat =
  (body: unknown): Send =>
  (http) =>
    http
      .post(`/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`)
      .set('X-Chatapp-Secret-Token', DEMO.chatSecret)
      .send(body as object);
const broker =
  (event: Record<string, unknown>): Send =>
  (http) => {
    const signed = signBrokerPayload(
      { event_id: 'evt_t', event_type: 'connection.refreshed', connection_resource_id: BASE, occurred_at: '2026-11-20T11:59:30.000Z', ...event },
      DEMO.brokerSecret,
    );
    return http.post('/api/v3/webhooks/broker').set(signed.headers).send(signed.body);
  };
const budget = `/api/v3/projects/${P}/budget`;
const plan = `/api/v3/projects/${P}/desired-state/plan`;
const cancel = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`;
const update = (fields: Record<string, unknown>) => ({ update_id: 7, message: { from: { id: 1 }, text: 'x' }, ...fields });

/** [type, request, the one item pydantic answers]. */
const ROWS: [string, Send, ValidationItem][] = [
  [
    'missing',
    post(`/api/v3/projects/${P}/transfer`, { note: 1 }, owner),
    { type: 'missing', loc: ['body', 'workspace_id'], msg: 'Field required', input: { note: 1 } },
  ],
  [
    'model_attributes_type',
    post(cancel, [1]),
    { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: [1] },
  ],
  [
    'dict_type',
    post(`/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`, { metadata: [1] }),
    { type: 'dict_type', loc: ['body', 'metadata'], msg: 'Input should be a valid dictionary', input: [1] },
  ],
  [
    'list_type',
    post(plan, { base_revision_id: BASE, bundle: { manifest: '{}', assets: {} } }),
    { type: 'list_type', loc: ['body', 'bundle', 'assets'], msg: 'Input should be a valid list', input: {} },
  ],
  [
    'string_type',
    (http) => http.delete(`/api/v3/projects/${P}`).set(owner).send({ confirmation: 42 }),
    { type: 'string_type', loc: ['body', 'confirmation'], msg: 'Input should be a valid string', input: 42 },
  ],
  [
    'string_too_short',
    post(plan, { base_revision_id: BASE, mutation: { type: 'agent.delete', agent_id: '' } }),
    { type: 'string_too_short', loc: ['body', 'mutation', 'agent_id'], msg: 'String should have at least 1 character', input: '', ctx: { min_length: 1 } },
  ],
  [
    'string_too_long',
    post(plan, { base_revision_id: BASE, mutation: { type: 'agent.delete', agent_id: 'a'.repeat(65) } }),
    {
      type: 'string_too_long',
      loc: ['body', 'mutation', 'agent_id'],
      msg: 'String should have at most 64 characters',
      input: 'a'.repeat(65),
      ctx: { max_length: 64 },
    },
  ],
  [
    'string_pattern_mismatch',
    post(plan, { base_revision_id: BASE, mutation: { type: 'agent.delete', agent_id: 'no spaces' } }),
    {
      type: 'string_pattern_mismatch',
      loc: ['body', 'mutation', 'agent_id'],
      msg: "String should match pattern '^[A-Za-z0-9][A-Za-z0-9_.-]*$'",
      input: 'no spaces',
      ctx: { pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$' },
    },
  ],
  ['int_type', chat(update({ update_id: null })), { type: 'int_type', loc: ['body', 'update_id'], msg: 'Input should be a valid integer', input: null }],
  [
    'int_parsing',
    get(`/api/v3/projects/${P}/users?limit=abc`),
    { type: 'int_parsing', loc: ['query', 'limit'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: 'abc' },
  ],
  [
    'int_from_float',
    chat(update({ update_id: 1.5 })),
    { type: 'int_from_float', loc: ['body', 'update_id'], msg: 'Input should be a valid integer, got a number with a fractional part', input: 1.5 },
  ],
  [
    'float_type',
    put(budget, { project_daily_usd: [] }),
    { type: 'float_type', loc: ['body', 'project_daily_usd'], msg: 'Input should be a valid number', input: [] },
  ],
  [
    'float_parsing',
    put(budget, { project_daily_usd: 'x' }),
    { type: 'float_parsing', loc: ['body', 'project_daily_usd'], msg: 'Input should be a valid number, unable to parse string as a number', input: 'x' },
  ],
  // 1e400 is infinity once decoded; JSON cannot spell it, so the item's input is null.
  [
    'finite_number',
    raw('put', budget, '{"project_daily_usd": 1e400}'),
    { type: 'finite_number', loc: ['body', 'project_daily_usd'], msg: 'Input should be a finite number', input: null },
  ],
  ['bool_type', put(budget, { clear: 2.5 }), { type: 'bool_type', loc: ['body', 'clear'], msg: 'Input should be a valid boolean', input: 2.5 }],
  [
    'bool_parsing',
    put(budget, { clear: 'maybe' }),
    { type: 'bool_parsing', loc: ['body', 'clear'], msg: 'Input should be a valid boolean, unable to interpret input', input: 'maybe' },
  ],
  [
    'greater_than_equal',
    get(`/api/v3/projects/${P}/users?limit=0`),
    { type: 'greater_than_equal', loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', input: '0', ctx: { ge: 1 } },
  ],
  [
    'less_than_equal',
    get(`/api/v3/projects/${P}/users?limit=201`),
    { type: 'less_than_equal', loc: ['query', 'limit'], msg: 'Input should be less than or equal to 200', input: '201', ctx: { le: 200 } },
  ],
  [
    'enum',
    get(`/api/v3/projects/${P}/approvals?status=bogus`),
    {
      type: 'enum',
      loc: ['query', 'status'],
      msg: "Input should be 'pending', 'approved', 'denied', 'expired' or 'cancelled'",
      input: 'bogus',
      ctx: { expected: "'pending', 'approved', 'denied', 'expired' or 'cancelled'" },
    },
  ],
  [
    'literal_error',
    (http) => http.delete(`/api/v3/projects/${P}/users/${USER}`).set(owner).send({ confirmation: 'nope' }),
    {
      type: 'literal_error',
      loc: ['body', 'confirmation'],
      msg: "Input should be 'delete-application-user'",
      input: 'nope',
      ctx: { expected: "'delete-application-user'" },
    },
  ],
  [
    'union_tag_invalid',
    post(plan, { base_revision_id: BASE, mutation: { type: 'agent.teleport' } }),
    {
      type: 'union_tag_invalid',
      loc: ['body', 'mutation'],
      msg: `Input tag 'agent.teleport' found using 'type' does not match any of the expected tags: ${MUTATION_TYPES.map((t) => `'${t}'`).join(', ')}`,
      input: { type: 'agent.teleport' },
      ctx: { discriminator: "'type'", tag: 'agent.teleport', expected_tags: MUTATION_TYPES.map((t) => `'${t}'`).join(', ') },
    },
  ],
  [
    'union_tag_not_found',
    post(plan, { base_revision_id: BASE, mutation: { agent_id: 'a' } }),
    {
      type: 'union_tag_not_found',
      loc: ['body', 'mutation'],
      msg: "Unable to extract tag using discriminator 'type'",
      input: { agent_id: 'a' },
      ctx: { discriminator: "'type'" },
    },
  ],
  [
    'uuid_type',
    post(`/api/v3/projects/${P}/transfer`, { workspace_id: 5 }, owner),
    { type: 'uuid_type', loc: ['body', 'workspace_id'], msg: 'UUID input should be a string, bytes or UUID object', input: 5 },
  ],
  [
    'uuid_parsing',
    get(`/api/v3/projects/not-a-uuid/users`),
    {
      type: 'uuid_parsing',
      loc: ['path', 'project_id'],
      msg: `Input should be a valid UUID, ${UUID_CHAR('n', 1)}`,
      input: 'not-a-uuid',
      ctx: { error: UUID_CHAR('n', 1) },
    },
  ],
  [
    'datetime_type',
    broker({ occurred_at: true }),
    { type: 'datetime_type', loc: ['body', 'occurred_at'], msg: 'Input should be a valid datetime', input: true },
  ],
  [
    'datetime_parsing',
    broker({ occurred_at: '2026-13-01T00:00:00Z' }),
    {
      type: 'datetime_parsing',
      loc: ['body', 'occurred_at'],
      msg: 'Input should be a valid datetime, month value is outside expected range of 1-12',
      input: '2026-13-01T00:00:00Z',
      ctx: { error: 'month value is outside expected range of 1-12' },
    },
  ],
  [
    'value_error',
    put(budget, { user_daily_usd: 5, project_daily_usd: 3 }),
    {
      type: 'value_error',
      loc: ['body', 'user_daily_usd'],
      msg: 'Value error, user_daily_usd (5) may not exceed project_daily_usd (3)',
      input: 5,
      ctx: { error: {} },
    },
  ],
  // Control documents forbid unknown keys; the closest known key rides in ctx.did_you_mean (absent when none is close).
  [
    'extra_forbidden',
    post('/_mock/clock', { advance_ms: 1, advanse_ms: 5 }, {}),
    { type: 'extra_forbidden', loc: ['body', 'advanse_ms'], msg: 'Extra inputs are not permitted', input: 5, ctx: { did_you_mean: 'advance_ms' } },
  ],
  [
    'json_invalid',
    raw('post', cancel, '{"reason": }'),
    { type: 'json_invalid', loc: ['body', 11], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } },
  ],
];

for (const [type, send, expected] of ROWS) {
  test(`pydantic row ${type}: exact type, loc, msg, input and ctx`, async () => {
    const { http } = await freshMock();
    const res = await send(http);
    assert.is(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.detail, [expected]);
  });
}

test('every type of the table has a row here', () => {
  const covered = new Set([...ROWS.map(([t]) => t), 'greater_than', 'less_than']);
  assert.equal(
    PYDANTIC_ERROR_TYPES.filter((t) => !covered.has(t)),
    [],
  );
  assert.equal(
    [...covered].filter((t) => !PYDANTIC_ERROR_TYPES.includes(t as never)),
    [],
  );
});

test.run();
