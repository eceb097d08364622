// /openapi.json: valid OpenAPI 3.1 whose schemas compile as JSON Schema 2020-12, built once, listing exactly the 20 v3
// operations with their parameters, credentials, request bodies and responses, and the control surface only when on.
import { test } from 'uvu';
import { PYDANTIC_ERROR_TYPES } from '../../src/validation.js';
import * as assert from 'uvu/assert';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { freshMock } from '../helpers/app.js';
import { buildOpenApi, openApiDocument } from '../../src/document/build.js';

type Json = Record<string, any>;

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
  assert.is(openApiDocument(false), openApiDocument(false));
  // A fresh build is another object; it and both cached documents describe the interface's 20 operations (listed
  // independently above), and only the control one has /_mock paths.
  const fresh = buildOpenApi({ control: true });
  assert.is.not(fresh, openApiDocument(true));
  const v3 = (doc: Json) =>
    operations(doc)
      .filter((o) => o.path.startsWith('/api/v3/'))
      .map((o) => `${o.id} ${o.method} ${o.path}`)
      .sort();
  const expected = V3.map(([id, m, p]) => `${id} ${m} ${p}`).sort();
  for (const doc of [fresh, openApiDocument(true), openApiDocument(false)]) assert.equal(v3(doc), expected);
  const hasControl = (doc: Json) => Object.keys(doc.paths).some((p) => p.startsWith('/_mock/'));
  assert.equal([hasControl(fresh), hasControl(openApiDocument(true)), hasControl(openApiDocument(false))], [true, true, false]);
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

  // Credentials are security schemes, not header parameters.
  for (const { id, op } of operations(doc)) {
    for (const name of ['X-Admin-Key', 'X-Chatapp-Secret-Token', 'X-Broker-Hmac-Sha256', 'X-Mock-Control-Token', 'Authorization']) {
      assert.not.ok(param(id, name), `${id}: ${name} is a security scheme, not a parameter`);
    }
    assert.ok(op.description?.length > 10, `${id} has a description`);
  }
});

test('credentials: security schemes, and the accepted alternatives of each operation', () => {
  const doc = openApiDocument(true);
  const schemes = (doc.components as Json).securitySchemes;
  assert.equal(Object.keys(schemes).sort(), ['adminKey', 'bearerAuth', 'brokerSignature', 'chatSecret']);
  assert.equal({ ...schemes.bearerAuth, description: undefined }, { type: 'http', scheme: 'bearer', description: undefined });
  assert.equal({ ...schemes.adminKey, description: undefined }, { type: 'apiKey', in: 'header', name: 'X-Admin-Key', description: undefined });
  assert.equal({ ...schemes.chatSecret, description: undefined }, { type: 'apiKey', in: 'header', name: 'X-Chatapp-Secret-Token', description: undefined });
  assert.equal({ ...schemes.brokerSignature, description: undefined }, { type: 'apiKey', in: 'header', name: 'X-Broker-Hmac-Sha256', description: undefined });
  assert.match(schemes.adminKey.description, /admin_key_invalid/);
  assert.match(schemes.chatSecret.description, /webhook_secret_invalid/);
  assert.match(schemes.brokerSignature.description, /HMAC-SHA256/);

  // docs/api.md#authentication: bearer everywhere but 1, 16, 19; the admin key also on 2, 3, 13, 18 and 20.
  const adminKey = new Set(['getConnection', 'diffRelease', 'transferProject', 'getUser', 'deleteUser']);
  const expected = (id: string) =>
    id === 'exchangeToken'
      ? []
      : id === 'chatWebhook'
        ? [{ chatSecret: [] }]
        : id === 'brokerWebhook'
          ? [{ brokerSignature: [] }]
          : adminKey.has(id)
            ? [{ bearerAuth: [] }, { adminKey: [] }]
            : [{ bearerAuth: [] }];
  for (const [id] of V3) assert.equal(byId(doc, id).op.security, expected(id), id);

  // Control routes: public unless the mock runs with a control token; then every one but health requires it.
  const control = (d: Json) => operations(d).filter((o) => o.path.startsWith('/_mock/'));
  for (const { id, op } of control(doc)) assert.equal(op.security, [], id);
  const guarded = buildOpenApi({ control: true, controlToken: true });
  assert.equal((guarded.components as Json).securitySchemes.controlToken, {
    type: 'apiKey',
    in: 'header',
    name: 'X-Mock-Control-Token',
    description: (guarded.components as Json).securitySchemes.controlToken.description,
  });
  assert.ok(control(guarded).length > 0);
  for (const { id, op } of control(guarded)) assert.equal(op.security, id === 'controlHealth' ? [] : [{ controlToken: [] }], id);
  for (const [id] of V3) assert.equal(byId(guarded, id).op.security, expected(id), id);
  assert.is(openApiDocument(true, true), openApiDocument(true, true));
  assert.equal(openApiDocument(true, true), guarded);
  assert.not.ok('controlToken' in (openApiDocument(false, true).components as Json).securitySchemes, 'no control surface, no control token');
});

test('free-form objects are open objects (typed clients can read and send their keys)', () => {
  const s = (openApiDocument(true).components as Json).schemas;
  const open = { type: 'object', additionalProperties: true };
  const shape = (x: Json) => ({ type: x.type, additionalProperties: x.additionalProperties });
  assert.equal(shape(s.RunDetailResponseV3.properties.request_metadata), open);
  assert.equal(shape(s.RunDetailResponseV3.properties.result), open);
  assert.equal(shape(s.RunResponseV3.properties.request_metadata), open);
  assert.equal(shape(s.RunRetryRequestV3.properties.metadata), open);
  for (const k of ['configuration', 'external_identifiers', 'health']) assert.equal(shape(s.ConnectionBindingResponseV3.properties[k]), open, k);
  for (const k of ['context', 'schedule', 'retry_policy']) assert.equal(shape(s.JobResponseV3.properties[k]), open, k);
  for (const k of ['input_summary', 'output_summary', 'metadata']) assert.equal(shape(s.RunStepResponseV3.properties[k]), open, k);
  assert.equal(shape(s.RunStepResponseV3.properties.guardrail_decisions.items), open);
  // No object anywhere in the document is left without keys and without additionalProperties.
  const bare: string[] = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    if (!node || typeof node !== 'object') return;
    const o = node as Json;
    if (o.type === 'object' && !o.properties && o.additionalProperties === undefined && !o.patternProperties) bare.push(at);
    for (const [k, val] of Object.entries(o)) if (k !== 'default' && k !== 'const' && k !== 'enum') walk(val, `${at}/${k}`);
  };
  walk(openApiDocument(true), '#');
  assert.equal(bare, []);
});

test('the document and its page are served outside the document, as FastAPI does', () => {
  for (const control of [true, false]) {
    const paths = Object.keys(openApiDocument(control).paths as Json);
    for (const p of ['/openapi.json', '/docs', '/docs/{asset}']) assert.not.ok(paths.includes(p), p);
    assert.not.ok(((openApiDocument(control).tags as Json[]) ?? []).some((t) => t.name === 'docs'));
  }
  const info = openApiDocument(true).info as Json;
  assert.equal(info.license, { name: 'MIT', identifier: 'MIT' });
  assert.ok(info.contact?.name);
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

  // Every operation that reads a body also answers 400 body_unreadable (bytes that are not text).
  assert.equal(Object.keys(responses('retryRun')).sort(), ['201', '400', '401', '403', '404', '409', '413', '422']);
  assert.is(responses('retryRun')['201'].headers.Location.required, true);
  assert.is(responses('exchangeToken')['400'].$ref, '#/components/responses/BadRequest');
  assert.match(c.responses.BadRequest.description, /invalid_grant/);
  assert.match(c.responses.BadRequest.description, /body_unreadable/);
  assert.equal(Object.keys(responses('getRun')).sort(), ['200', '401', '403', '404', '422']);
  assert.equal(Object.keys(responses('chatWebhook')).sort(), ['200', '400', '401', '404', '409', '413', '422']);
  assert.equal(Object.keys(responses('brokerWebhook')).sort(), ['200', '400', '401', '413', '422']);
  assert.is(c.responses.Unauthenticated.headers['WWW-Authenticate'].required, true);
  assert.not.ok(c.responses.MethodNotAllowed, '405 answers no documented operation: described in info, not a response component');

  const envelope = c.schemas.ManagementErrorV3;
  assert.equal(envelope.required, ['detail']);
  assert.equal(envelope.properties.detail.required, ['reason_code', 'message']);
  assert.equal(Object.keys(envelope.properties.detail.properties), ['reason_code', 'message', 'affected_resource', 'next_action', 'operation_id', 'phase']);
  const validation = c.schemas.ValidationErrorV3;
  // One alternative per row of the pydantic table: type, loc, msg and input always; ctx exactly where pydantic gives one.
  const alternatives = validation.properties.detail.items.oneOf as { properties: Record<string, { const?: string }>; required: string[] }[];
  assert.equal(
    alternatives.map((a) => a.properties.type.const),
    PYDANTIC_ERROR_TYPES,
  );
  for (const a of alternatives) assert.equal(a.required.slice(0, 4), ['type', 'loc', 'msg', 'input'], a.properties.type.const);
  assert.not.ok(alternatives.find((a) => a.properties.type.const === 'missing')!.properties.ctx);
  assert.ok(alternatives.find((a) => a.properties.type.const === 'uuid_parsing')!.required.includes('ctx'));
  for (const name of ['BadRequest', 'Unauthenticated', 'Forbidden', 'NotFound', 'Conflict', 'PayloadTooLarge']) {
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
  for (const p of ['/_mock/reset', '/_mock/state', '/_mock/requests', '/_mock/clock', '/_mock/faults', '/_mock/coverage', '/_mock/auth/codes'])
    assert.ok((on.paths as Json)[p], p);
  assert.not.ok((off.tags as Json[]).some((t) => t.name === 'control'));
  assert.not.ok(Object.keys(off.paths as Json).some((p) => p.startsWith('/_mock')));
  assert.is(operations(off).filter((o) => o.path.startsWith('/api/v3/')).length, 20);
});

test.run();
