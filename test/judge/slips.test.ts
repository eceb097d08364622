// Errors that name the slip: the service's answers stay as they are, and the journal entry, the client report, the 422
// of verify and faults, createApp's option checks and the in-process ValidationError say what was meant.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from '../helpers/demo.js';

const P = DEMO.projects.support;
const cancelPath = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`;
const runPath = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;
const CT_FIX = { rule: 'content_type_not_json', fix: 'Send Content-Type: application/json with a JSON body.' };
const BEARER_FIX = { rule: 'bearer_prefix_missing', fix: 'Send Authorization: Bearer <access token>.' };
const demo = () => createApp({ storage: 'memory', fixtures: demoFixture() });
const last = (mock: MockApp) => mock.control.requests().at(-1)!;
const slips = (mock: MockApp) => mock.control.clientReport().findings.filter((f) => f.rule === CT_FIX.rule || f.rule === BEARER_FIX.rule);

test("content_type_not_json: a JSON body sent as text gets the service's 422 unchanged, and the entry and the report name the header", async () => {
  const mock = await demo();
  const body = '{"reason":"x"}';
  const res = await mock.fetch(cancelPath, { method: 'POST', headers: { authorization: `Bearer ${DEMO.tokens.owner}`, 'content-type': 'text/plain' }, body });
  assert.is(res.status, 422);
  assert.equal(await res.json(), {
    detail: [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body }],
  });
  const entry = last(mock);
  assert.equal(entry.findings, [CT_FIX]);
  assert.equal(slips(mock), [
    {
      rule: 'content_type_not_json',
      severity: 'warning',
      message: `Request ${entry.id} (POST ${cancelPath}, 422): Send Content-Type: application/json with a JSON body.`,
      principal: DEMO.principals.owner,
      entries: [entry.id],
    },
  ]);
});

test('content_type_not_json: not for a JSON type, a body that is not JSON, no body, or the control surface', async () => {
  const mock = await demo();
  const auth = { authorization: `Bearer ${DEMO.tokens.owner}` };
  const sends: [string, Record<string, string>, string | undefined][] = [
    [cancelPath, { ...auth, 'content-type': 'application/json' }, '{"reason":"x"}'],
    [cancelPath, { ...auth, 'content-type': 'application/merge-patch+json' }, '{"reason":"x"}'],
    [cancelPath, { ...auth, 'content-type': 'text/plain' }, 'reason=x'],
    [cancelPath, { ...auth, 'content-type': 'text/plain' }, '{"reason": '],
    [cancelPath, { ...auth, 'content-type': 'text/plain' }, undefined],
    ['/_mock/faults', { 'content-type': 'text/plain' }, '{"status":500}'],
  ];
  for (const [path, headers, body] of sends) await mock.fetch(path, { method: 'POST', headers, body });
  assert.equal(
    mock.control.requests().map((e) => e.findings),
    sends.filter(([p]) => p.startsWith('/api/')).map(() => undefined),
  );
  assert.equal(slips(mock), []);
  // The array form counts too: a JSON array sent as text.
  await mock.fetch(cancelPath, { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: '[]' });
  assert.equal(last(mock).findings, [CT_FIX]);
});

test("bearer_prefix_missing: the token alone or another scheme gets the service's 401 unchanged, and the entry names the prefix", async () => {
  const mock = await demo();
  for (const authorization of [DEMO.tokens.owner, `Basic ${DEMO.tokens.owner}`, `Bearer${DEMO.tokens.owner}`]) {
    const res = await mock.fetch(runPath, { headers: { authorization } });
    assert.is(res.status, 401, authorization);
    const answer = (await res.json()) as { detail: { reason_code: string; message: string } };
    assert.is(answer.detail.reason_code, 'authentication_required');
    assert.is(answer.detail.message, 'Credentials are required.');
    assert.equal(last(mock).findings, [BEARER_FIX], authorization);
  }
  const found = slips(mock);
  assert.equal(
    found.map((f) => [f.rule, f.entries.length, f.principal]),
    [0, 1, 2].map(() => ['bearer_prefix_missing', 1, 'anonymous']),
  );
  assert.not.match(JSON.stringify(found) + JSON.stringify(mock.control.requests()), DEMO.tokens.owner, 'no token in a finding or an entry');
  // Bearer with any case, and no Authorization at all: no slip.
  await mock.fetch(runPath, { headers: { authorization: `bearer ${DEMO.tokens.owner}` } });
  await mock.fetch(runPath);
  assert.equal(
    mock.control
      .requests()
      .slice(-2)
      .map((e) => e.findings),
    [undefined, undefined],
  );
});

test('verify and faults: an unknown operation is a 422 naming the closest operation id', async () => {
  const mock = await demo();
  const post = async (path: string, body: unknown) => {
    const res = await mock.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };
  const item = (loc: (string | number)[], input: string, hint: string) => ({
    type: 'value_error',
    loc: ['body', ...loc],
    msg: `Value error, Not an operation id of /openapi.json (did you mean "${hint}"?)`,
    input,
    ctx: { error: {}, did_you_mean: hint },
  });
  assert.equal(await post('/_mock/verify', { request: { operation: 'getRuns' } }), {
    status: 422,
    body: { detail: [item(['request', 'operation'], 'getRuns', 'getRun')] },
  });
  assert.equal(await post('/_mock/verify/sequence', { requests: [{ operation: 'getRun' }, { operation: 'cancelrun' }] }), {
    status: 422,
    body: { detail: [item(['requests', 1, 'operation'], 'cancelrun', 'cancelRun')] },
  });
  assert.equal(await post('/_mock/faults', { match: { operation: 'getRuns' }, status: 500 }), {
    status: 422,
    body: { detail: [item(['match', 'operation'], 'getRuns', 'getRun')] },
  });
  // Nothing close: the message gives examples and no did_you_mean.
  assert.equal(await post('/_mock/verify', { request: { operation: 'zzzzzzzzzzzzzzzzzz' } }), {
    status: 422,
    body: {
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'request', 'operation'],
          msg: 'Value error, Not an operation id of /openapi.json (such as getRun or cancelRun)',
          input: 'zzzzzzzzzzzzzzzzzz',
          ctx: { error: {} },
        },
      ],
    },
  });
  // A known operation verifies as before (0 matched is a 417, not a 422).
  assert.is((await post('/_mock/verify', { request: { operation: 'getRun' } })).status, 417);
  // In process: the same refusal, as a ValidationError whose message names the id meant.
  assert.throws(
    () => mock.control.verify({ request: { operation: 'getRuns' } }),
    (err: Error) => err.message === 'body.request.operation: Value error, Not an operation id of /openapi.json (did you mean "getRun"?)',
  );
});

test('the in-process ValidationError says "did you mean" as the HTTP answer\'s ctx.did_you_mean does', async () => {
  const mock = await demo();
  let caught: unknown;
  try {
    mock.control.addFault({ methd: 'GET', path: '/x', status: 500 } as never);
  } catch (err) {
    caught = err;
  }
  const err = caught as Error & { status: number; items: unknown[] };
  assert.is(err.message, 'body.methd: Extra inputs are not permitted (did you mean "method"?)');
  assert.is(err.status, 422);
  assert.equal(err.items, [
    { type: 'extra_forbidden', loc: ['body', 'methd'], msg: 'Extra inputs are not permitted', input: 'GET', ctx: { did_you_mean: 'method' } },
  ]);
  const res = await mock.fetch('/_mock/faults', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ methd: 'GET', path: '/x', status: 500 }),
  });
  assert.equal(await res.json(), { detail: err.items });
});

test('createApp: an unknown option or a bad storage is a TypeError naming it, with the closest name', async () => {
  const refused = async (options: unknown) => {
    try {
      await createApp(options as never);
    } catch (err) {
      assert.instance(err, TypeError);
      return (err as Error).message;
    }
    throw new Error('createApp accepted it');
  };
  assert.is(await refused({ storage: 'memroy' }), "createApp: storage 'memroy' is not known (did you mean 'memory'?): give 'memory' or a storage adapter");
  assert.is(await refused({ storage: 'disk' }), "createApp: storage 'disk' is not known: give 'memory' or a storage adapter");
  const notAdapter = "createApp: storage must be 'memory' or a storage adapter with read() and write() (MemoryAdapter, JsonFileAdapter, postgresStorage(...))";
  assert.is(await refused({ storage: {} }), notAdapter);
  assert.is(await refused({ storage: { read: () => null } }), notAdapter);
  assert.is(await refused({ storage: null }), notAdapter);
  const unknown = await refused({ storage: 'memory', fixture: {} });
  assert.match(unknown, /^createApp: unknown option 'fixture' \(did you mean 'fixtures'\?\); known options: storage, fixtures, reset, /);
  assert.match(await refused({ storage: 'memory', admin_key: 'k' }), /^createApp: unknown option 'admin_key' \(did you mean 'adminKey'\?\)/);
  assert.match(await refused({ storage: 'memory', zzzzzzzz: 1 }), /^createApp: unknown option 'zzzzzzzz'; known options: /);
  assert.is(await refused('memory'), 'createApp: options must be an object');
  // What is known still starts: memory, an adapter, no options at all (the default data file is not touched here).
  assert.ok(await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 1, journal: { entries: 10 } }));
});

test.run();
