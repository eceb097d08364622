// Every number the API or the control surface accepts is finite and range-checked: a 422 at its
// loc, nothing stored, and the mock clock never reaches an invalid date. A property: random control writes, saved to a
// data file and loaded again, give the same state.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { JsonFileAdapter } from '../../src/storage/adapters.js';
import { ApiError } from '../../src/errors.js';
import { ValidationError } from '../../src/validation.js';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { propertyRuns } from '../runner/config.mjs';

const P = DEMO.projects.support;
const MAX_SAFE = 9007199254740991;
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

test('a control run with cost_usd 1e400 is 422 finite_number at its loc, and nothing is stored', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const res = await http.post(`/_mock/projects/${P}/runs`).set('Content-Type', 'application/json').send('{"cost_usd": 1e400, "latency_ms": 1e300}');
  assert.is(res.status, 422);
  assert.equal(res.body.detail, [
    { type: 'finite_number', loc: ['body', 'cost_usd'], msg: 'Input should be a finite number', input: null },
    { type: 'less_than_equal', loc: ['body', 'latency_ms'], msg: `Input should be less than or equal to ${MAX_SAFE}`, input: 1e300, ctx: { le: MAX_SAFE } },
  ]);
  assert.is(stateOf(mock), before);
});

test('free-form values (result, events, request_metadata, fault bodies) refuse 1e400 anywhere inside, at its place, and store nothing', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const cases: [string, string, string, (string | number)[]][] = [
    [`/_mock/projects/${P}/runs`, 'POST', '{"result": {"expires_in_ms": 1e400, "tool_id": "t"}}', ['body', 'result', 'expires_in_ms']],
    [`/_mock/projects/${P}/runs`, 'POST', '{"events": [{"a": [1, -1e400]}]}', ['body', 'events', 0, 'a', 1]],
    [`/_mock/projects/${P}/runs`, 'POST', '{"request_metadata": {"deep": {"x": [{"y": 1e999}]}}}', ['body', 'request_metadata', 'deep', 'x', 0, 'y']],
    ['/_mock/faults', 'POST', '{"method": "GET", "path": "/x", "status": 418, "body": [1e400]}', ['body', 'body', 0]],
  ];
  for (const [path, method, body, loc] of cases) {
    const res = await http[method === 'POST' ? 'post' : 'put'](path).set('Content-Type', 'application/json').send(body);
    assert.is(res.status, 422, body);
    assert.equal(res.body.detail, [{ type: 'finite_number', loc, msg: 'Input should be a finite number', input: null }], body);
  }
  assert.is(stateOf(mock), before);
  assert.equal(mock.control.faults(), []);
  // Finite numbers of any size JSON holds are kept as given.
  const ok = await http.post(`/_mock/projects/${P}/runs`).set('Content-Type', 'application/json').send('{"result": {"n": 1e308, "m": -0.5}}');
  assert.is(ok.status, 200);
  assert.equal(ok.body.result, { n: 1e308, m: -0.5 });
});

test('advance_ms 9007199254740991 on a running clock is 422 less_than_equal (the largest step that fits), and the clock is unchanged', async () => {
  const now = Date.parse('2026-01-15T12:00:00.000Z');
  const { mock, http } = await freshMock({ fixtures: { ...(demoFixture() as object), now: undefined }, clock: () => now });
  const before = stateOf(mock);
  const res = await http.post('/_mock/clock').send({ advance_ms: MAX_SAFE });
  assert.is(res.status, 422);
  const le = Date.parse('9999-01-01T00:00:00.000Z') - now;
  assert.equal(res.body.detail, [
    { type: 'less_than_equal', loc: ['body', 'advance_ms'], msg: `Input should be less than or equal to ${le}`, input: MAX_SAFE, ctx: { le } },
  ]);
  assert.is(stateOf(mock), before);
  assert.is((await http.get(`/api/v3/projects/${P}/users?limit=1`).set({ Authorization: `Bearer ${DEMO.tokens.owner}` })).status, 200);
  // The largest step that fits is taken, and the clock then reads a valid four-digit-year date.
  assert.is((await http.post('/_mock/clock').send({ advance_ms: le })).status, 200);
  assert.is(mock.control.clock().now, '9999-01-01T00:00:00.000Z');
  assert.is((await http.post('/_mock/clock').send({ advance_ms: 1 })).status, 422);
});

test('a frozen clock cannot be set or moved outside 0001-01-01 .. 9999-01-01', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assert.is((await http.post('/_mock/clock').send({ now: '9999-06-01T00:00:00Z' })).status, 422);
  assert.is((await http.post('/_mock/clock').send({ now: '0000-06-01T00:00:00Z' })).status, 422);
  assert.is((await http.post('/_mock/clock').send({ advance_ms: -MAX_SAFE })).status, 422);
  assert.is(stateOf(mock), before);
  for (const ms of [Infinity, 1.5, NaN]) {
    const refused = await mock.control.advanceClock(ms).then(
      () => false,
      (err) => err instanceof ValidationError,
    );
    assert.ok(refused, String(ms));
  }
});

test('expires_in_ms 1e300 (codes) and a lifetime past year 9999 (approvals) are 422 at their loc', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const code = await http.post('/_mock/auth/codes').send({ principal_id: DEMO.principals.owner, code_challenge: 'x'.repeat(43), expires_in_ms: 1e300 });
  assert.is(code.status, 422);
  assert.equal(
    code.body.detail.map((i: { loc: unknown; type: string }) => [i.loc, i.type]),
    [[['body', 'expires_in_ms'], 'less_than_equal']],
  );
  const nowMs = Date.parse(DEMO.now);
  const run = await http.post(`/_mock/projects/${P}/runs`).send({ status: 'waiting_approval', approval: { expires_in_ms: LAST_INSTANT - nowMs + 1 } });
  assert.is(run.status, 422);
  assert.equal(run.body.detail, [
    {
      type: 'less_than_equal',
      loc: ['body', 'approval', 'expires_in_ms'],
      msg: `Input should be less than or equal to ${LAST_INSTANT - nowMs}`,
      input: LAST_INSTANT - nowMs + 1,
      ctx: { le: LAST_INSTANT - nowMs },
    },
  ]);
  assert.is(stateOf(mock), before);
  const edge = await http.post(`/_mock/projects/${P}/runs`).send({ status: 'waiting_approval', approval: { expires_in_ms: LAST_INSTANT - nowMs } });
  assert.is(edge.status, 200, JSON.stringify(edge.body));
  assert.is(edge.body.approval.expires_at, '9999-12-31T23:59:59.999Z');
});

// ---- the property: whatever control writes are accepted survive a save and a load unchanged ----

const number = fc.oneof(
  fc.integer({ min: -5, max: 5_000_000 }),
  fc.double({ noNaN: false }),
  fc.constantFrom(1e300, -1e300, MAX_SAFE, MAX_SAFE + 2, 2 ** 63, -0, 0.5, Number.MAX_VALUE),
  fc.constantFrom('12', ' 7 ', '1e400', 'inf', 'NaN', '1_000', '-3', 'x', true, null),
);
const op = fc.oneof(
  fc.record({
    kind: fc.constant('run' as const),
    cost_usd: number,
    input_tokens: number,
    latency_ms: number,
    timing: fc.record({ model_ms: number }),
    expires: number,
  }),
  fc.record({ kind: fc.constant('advance' as const), ms: number }),
  fc.record({
    kind: fc.constant('now' as const),
    at: fc.oneof(
      fc.date({ min: new Date(-62135596800000), max: new Date(LAST_INSTANT) }).map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toISOString())),
      fc.constantFrom('9999-12-31T23:59:59Z', '0001-01-01T00:00:00Z', 'garbage', '1700000000'),
    ),
  }),
  fc.record({ kind: fc.constant('code' as const), expires: number }),
);

async function apply(mock: Awaited<ReturnType<typeof createApp>>, o: { kind: string }): Promise<void> {
  const x = o as Record<string, unknown>;
  try {
    if (o.kind === 'run') {
      await mock.control.createRun(P, {
        status: 'waiting_approval',
        cost_usd: x.cost_usd,
        input_tokens: x.input_tokens,
        latency_ms: x.latency_ms,
        timing: x.timing,
        approval: { expires_in_ms: x.expires },
      } as never);
    } else if (o.kind === 'advance') await mock.control.advanceClock(x.ms as number);
    else if (o.kind === 'now') await mock.control.setClock(x.at as string);
    else await mock.control.mintAuthorizationCode({ principal_id: DEMO.principals.owner, code_challenge: 'c'.repeat(43), expires_in_ms: x.expires as number });
  } catch (err) {
    // A refusal is a 422 (or a management error), never anything else.
    if (!(err instanceof ValidationError) && !(err instanceof ApiError)) throw err;
  }
}

test('property: random control writes, saved to a data file and loaded again, give the same state', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prm-numbers-'));
  let round = 0;
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        const file = join(dir, `db-${round++}.json`);
        const mock = await createApp({ storage: new JsonFileAdapter(file), fixtures: demoFixture(), seed: 7 });
        for (const o of ops) await apply(mock, o as never);
        const before = JSON.stringify(mock.store.toData());
        assert.ok(Number.isFinite(Date.parse(mock.control.clock().now)), 'the clock reads a valid date');
        await mock.close();
        const again = await createApp({ storage: new JsonFileAdapter(file), fixtures: demoFixture(), seed: 7 });
        assert.is(JSON.stringify(again.store.toData()), before);
        await again.close();
      }),
      { numRuns: Math.max(10, Math.ceil(propertyRuns() / 4)) },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
