// What a control request must be: JSON bodies only (415), same-site Origin (403), the control token (401), /_mock in any
// letter case, every documented route behind the guard, and a complete state document for PUT /_mock/state.
import { test } from 'uvu';
import request from 'supertest';
import * as assert from 'uvu/assert';
import { createApp } from '../../src/app.js';
import { CONTROL_OPERATIONS } from '../../src/document/operations.js';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { dirty, envelope } from '../helpers/control-refusals.js';

const P = DEMO.projects.support;
const RUN = DEMO.runs.waitingApproval;

test('control: form posts (text/plain, urlencoded, multipart, xml) are 415 and change nothing', async () => {
  const { mock, http } = await freshMock();
  await dirty(http);
  const before = stateOf(mock);
  const forms: [string, string][] = [
    ['text/plain', '{"status":"running"}'],
    ['application/x-www-form-urlencoded', 'status=running'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'],
    ['application/xml', '<reset/>'],
    ['text/plain', ''],
  ];
  for (const [type, body] of forms) {
    for (const [method, path] of [
      ['post', '/_mock/reset'],
      ['post', `/_mock/projects/${P}/runs`],
      ['put', '/_mock/state'],
      ['post', '/_mock/fixtures'],
      ['post', '/_mock/clock'],
    ] as const) {
      const res = await http[method](path).set('Content-Type', type).send(body);
      assert.is(res.status, 415, `${method} ${path} as ${type}`);
      envelope('unsupported_media_type')(res.body);
    }
  }
  assert.is(stateOf(mock), before);
  assert.is((await mock.control.requests()).length, 0);
});

test('control: JSON media types (with parameters, +json) and untyped requests are accepted', async () => {
  const { mock, http } = await freshMock();
  const clock = await http.post('/_mock/clock').set('Content-Type', 'application/json; charset=utf-8').send('{"advance_ms": 1000}');
  assert.is(clock.status, 200);
  assert.is(clock.body.now, '2026-11-20T12:00:01.000Z');
  const merge = await http.post('/_mock/clock').set('Content-Type', 'Application/Vnd.Api+JSON').send('{"advance_ms": 1000}');
  assert.is(merge.status, 200);
  assert.is(merge.body.now, '2026-11-20T12:00:02.000Z');
  await dirty(http);
  const reset = await http.post('/_mock/reset');
  assert.is(reset.status, 200);
  assert.is(mock.control.exportState().runs.length, (await freshMock()).mock.control.exportState().runs.length);
});

test('control: /_mock in any letter case is control traffic: never journaled, never faulted', async () => {
  const { mock, http } = await freshMock();
  await http.post('/_mock/faults').send({ method: '*', path: '/**', status: 503 }).expect(200);
  const raw = request(mock.callback());
  const health = await raw.get('/_MOCK/health');
  assert.is(health.status, 200);
  assert.is(health.body.status, 'ok');
  assert.is(health.headers['x-mock-fault'], undefined);
  assert.equal(mock.control.requests(), []);
});

test('control: a cross-site Origin is 403 even without a body or a Content-Type (fetch no-cors); nothing changes', async () => {
  const { mock, http } = await freshMock({ allowedHosts: ['mock.internal'] });
  await dirty(http);
  const before = stateOf(mock);
  for (const origin of ['http://evil.example', 'https://evil.example:443', 'null', 'file://', 'http://mock.internal.evil.example']) {
    const res = await http.post('/_mock/reset').set('Origin', origin);
    assert.is(res.status, 403, origin);
    envelope('origin_not_allowed')(res.body);
  }
  assert.is(stateOf(mock), before);
  for (const origin of ['http://localhost:3000', 'http://127.0.0.1:4010', 'https://mock.internal']) {
    assert.is((await http.get('/_mock/health').set('Origin', origin)).status, 200, origin);
  }
});

test('control: controlToken makes every /_mock route need X-Mock-Control-Token (401 control_token_invalid otherwise)', async () => {
  const { mock, http } = await freshMock({ controlToken: 's3cret-token' });
  await http.post(`/_mock/projects/${P}/runs`).set('X-Mock-Control-Token', 's3cret-token').send({}).expect(200);
  const before = stateOf(mock);
  for (const given of [undefined, '', 'wrong', 's3cret-token2', 'S3CRET-TOKEN', 's3cret-toke']) {
    let req = http.post('/_mock/reset');
    if (given !== undefined) req = req.set('X-Mock-Control-Token', given);
    const res = await req;
    assert.is(res.status, 401, JSON.stringify(given));
    envelope('control_token_invalid')(res.body);
    assert.is(res.body.detail.next_action, 'check_control_token');
    assert.is(res.headers['www-authenticate'], 'Bearer');
  }
  assert.is(stateOf(mock), before);
  const ok = await http.post('/_mock/reset').set('X-Mock-Control-Token', 's3cret-token');
  assert.is(ok.status, 200);
  assert.is(ok.body.reset, true);
  assert.not.equal(stateOf(mock), before);
  // v3 needs no control token, and the in-process API is not HTTP.
  assert.is((await http.get(`/api/v3/projects/${P}/runs/${RUN}`).set(bearer(DEMO.tokens.owner))).status, 200);
  assert.ok(mock.control.exportState().runs.length > 0);
});

test('control: an empty controlToken is refused at createApp', async () => {
  try {
    await createApp({ storage: 'memory', controlToken: '' });
    assert.unreachable('createApp accepted an empty token');
  } catch (err) {
    assert.match((err as Error).message, 'controlToken');
  }
});

/** Each documented control route with its path parameters filled in. */
const routes = CONTROL_OPERATIONS.map((op) => ({
  method: op.method,
  tokenFree: op.security.length === 0,
  path: op.path.replace('{project_id}', P).replace('{run_id}', RUN),
}));

test('control: every documented /_mock route is behind the guard (Host, content type, Origin, token)', async () => {
  assert.ok(routes.length >= 18, `${routes.length} routes`);
  const { mock, http } = await freshMock({ controlToken: 'tok' });
  const before = stateOf(mock);
  for (const { method, path, tokenFree } of routes) {
    const call = () => http[method](path);
    const refused = async (res: { status: number; body: { detail: { reason_code: string } } }, status: number, reason: string) => {
      assert.is(res.status, status, `${method} ${path}`);
      assert.is(res.body.detail.reason_code, reason, `${method} ${path}`);
    };
    await refused(await call().set('Host', 'attacker.example').set('X-Mock-Control-Token', 'tok'), 421, 'host_not_allowed');
    await refused(await call().set('X-Mock-Control-Token', 'tok').set('Content-Type', 'text/plain').send('{}'), 415, 'unsupported_media_type');
    await refused(await call().set('X-Mock-Control-Token', 'tok').set('Origin', 'https://evil.example'), 403, 'origin_not_allowed');
    // What is documented with no credential answers without the token (liveness alone: a container's health check
    // has none); every other route refuses.
    if (tokenFree) assert.equal([path, (await call()).body], ['/_mock/health', { status: 'ok', now: DEMO.now }]);
    else await refused(await call(), 401, 'control_token_invalid');
  }
  assert.is(stateOf(mock), before);
});

test('control: PUT /_mock/state needs a complete document (422 per missing key); nothing changes', async () => {
  const { mock, http } = await freshMock();
  await dirty(http);
  const before = stateOf(mock);
  const empty = await http.put('/_mock/state').send({});
  assert.is(empty.status, 422);
  // Every exported key is required, but simulated_runs: added later, a document exported before it still imports.
  const keys = Object.keys(mock.control.exportState())
    .filter((k) => k !== 'simulated_runs')
    .sort();
  assert.equal(empty.body.detail.map((i: { loc: string[] }) => i.loc[1]).sort(), keys);
  for (const item of empty.body.detail) assert.is(item.type, 'missing');
  assert.is(stateOf(mock), before);

  const full = (await http.get('/_mock/state')).body;
  const { runs: _runs, ...withoutRuns } = full;
  const partial = await http.put('/_mock/state').send(withoutRuns);
  assert.is(partial.status, 422);
  assert.equal(
    partial.body.detail.map((i: { loc: unknown[]; type: string }) => [i.loc, i.type]),
    [[['body', 'runs'], 'missing']],
  );
  assert.is(stateOf(mock), before);

  const array = await http.put('/_mock/state').send([]);
  assert.is(array.status, 422);
  assert.equal(array.body.detail[0].loc, ['body']);
  assert.is(array.body.detail[0].type, 'model_attributes_type');
  try {
    await mock.control.importState({ runs: [] });
    assert.unreachable('importState took a partial document');
  } catch (err) {
    assert.is((err as { items: unknown[] }).items.length, keys.length - 1);
  }
  assert.is(stateOf(mock), before);

  // The whole document, as GET answered it, restores.
  await http.post('/_mock/reset').expect(200);
  const restored = await http.put('/_mock/state').send(full);
  assert.is(restored.status, 200);
  assert.equal(JSON.parse(stateOf(mock)), JSON.parse(before));
});

test.run();
