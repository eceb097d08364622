// /openapi.json and /docs: the document is valid OpenAPI 3.1, lists exactly the 20 v3 operations with their
// parameters and error responses, and real responses validate against it (the shared check does this for
// every suite; here it is also exercised directly, including that a mismatch is caught).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import request from 'supertest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { freshMock } from './helpers/app.js';
import { bearer, DEMO } from './helpers/demo.js';
import { docChecker, OpenApiMismatch, skipOpenApiCheck } from './helpers/openapi-check.js';
import { buildOpenApi, openApiDocument } from '../src/openapi/build.js';

type Json = Record<string, any>;
const owner = bearer(DEMO.tokens.owner);
const P = DEMO.projects.support;

const V3: [string, string, string][] = [
  ['exchangeToken', 'post', '/api/v3/auth/token'],
  ['getConnection', 'get', '/api/v3/projects/{project_id}/connections/{connection_name}'],
  ['diffRelease', 'get', '/api/v3/projects/{project_id}/releases/{release_id}/diff'],
  ['cancelRun', 'post', '/api/v3/projects/{project_id}/runs/{run_id}/cancel'],
  ['getRun', 'get', '/api/v3/projects/{project_id}/runs/{run_id}'],
  ['retryRun', 'post', '/api/v3/projects/{project_id}/runs/{run_id}/retry'],
  ['setBudget', 'put', '/api/v3/projects/{project_id}/budget'],
  ['listUsers', 'get', '/api/v3/projects/{project_id}/users'],
  ['planDesiredState', 'post', '/api/v3/projects/{project_id}/desired-state/plan'],
  ['listReleases', 'get', '/api/v3/projects/{project_id}/releases'],
  ['denyApproval', 'post', '/api/v3/projects/{project_id}/approvals/{approval_id}/deny'],
  ['deleteProject', 'delete', '/api/v3/projects/{project_id}'],
  ['transferProject', 'post', '/api/v3/projects/{project_id}/transfer'],
  ['listJobs', 'get', '/api/v3/projects/{project_id}/jobs'],
  ['listApprovals', 'get', '/api/v3/projects/{project_id}/approvals'],
  ['chatWebhook', 'post', '/api/v3/connections/{binding_id}/chatapp/webhook'],
  ['getApproval', 'get', '/api/v3/projects/{project_id}/approvals/{approval_id}'],
  ['getUser', 'get', '/api/v3/projects/{project_id}/users/{user_id}'],
  ['brokerWebhook', 'post', '/api/v3/webhooks/broker'],
  ['deleteUser', 'delete', '/api/v3/projects/{project_id}/users/{user_id}'],
];

function operations(doc: Json): { id: string; method: string; path: string; op: Json }[] {
  return Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item).map(([method, op]) => ({ id: op.operationId as string, method, path, op })),
  );
}
const byId = (doc: Json, id: string) => operations(doc).find((o) => o.id === id)!;

test('served at /openapi.json and valid OpenAPI 3.1 (with and without the control surface)', async () => {
  for (const control of [true, false]) {
    const { http } = await freshMock({ control });
    const res = await http.get('/openapi.json');
    assert.is(res.status, 200);
    assert.match(res.headers['content-type'], /application\/json/);
    assert.is(res.body.openapi, '3.1.0');
    const result = await new Validator().validate(res.body);
    assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
    assert.equal(res.body, JSON.parse(JSON.stringify(openApiDocument(control))));
  }
});

test('every component schema compiles as JSON Schema 2020-12 in strict mode', () => {
  const ajv = new Ajv2020({ strict: true, validateFormats: false });
  ajv.addKeyword('example');
  ajv.addKeyword('components'); // the container of the schemas; each is compiled by its pointer below
  const doc = openApiDocument(true);
  ajv.addSchema({ $id: 'urn:test:components', components: doc.components }, undefined, undefined, false);
  for (const name of Object.keys((doc.components as Json).schemas)) {
    assert.ok(ajv.getSchema(`urn:test:components#/components/schemas/${name}`), name);
  }
});

test('the document is built once per process and control setting', () => {
  assert.is(openApiDocument(true), openApiDocument(true));
  assert.is.not(openApiDocument(true), openApiDocument(false));
  assert.equal(buildOpenApi({ control: true }), openApiDocument(true));
});

test('exactly the 20 v3 operations, with the route operation names, methods and paths', () => {
  const doc = openApiDocument(true);
  const v3 = operations(doc).filter((o) => o.path.startsWith('/api/v3/'));
  assert.is(v3.length, 20);
  const got = v3.map((o) => `${o.id} ${o.method} ${o.path}`).sort();
  assert.equal(got, V3.map(([id, m, p]) => `${id} ${m} ${p}`).sort());
  assert.is(new Set(operations(doc).map((o) => o.id)).size, operations(doc).length, 'operation ids are unique');
});

test('parameters: path ids, query bounds and the contract headers', () => {
  const doc = openApiDocument(true);
  const params = (id: string) => (byId(doc, id).op.parameters ?? []) as Json[];
  const param = (id: string, name: string) => params(id).find((p) => p.name === name);

  assert.equal(param('getRun', 'run_id'), { name: 'run_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
  assert.equal(param('listUsers', 'limit')?.schema, { type: 'integer', minimum: 1, maximum: 200, default: 50 });
  assert.is(param('listUsers', 'cursor')?.in, 'query');
  assert.equal(param('listApprovals', 'status')?.schema.enum, ['pending', 'approved', 'denied', 'expired', 'cancelled']);
  assert.equal(param('getRun', 'runtime_mode')?.schema.enum, ['live', 'test']);
  assert.is(param('diffRelease', 'baseline_release_id')?.required, false);

  for (const id of ['getConnection', 'diffRelease', 'transferProject', 'getUser', 'deleteUser']) {
    assert.is(param(id, 'X-Admin-Key')?.in, 'header', id);
  }
  for (const [id] of V3.filter(([id]) => !['getConnection', 'diffRelease', 'transferProject', 'getUser', 'deleteUser'].includes(id))) {
    assert.not.ok(param(id, 'X-Admin-Key'), `${id} takes no admin key`);
  }
  assert.is(param('chatWebhook', 'X-Chatapp-Secret-Token')?.in, 'header');
  assert.is(param('brokerWebhook', 'X-Broker-Hmac-Sha256')?.in, 'header');

  assert.equal((doc.components as Json).securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', description: (doc.components as Json).securitySchemes.bearerAuth.description });
  for (const [id] of V3) {
    const security = byId(doc, id).op.security;
    const isPublic = ['exchangeToken', 'chatWebhook', 'brokerWebhook'].includes(id);
    assert.equal(security, isPublic ? [] : [{ bearerAuth: [] }], id);
  }
});

test('request bodies reuse the valibot request schemas', () => {
  const doc = openApiDocument(true);
  const schemas = (doc.components as Json).schemas;
  const bodyRef = (id: string) => byId(doc, id).op.requestBody?.content['application/json'].schema.$ref as string | undefined;
  assert.is(bodyRef('exchangeToken'), '#/components/schemas/InstallerTokenRequest');
  assert.equal(schemas.InstallerTokenRequest.properties.grant_type.enum, ['authorization_code', 'refresh_token']);
  assert.is(bodyRef('deleteUser'), '#/components/schemas/ApplicationUserDeleteRequestV3');
  assert.is(schemas.ApplicationUserDeleteRequestV3.properties.confirmation.const, 'delete-application-user');
  assert.equal(schemas.ProjectTransferRequestV3.required, ['workspace_id']);
  assert.is(schemas.MutationV3.oneOf.length, 31);
  assert.is(schemas.DesiredStatePlanRequestV3.properties.mutation.$ref, '#/components/schemas/MutationV3');
  assert.ok(schemas.ChatUpdate.properties.update_id);
  assert.equal(schemas.BrokerEvent.properties.event_type.enum, ['connection.authorized', 'connection.refreshed', 'connection.error', 'connection.revoked']);
  for (const id of ['getRun', 'listUsers', 'getConnection']) assert.not.ok(byId(doc, id).op.requestBody, id);
  // Requests stay open (unknown fields are ignored); responses are closed.
  assert.is(schemas.BudgetRequestV3.additionalProperties, undefined);
  assert.is(schemas.BudgetResponseV3.additionalProperties, false);
});

test('responses: success bodies, both error shapes, 400 invalid_grant, 201 + Location on retry', () => {
  const doc = openApiDocument(true);
  const responses = (id: string) => byId(doc, id).op.responses as Json;
  const c = doc.components as Json;

  assert.equal(Object.keys(responses('retryRun')).sort(), ['201', '401', '403', '404', '409', '413', '422']);
  assert.is(responses('retryRun')['201'].headers.Location.required, true);
  assert.is(responses('exchangeToken')['400'].$ref, '#/components/responses/InvalidGrant');
  assert.match(c.responses.InvalidGrant.description, /invalid_grant/);
  assert.equal(Object.keys(responses('getRun')).sort(), ['200', '401', '403', '404', '422']);
  assert.equal(Object.keys(responses('chatWebhook')).sort(), ['200', '401', '404', '409', '413', '422']);
  assert.equal(Object.keys(responses('brokerWebhook')).sort(), ['200', '401', '413', '422']);
  assert.is(c.responses.Unauthenticated.headers['WWW-Authenticate'].required, true);
  assert.ok(c.responses.MethodNotAllowed, '405 is documented');

  const envelope = c.schemas.ManagementErrorV3;
  assert.equal(envelope.required, ['detail']);
  assert.equal(envelope.properties.detail.required, ['reason_code', 'message']);
  assert.equal(Object.keys(envelope.properties.detail.properties), ['reason_code', 'message', 'affected_resource', 'next_action', 'operation_id', 'phase']);
  const validation = c.schemas.ValidationErrorV3;
  assert.equal(validation.properties.detail.items.required, ['loc', 'msg', 'type']);
  for (const name of ['InvalidGrant', 'Unauthenticated', 'Forbidden', 'NotFound', 'MethodNotAllowed', 'Conflict', 'PayloadTooLarge']) {
    assert.is(c.responses[name].content['application/json'].schema.$ref, '#/components/schemas/ManagementErrorV3', name);
  }
  assert.is(c.responses.ValidationFailed.content['application/json'].schema.$ref, '#/components/schemas/ValidationErrorV3');
  assert.is(c.responses.Conflict.content['application/json'].schema.$ref, '#/components/schemas/ManagementErrorV3');
  assert.is(responses('getUser')['200'].content['application/json'].schema.$ref, '#/components/schemas/UserResponseV3');
  assert.is(responses('listReleases')['200'].content['application/json'].schema.$ref, '#/components/schemas/ReleasePageV3');
  assert.is(c.schemas.ProjectReleaseDiffResponseV3.properties.semantic_diff_fingerprint.pattern, '^[0-9a-f]{64}$');
});

test('the control surface has its own tag, and only when control is on', () => {
  const on = openApiDocument(true);
  const off = openApiDocument(false);
  assert.ok((on.tags as Json[]).some((t) => t.name === 'control'));
  const control = operations(on).filter((o) => o.op.tags.includes('control'));
  assert.ok(control.length >= 15);
  assert.ok(control.every((o) => o.path.startsWith('/_mock/')));
  for (const p of ['/_mock/reset', '/_mock/state', '/_mock/requests', '/_mock/clock', '/_mock/faults', '/_mock/coverage', '/_mock/auth/codes']) assert.ok((on.paths as Json)[p], p);
  assert.not.ok((off.tags as Json[]).some((t) => t.name === 'control'));
  assert.not.ok(Object.keys(off.paths as Json).some((p) => p.startsWith('/_mock')));
  assert.is(operations(off).filter((o) => o.path.startsWith('/api/v3/')).length, 20);
});

test('/docs serves Swagger UI from local assets (no CDN), also with control off', async () => {
  for (const control of [true, false]) {
    const { http } = await freshMock({ control });
    const page = await http.get('/docs');
    assert.is(page.status, 200);
    assert.match(page.headers['content-type'], /text\/html/);
    assert.match(page.text, /src="\/docs\/swagger-ui-bundle\.js"/);
    assert.match(page.text, /href="\/docs\/swagger-ui\.css"/);
    assert.not.match(page.text, /https?:\/\//);
    const init = await http.get('/docs/swagger-initializer.js');
    assert.is(init.status, 200);
    assert.match(init.text, /url: '\/openapi\.json'/);
    assert.match(init.text, /validatorUrl: null/);
    const bundle = await http.get('/docs/swagger-ui-bundle.js');
    assert.is(bundle.status, 200);
    assert.match(bundle.headers['content-type'], /javascript/);
    assert.ok(Number(bundle.headers['content-length']) > 100_000);
    const css = await http.get('/docs/swagger-ui.css');
    assert.match(css.headers['content-type'], /text\/css/);
    const missing = await http.get('/docs/package.json');
    assert.is(missing.status, 404);
    assert.is(missing.body.detail.reason_code, 'route_not_found');
  }
});

test('a sample of real responses validates (success, 401, 404, 405, 422, 201 retry)', async () => {
  const { http } = await freshMock();
  const checker = docChecker(true);
  const samples = [
    await http.get(`/api/v3/projects/${P}/users`).set(owner).query({ limit: 2 }),
    await http.get(`/api/v3/projects/${P}/releases`).set(owner),
    await http.get(`/api/v3/projects/${P}/approvals`).set(owner),
    await http.get(`/api/v3/projects/${P}/jobs`).set(owner),
    await http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`).set(owner),
    await http.get(`/api/v3/projects/${P}/users`),
    await http.get(`/api/v3/projects/not-a-uuid/users`).set(owner),
    await http.get('/api/v3/nothing-here').set(owner),
    await http.patch(`/api/v3/projects/${P}/users`).set(owner),
    await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`).set(owner).send({ reason: 'again' }),
  ];
  assert.equal(samples.map((r) => r.status), [200, 200, 200, 200, 200, 401, 422, 404, 405, 201]);
  for (const res of samples) {
    const { method, url } = (res as unknown as { request: { method: string; url: string } }).request;
    const path = new URL(url).pathname;
    assert.equal(checker.check(method, path, res as never), [], `${method} ${path}`);
  }
});

test('the shared check fails a request whose response drifts from the document', async () => {
  const { mock, http } = await freshMock();
  // A body the document does not describe: a made-up field on a closed response object.
  const checker = docChecker(true);
  const page = await http.get(`/api/v3/projects/${P}/users`).set(owner);
  const user = page.body.items[0];
  const fake = { status: 200, headers: { 'content-type': 'application/json' }, text: JSON.stringify({ ...user, surprise: 1 }) };
  assert.equal(checker.check('GET', `/api/v3/projects/${P}/users/${user.id}`, { ...fake, text: JSON.stringify(user) }), []);
  assert.ok(checker.check('GET', `/api/v3/projects/${P}/users/${user.id}`, fake).length > 0);
  // An undocumented status on a documented operation.
  assert.ok(checker.check('GET', `/api/v3/projects/${P}/users`, { status: 409, headers: { 'content-type': 'application/json' }, text: '{"detail":{"reason_code":"project_archived","message":"x"}}' }).length > 0);
  // A 5xx is a defect: never documented.
  assert.ok(checker.check('GET', `/api/v3/projects/${P}/users`, { status: 500, headers: { 'content-type': 'application/json' }, text: '{"detail":{"reason_code":"internal_error","message":"x"}}' }).length > 0);
  // Undocumented route that answers 200.
  assert.ok(checker.check('GET', '/_mock/secret-thing', { status: 200, headers: { 'content-type': 'application/json' }, text: '{}' }).length > 0);

  // And through the wrapped client: a real app answering something undocumented rejects the awaited request.
  mock.app.middleware.unshift(async (ctx, next) => {
    if (ctx.path === '/drift') {
      ctx.status = 200;
      ctx.body = { hello: 'world' };
      return;
    }
    await next();
  });
  const wrapped = (await import('./helpers/openapi-check.js')).checkedClient(request(mock.callback()), true);
  let caught: unknown;
  try {
    await wrapped.get('/drift').expect(200);
  } catch (err) {
    caught = err;
  }
  assert.instance(caught, OpenApiMismatch);
  const skipped = await skipOpenApiCheck(wrapped.get('/drift'));
  assert.is(skipped.status, 200);
});

test.run();
