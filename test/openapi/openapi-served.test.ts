// /docs serves Swagger UI from local assets, and real responses validate against the OpenAPI document (the shared
// check does this for every suite; here it is also exercised directly, including that a mismatch is caught).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import request from 'supertest';
import { freshMock } from '../helpers/app.js';
import { bearer, DEMO } from '../helpers/demo.js';
import { docChecker, OpenApiMismatch, skipOpenApiCheck } from '../helpers/openapi-check.js';
const owner = bearer(DEMO.tokens.owner);
const P = DEMO.projects.support;

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
  assert.equal(
    samples.map((r) => r.status),
    [200, 200, 200, 200, 200, 401, 422, 404, 405, 201],
  );
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
  assert.ok(
    checker.check('GET', `/api/v3/projects/${P}/users`, {
      status: 409,
      headers: { 'content-type': 'application/json' },
      text: '{"detail":{"reason_code":"project_archived","message":"x"}}',
    }).length > 0,
  );
  // A 5xx is a defect: never documented.
  assert.ok(
    checker.check('GET', `/api/v3/projects/${P}/users`, {
      status: 500,
      headers: { 'content-type': 'application/json' },
      text: '{"detail":{"reason_code":"internal_error","message":"x"}}',
    }).length > 0,
  );
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
  const wrapped = (await import('../helpers/openapi-check.js')).checkedClient(request(mock.callback()), true);
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
