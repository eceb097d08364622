// Each operation is declared once and everything agrees with it: the running app's routes (probed over HTTP and listed
// from the route modules), the served /openapi.json, the coverage report and the typed client. A route without a
// document entry, a coverage row or a client call (or any of those without a route) fails here.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { V3_DECLARATIONS, routePattern } from '../../src/operations/index.js';
import { CONTROL_OPERATIONS, UNDESCRIBED_PATHS } from '../../src/document/operations.js';
import { CONTROL_ROUTES, V3_ROUTES } from '../../src/routes/index.js';
import { v3Operations } from '../../src/client/v3.js';

type Json = Record<string, any>;
const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
/** Every declared operation: the 20 v3 ones and the /_mock catalog. */
const DECLARED = [...V3_DECLARATIONS, ...CONTROL_OPERATIONS];
const declaredKeys = DECLARED.map((o) => key(o.method, o.path)).sort();
/** A concrete path for a template: every parameter a fixed valid-looking value. */
const concrete = (template: string) =>
  template.replace(/\{[a-z_]+\}/g, (p) => (p === '{sandbox_id}' || p === '{name}' ? 'abc' : '00000000-0000-4000-8000-000000000000'));

async function controlMock() {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  return { mock, http: request(mock.callback()) };
}

test('declarations: one per operation (unique ids, unique method and path), v3 in endpoint order 1..20', () => {
  assert.is(new Set(DECLARED.map((o) => o.operationId)).size, DECLARED.length);
  assert.is(new Set(declaredKeys).size, declaredKeys.length);
  assert.equal(
    V3_DECLARATIONS.map((o) => o.endpoint),
    Array.from({ length: 20 }, (_, i) => i + 1),
  );
  // An admin-key operation authenticates; a public one names the credential it checks itself (or none: the token grant).
  for (const op of V3_DECLARATIONS) {
    if (op.level === 'public') assert.ok(!op.security.includes('bearer') && !op.project, op.operationId);
    else assert.ok(op.security.includes('bearer') && op.project === true, op.operationId);
  }
});

test('route table: the route modules hold exactly the declared routes plus the undescribed pages, in the same pattern form', async () => {
  const { mock } = await controlMock();
  const listed: string[] = [];
  for (const module of [...V3_ROUTES, ...CONTROL_ROUTES]) {
    for (const layer of module((async () => undefined) as never, 1024).stack) {
      const template = layer.path.replace(/:(\w+)/g, '{$1}');
      for (const m of layer.methods) if (m !== 'HEAD') listed.push(key(m, template));
    }
  }
  const undescribed = listed.filter((k) => (UNDESCRIBED_PATHS as readonly string[]).includes(k.split(' ')[1]));
  assert.equal(undescribed.sort(), UNDESCRIBED_PATHS.map((p) => key('GET', p)).sort());
  assert.equal(listed.filter((k) => !undescribed.includes(k)).sort(), declaredKeys);
  await mock.close();
});

test('running app: OPTIONS on every declared path allows exactly the methods declared there (GET with HEAD)', async () => {
  const { mock, http } = await controlMock();
  const byPath = new Map<string, string[]>();
  for (const o of DECLARED) byPath.set(o.path, [...(byPath.get(o.path) ?? []), o.method.toUpperCase()]);
  for (const [path, methods] of byPath) {
    const res = await http.options(concrete(path)).set('Host', '127.0.0.1');
    const expected = methods.flatMap((m) => (m === 'GET' ? ['HEAD', 'GET'] : [m]));
    assert.equal((res.headers.allow ?? '').split(', ').sort(), expected.sort(), path);
  }
  assert.is(routePattern('/a/{b}/c/{d_e}'), '/a/:b/c/:d_e');
  await mock.close();
});

test('running app: /openapi.json describes exactly the declared operations, by id, method and path', async () => {
  const { mock, http } = await controlMock();
  const doc = (await http.get('/openapi.json')).body as Json;
  const served: string[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths))
    for (const [method, op] of Object.entries<Json>(item)) served.push(`${key(method, path)} ${op.operationId}`);
  assert.equal(served.sort(), DECLARED.map((o) => `${key(o.method, o.path)} ${o.operationId}`).sort());
  await mock.close();
});

test('running app: the coverage report has a row for each v3 operation and nothing else, statuses as documented', async () => {
  const { mock, http } = await controlMock();
  const doc = (await http.get('/openapi.json')).body as Json;
  const report = (await http.get('/_mock/coverage').set('Host', '127.0.0.1')).body as Json;
  assert.equal(
    report.operations.map((o: Json) => `${o.method} ${o.path} ${o.operation}`),
    V3_DECLARATIONS.map((o) => `${key(o.method, o.path)} ${o.operationId}`),
  );
  for (const row of report.operations as Json[]) {
    const documented = Object.keys(doc.paths[row.path][row.method.toLowerCase()].responses).map(Number);
    const statuses = row.missing.statuses as number[];
    // Every status the report expects is documented; every documented one is expected, but for the body errors any
    // body-reading operation documents (400 unreadable bytes, 413 too large) where the contract lists no reason for them.
    assert.ok(
      statuses.every((s) => documented.includes(s)),
      row.operation,
    );
    assert.equal(
      documented.filter((s) => !statuses.includes(s) && s !== 400 && s !== 413),
      [],
      row.operation,
    );
  }
  await mock.close();
});

/** `api.METHOD('/path'` calls in a client source file. */
const clientCalls = (file: string) =>
  [...readFileSync(new URL(`../../src/client/${file}`, import.meta.url), 'utf8').matchAll(/api\.(GET|POST|PUT|DELETE)\(\s*'([^']+)'/g)].map((m) =>
    key(m[1], m[2]),
  );

test('typed client: a v3 method per v3 operation, named by its id, and a call for every documented operation', async () => {
  const methods = Object.keys(v3Operations({} as never)).sort();
  assert.equal(methods, V3_DECLARATIONS.map((o) => o.operationId).sort());
  const calls = new Set([...clientCalls('v3.ts'), ...clientCalls('control.ts')]);
  const missing = declaredKeys.filter((k) => !calls.has(k));
  assert.equal(missing, []);
  assert.equal(
    [...calls].filter((k) => !declaredKeys.includes(k)),
    [],
  );
});

test('typed client: the generated operation map is the served document (ids, methods, paths)', async () => {
  const { OPERATIONS } = (await import('../../src/client/generated.js')) as { OPERATIONS: Record<string, { method: string; path: string }> };
  assert.equal(
    Object.entries(OPERATIONS)
      .map(([id, o]) => `${key(o.method, o.path)} ${id}`)
      .sort(),
    DECLARED.map((o) => `${key(o.method, o.path)} ${o.operationId}`).sort(),
  );
});

test.run();
