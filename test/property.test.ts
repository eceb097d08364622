// Property tests over all 20 v3 endpoints and the control surface: random path ids, query strings, headers and
// bodies never get a 5xx, always get an answer the OpenAPI document describes, and a refused request (status >= 400)
// leaves the stored state exactly as it was.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, type MockApp } from '../src/app.js';
import { demoFixture } from '../src/fixtures.js';
import { docChecker } from './helpers/openapi-check.js';
import { CONTROL_OPERATIONS } from '../src/openapi/operations.js';
import { signBrokerPayload } from '../src/client-helpers.js';
import type { Snapshot } from '../src/storage/store.js';
import { DEMO } from './helpers/demo.js';
import { propertyRuns } from './runner/config.mjs';

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
  if (process.env.PROPERTY_STATS) console.log([...stats].sort().map(([k, v]) => `${k}: ${v}`).join("\n"));
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

// ---- generators ----
const any = <T>(...xs: T[]) => fc.constantFrom(...xs);
const randomText = fc.oneof(fc.string(), fc.string({ unit: 'grapheme', maxLength: 40 }), any('', ' ', '..', '%', '%zz', '%E0%A4%A', '%00', 'null', '-1', '0', '1e309', 'NaN', '[]', '{}', 'a/b'));
/** A path segment: a valid demo id, another UUID, or anything (percent-encoded unless it is a raw escape sequence). */
const segment = (valid: string[]) =>
  fc.oneof(
    { weight: 8, arbitrary: any(...valid) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: randomText.map((s) => (/^%/.test(s) ? s : encodeURIComponent(s))) },
  );

const users = (demoFixture() as { users: { id: string }[] }).users.map((u) => u.id);
const projects = Object.values(DEMO.projects);
const SEG = {
  project_id: segment(projects),
  run_id: segment(Object.values(DEMO.runs)),
  approval_id: segment(Object.values(DEMO.approvals)),
  user_id: segment(users.slice(0, 6)),
  release_id: segment(Object.values(DEMO.releases)),
  connection_name: segment(['support-chat', 'crm', 'billing-api', 'sales-crm']),
  binding_id: segment(Object.values(DEMO.connections)),
};
type Param = keyof typeof SEG;

/** The 20 routes of interface-v3.md, in its order. */
const ENDPOINTS: [number, string, string][] = [
  [1, 'POST', '/api/v3/auth/token'],
  [2, 'GET', '/api/v3/projects/{project_id}/connections/{connection_name}'],
  [3, 'GET', '/api/v3/projects/{project_id}/releases/{release_id}/diff'],
  [4, 'POST', '/api/v3/projects/{project_id}/runs/{run_id}/cancel'],
  [5, 'GET', '/api/v3/projects/{project_id}/runs/{run_id}'],
  [6, 'POST', '/api/v3/projects/{project_id}/runs/{run_id}/retry'],
  [7, 'PUT', '/api/v3/projects/{project_id}/budget'],
  [8, 'GET', '/api/v3/projects/{project_id}/users'],
  [9, 'POST', '/api/v3/projects/{project_id}/desired-state/plan'],
  [10, 'GET', '/api/v3/projects/{project_id}/releases'],
  [11, 'POST', '/api/v3/projects/{project_id}/approvals/{approval_id}/deny'],
  [12, 'DELETE', '/api/v3/projects/{project_id}'],
  [13, 'POST', '/api/v3/projects/{project_id}/transfer'],
  [14, 'GET', '/api/v3/projects/{project_id}/jobs'],
  [15, 'GET', '/api/v3/projects/{project_id}/approvals'],
  [16, 'POST', '/api/v3/connections/{binding_id}/chatapp/webhook'],
  [17, 'GET', '/api/v3/projects/{project_id}/approvals/{approval_id}'],
  [18, 'GET', '/api/v3/projects/{project_id}/users/{user_id}'],
  [19, 'POST', '/api/v3/webhooks/broker'],
  [20, 'DELETE', '/api/v3/projects/{project_id}/users/{user_id}'],
];

const path = (template: string) => {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as Param);
  return fc.tuple(...names.map((n) => SEG[n])).map((values) => values.reduce<string>((p, v, i) => p.replace(`{${names[i]}}`, v), template));
};

const QUERY_KEYS = ['limit', 'cursor', 'status', 'runtime_mode', 'baseline_release_id'];
const queryValue = fc.oneof(randomText, any('1', '50', '200', '201', '0', '-5', '2.5', 'live', 'test', 'pending', 'denied', 'expired'), fc.uuid(), any(...Object.values(DEMO.releases)));
/** Known and unknown keys, sometimes repeated (koa then hands the handler an array). */
const query = fc.array(fc.tuple(fc.oneof(any(...QUERY_KEYS), fc.string({ maxLength: 8 })), queryValue), { maxLength: 4 }).map((pairs) => {
  const q = new URLSearchParams();
  for (const [k, v] of pairs) q.append(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
});

const headerText = fc.string({ maxLength: 60 }); // printable ASCII: what fetch accepts in a header
const TOKENS = Object.values(DEMO.tokens);
/** A header that is usually a good value, sometimes absent, sometimes anything. */
const header = (good: fc.Arbitrary<string>, weight = 3, absent = 1) =>
  fc.oneof({ weight, arbitrary: good }, { weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: headerText });
const headers = fc
  .record({
    authorization: header(fc.oneof({ weight: 6, arbitrary: any(...TOKENS.map((t) => `Bearer ${t}`)) }, headerText.map((t) => `Bearer ${t}`), any('Bearer', 'Basic ZGVtbzpkZW1v', `bearer ${DEMO.tokens.owner}`)), 6),
    'x-admin-key': header(any(DEMO.adminKey), 1, 4),
    'content-type': header(any('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x')),
    'x-chatapp-secret-token': header(any(DEMO.chatSecret)),
    /** 'sign' is replaced by the body's real signature, so the broker webhook gets past its check too. */
    'x-broker-hmac-sha256': header(fc.oneof(any('sign'), fc.stringMatching(/^[0-9a-f]{64}$/))),
  })
  .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);

const FIELDS = ['now', 'advance_ms', 'method', 'path', 'status', 'times', 'delay_ms', 'to', 'steps', 'target', 'principal_id', 'code_challenge', 'runtime_mode', 'surface', 'reason', 'binding_fingerprint', 'confirmation', 'workspace_id', 'clear', 'funding_mode', 'project_daily_usd', 'user_monthly_usd', 'metadata', 'code', 'code_verifier', 'grant_type', 'refresh_token', 'base_revision_id', 'bundle', 'mutation', 'type', 'message', 'update_id', 'event', 'connection_id', '__proto__', 'constructor'];
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  any('delete-application-user', 'authorization_code', 'refresh_token', 'free_sandbox', DEMO.workspaces.acmeLabs, DEMO.authorizationCode, DEMO.pkceVerifier),
  fc.uuid(),
);
/** No body, any JSON, an object of the endpoints' field names with values of any type, invalid JSON, or a huge body (the last size is over the 1 MiB limit). */
const body = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((j) => JSON.stringify(j)) },
  { weight: 4, arbitrary: fc.dictionary(any(...FIELDS), fieldValue, { maxKeys: 5 }).map((o) => JSON.stringify(o)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.tuple(any('reason', 'confirmation', 'message'), any(1_000, 300_000, 1_100_000)).map(([k, n]) => JSON.stringify({ [k]: 'é'.repeat(n / 2) })) },
);

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Fails on a 404 `route_not_found` for a path the template does match once the URL is normalised (a
 * mistyped test URL would otherwise exercise nothing). Segments that are empty, `.` or `..` legitimately
 * change the route, so they may answer it.
 */
function assertRouted(template: string, sentPath: string, status: number, text: string): void {
  if (status !== 404 || !text.includes('"route_not_found"')) return;
  const pathname = new URL(base + sentPath).pathname;
  const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
  const reshaped = sentPath.split('?')[0].split('/').slice(1).some((s) => s === '' || s === '.' || s === '..' || /^%2e/i.test(s) || /^\.%2e$/i.test(s));
  assert.ok(reshaped || !re.test(pathname), `${sentPath} answered 404 route_not_found: the test's URL does not reach ${template}`);
}

// ---- the property ----
for (const [n, method, template] of ENDPOINTS) {
  test(`property: endpoint ${n} ${method} ${template}: never a 5xx; a refusal changes nothing`, async () => {
    await fc.assert(
      fc.asyncProperty(path(template), query, headers, body, fc.oneof({ weight: 9, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: any(...METHODS) }), async (p, q, h, b, m) => {
        await mock.control.restore(initial); // every case starts from the demo state
        if (h['x-broker-hmac-sha256'] === 'sign') h['x-broker-hmac-sha256'] = signBrokerPayload(b ?? '', DEMO.brokerSecret).signature;
        const res = await fetch(base + p + q, { method: m, headers: h, body: m === 'GET' ? undefined : b });
        const text = await res.text();
        if (process.env.PROPERTY_STATS) stats.set(`${n} ${res.status}`, (stats.get(`${n} ${res.status}`) ?? 0) + 1);
        assert.ok(res.status < 500, `${m} ${p}${q} answered ${res.status}: ${text.slice(0, 300)}\n${serverErrors.at(-1) ?? ''}`);
        assertRouted(template, p + q, res.status, text);
        // Whatever the input, the answer is one the OpenAPI document describes (checked on the path as sent: fetch drops a #fragment).
        const mismatches = docChecker().check(m, new URL(base + p + q).pathname, { status: res.status, headers: Object.fromEntries(res.headers), text });
        assert.equal(mismatches, [], `${m} ${p}${q}: ${mismatches.join('; ')}`);
        if (res.status >= 400) assert.ok(JSON.stringify(mock.store.toData()) === initialJson, `${m} ${p}${q} was refused with ${res.status} but changed the stored state: ${text.slice(0, 200)}`);
      }),
      { numRuns: RUNS_PER_ENDPOINT },
    );
  });
}

// The /_mock control surface (its writes are restored before every case; faults are cleared, since
// a random fault may ask for any status, 5xx included).
const CONTROL_WRITES = CONTROL_OPERATIONS.filter((o) => o.method !== 'get').map((o) => [o.method.toUpperCase(), o.path] as const);

for (const [method, template] of CONTROL_WRITES) {
  test(`property: control ${method} ${template}: never a 5xx; answers match the document; a refusal changes nothing`, async () => {
    await fc.assert(
      fc.asyncProperty(path(template), body, async (p, b) => {
        await mock.control.restore(initial);
        mock.control.clearFaults();
        const res = await fetch(base + p, { method, headers: { 'content-type': 'application/json' }, body: b });
        const text = await res.text();
        assert.ok(res.status < 500, `${method} ${p} answered ${res.status}: ${text.slice(0, 300)}\n${serverErrors.at(-1) ?? ''}`);
        assertRouted(template, p, res.status, text);
        const mismatches = docChecker().check(method, new URL(base + p).pathname, { status: res.status, headers: Object.fromEntries(res.headers), text });
        assert.equal(mismatches, [], `${method} ${p}: ${mismatches.join('; ')}`);
        if (res.status >= 400) assert.ok(JSON.stringify(mock.store.toData()) === initialJson, `${method} ${p} was refused with ${res.status} but changed the stored state`);
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
