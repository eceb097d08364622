// Property tests over all 20 v3 endpoints and the control surface: random path ids, query strings, headers and
// bodies never get a 5xx, always get an answer the OpenAPI document describes, and a refused request (status >= 400)
// leaves the stored state exactly as it was.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { docChecker } from '../helpers/openapi-check.js';
import { CONTROL_OPERATIONS } from '../../src/document/operations.js';
import { signBrokerPayload } from '../../src/client-helpers.js';
import { ENDPOINTS, METHODS, any, asSigned, body, headers, path, query } from '../helpers/generators.js';
import { PYDANTIC_ERRORS, PYDANTIC_ERROR_TYPES, type PydanticErrorType } from '../../src/validation.js';
import type { Snapshot } from '../../src/storage/store.js';
import { DEMO } from '../helpers/demo.js';
import { propertyRuns } from '../runner/config.mjs';

// PROPERTY_RUNS (default 80; never fewer under CI). The seed is fast-check's global one: test/run.mjs prints it.
const RUNS_PER_ENDPOINT = propertyRuns();

// ---- one mock, listening once (supertest would open a listener per request) ----
let mock: MockApp;
let server: Server;
let base: string;
let initial: Snapshot;
let initialJson: string;
const serverErrors: string[] = [];
const stats = new Map<string, number>();
test.after(() => {
  if (process.env.PROPERTY_STATS)
    console.log(
      [...stats]
        .sort()
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n'),
    );
});

test.before(async () => {
  mock = await createApp({ storage: 'memory', fixtures: demoFixture(), onError: (err) => serverErrors.push(String((err as Error)?.stack ?? err)) });
  initial = mock.control.snapshot();
  initialJson = JSON.stringify(mock.store.toData());
  server = mock.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after(() => new Promise<void>((r) => server.close(() => r())));

/**
 * Fails on a 404 `route_not_found` for a path the template does match once the URL is normalised (a
 * mistyped test URL would otherwise exercise nothing). Segments that are empty, `.` or `..` legitimately
 * change the route, so they may answer it.
 */
function assertRouted(template: string, sentPath: string, status: number, text: string): void {
  if (status !== 404 || !text.includes('"route_not_found"')) return;
  const pathname = new URL(base + sentPath).pathname;
  const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
  const reshaped = sentPath
    .split('?')[0]
    .split('/')
    .slice(1)
    .some((s) => s === '' || s === '.' || s === '..' || /^%2e/i.test(s) || /^\.%2e$/i.test(s));
  assert.ok(reshaped || !re.test(pathname), `${sentPath} answered 404 route_not_found: the test's URL does not reach ${template}`);
}

/** Every 422 speaks only the pydantic table: known types, exactly type/loc/msg/input(/ctx), ctx iff the row has one. */
function assertTableItems(status: number, text: string, what: string): void {
  if (status !== 422) return;
  const items = JSON.parse(text).detail as Record<string, unknown>[];
  assert.ok(Array.isArray(items) && items.length > 0, what);
  for (const item of items) {
    const type = item.type as PydanticErrorType;
    assert.ok(PYDANTIC_ERROR_TYPES.includes(type), `${what}: type ${String(item.type)} is not in the pydantic table`);
    const keys = Object.keys(item).sort();
    const entry = PYDANTIC_ERRORS[type] as { ctx?: Record<string, string>; optionalCtx?: Record<string, string> };
    // A ctx the table marks optional (the mock's own hint, such as extra_forbidden's did_you_mean) may be left out.
    const withCtx = 'ctx' in entry || ('optionalCtx' in entry && 'ctx' in item);
    assert.equal(keys, withCtx ? ['ctx', 'input', 'loc', 'msg', 'type'] : ['input', 'loc', 'msg', 'type'], `${what}: ${JSON.stringify(item)}`);
    if (entry.optionalCtx && item.ctx)
      assert.equal(
        Object.keys(item.ctx as object).filter((k) => !(k in entry.optionalCtx!) && !(k in (entry.ctx ?? {}))),
        [],
        `${what}: ctx ${JSON.stringify(item.ctx)}`,
      );
  }
}

// ---- the property ----
for (const [n, method, template] of ENDPOINTS) {
  test(`property: endpoint ${n} ${method} ${template}: never a 5xx; a refusal changes nothing`, async () => {
    await fc.assert(
      fc.asyncProperty(
        path(template),
        query,
        headers,
        body,
        fc.oneof({ weight: 9, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: any(...METHODS) }),
        async (p, q, h, b, m) => {
          await mock.control.restore(initial); // every case starts from the demo state
          if (h['x-broker-hmac-sha256'] === 'sign') h['x-broker-hmac-sha256'] = signBrokerPayload(asSigned(b), DEMO.brokerSecret).signature;
          const res = await fetch(base + p + q, { method: m, headers: h, body: m === 'GET' ? undefined : b });
          const text = await res.text();
          if (process.env.PROPERTY_STATS) stats.set(`${n} ${res.status}`, (stats.get(`${n} ${res.status}`) ?? 0) + 1);
          assert.ok(res.status < 500, `${m} ${p}${q} answered ${res.status}: ${text.slice(0, 300)}\n${serverErrors.at(-1) ?? ''}`);
          assertRouted(template, p + q, res.status, text);
          // Whatever the input, the answer is one the OpenAPI document describes (checked on the path as sent: fetch drops a #fragment).
          const mismatches = docChecker().check(m, new URL(base + p + q).pathname, { status: res.status, headers: Object.fromEntries(res.headers), text });
          assert.equal(mismatches, [], `${m} ${p}${q}: ${mismatches.join('; ')}`);
          assertTableItems(res.status, text, `${m} ${p}${q}`);
          if (res.status >= 400)
            assert.ok(
              JSON.stringify(mock.store.toData()) === initialJson,
              `${m} ${p}${q} was refused with ${res.status} but changed the stored state: ${text.slice(0, 200)}`,
            );
        },
      ),
      { numRuns: RUNS_PER_ENDPOINT },
    );
  });
}

// The /_mock control surface (its writes are restored before every case; faults are cleared, since
// a random fault may ask for any status, 5xx included).
const CONTROL_WRITES = CONTROL_OPERATIONS.filter((o) => o.method !== 'get').map((o) => [o.method.toUpperCase(), o.path] as const);

/** The control bodies' own field names, with JSON values or numbers JSON.parse reads as non-finite or past 2^53. */
const CONTROL_FIELDS = [
  'now',
  'advance_ms',
  'status',
  'to',
  'runtime_mode',
  'surface',
  'release_id',
  'user_id',
  'cost_usd',
  'input_tokens',
  'output_tokens',
  'latency_ms',
  'expires_in_ms',
  'delay_ms',
  'times',
  'steps',
  'events',
  'timing',
  'result',
  'request_metadata',
  'approval',
  'principal_id',
  'code_challenge',
  'scopes',
  'code',
  'target',
  'mutation',
  'bundle',
  'method',
  'path',
  'body',
];
const rawNumber = any('1e400', '-1e400', '9007199254740993', '1e300', '-1', '0', '1.5', '-0', '1e-400', '86400000', '253402300800000');
const controlValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  rawNumber,
  rawNumber.map((n) => `{"expires_in_ms": ${n}, "tool_id": "t"}`),
  rawNumber.map((n) => `[{"name": "s", "sequence": ${n}}]`),
  any('"waiting_approval"', '"running"', '"failed"', '"background"', '"test"', `"${DEMO.principals.owner}"`, '"live"'),
);
const controlBody = fc.oneof(
  { weight: 3, arbitrary: body },
  {
    weight: 3,
    arbitrary: fc.dictionary(any(...CONTROL_FIELDS), controlValue, { maxKeys: 4 }).map(
      (o) =>
        `{${Object.entries(o)
          .map(([k, v]) => `${JSON.stringify(k)}: ${v}`)
          .join(', ')}}`,
    ),
  },
);

/** Paths of numbers JSON cannot hold (a data file would store them as null and refuse itself at the next start). */
function nonFinite(value: unknown, at = '$'): string[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [at];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => nonFinite(v, `${at}.${k}`));
}
let mirror: MockApp;
test.before(async () => {
  mirror = await createApp({ storage: 'memory' });
});

for (const [method, template] of CONTROL_WRITES) {
  test(`property: control ${method} ${template}: never a 5xx; answers match the document; a refusal changes nothing`, async () => {
    await fc.assert(
      fc.asyncProperty(path(template), controlBody, async (p, b) => {
        await mock.control.restore(initial);
        mock.control.clearFaults();
        const res = await fetch(base + p, { method, headers: { 'content-type': 'application/json' }, body: b });
        const text = await res.text();
        assert.ok(res.status < 500, `${method} ${p} answered ${res.status}: ${text.slice(0, 300)}\n${serverErrors.at(-1) ?? ''}`);
        assertRouted(template, p, res.status, text);
        const mismatches = docChecker().check(method, new URL(base + p).pathname, { status: res.status, headers: Object.fromEntries(res.headers), text });
        assert.equal(mismatches, [], `${method} ${p}: ${mismatches.join('; ')}`);
        assertTableItems(res.status, text, `${method} ${p}`);
        if (res.status >= 400)
          assert.ok(JSON.stringify(mock.store.toData()) === initialJson, `${method} ${p} was refused with ${res.status} but changed the stored state`);
        else {
          // An accepted write leaves a state that saves and loads back as it is: finite numbers, every record valid.
          const state = mock.control.exportState();
          assert.equal(nonFinite(state), [], `${method} ${p} ${String(b).slice(0, 200)} stored a number JSON cannot hold`);
          const saved = JSON.stringify(state);
          await mirror.control.importState(JSON.parse(saved));
          assert.equal(JSON.parse(JSON.stringify(mirror.control.exportState())), JSON.parse(saved), `${method} ${p}: the state does not load back equal`);
        }
      }),
      { numRuns: Math.ceil(RUNS_PER_ENDPOINT / 2) },
    );
    mock.control.clearFaults();
  });
}

test('property: no unexpected error was reported', () => {
  assert.equal(serverErrors, []);
});

test.run();
