// The routes derived from operation declarations: an optional body defaults to {}, a required one absent is 422
// `missing`, a large-body operation reads past the v3 body limit, and a literal segment is tried before a parameter.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { declareControl, operationRoutes } from '../../src/operations/index.js';
import { routeTable } from '../../src/routes/table.js';
import { answer } from '../../src/operations/answers.js';
import * as v from 'valibot';

const P = DEMO.projects.support;
const MISSING = [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }];

test('optional body: POST /_mock/sandboxes with no body (or JSON null) creates a sandbox from what the server started with', async () => {
  const m = await freshMock();
  const none = await m.http.post('/_mock/sandboxes');
  assert.is(none.status, 201, none.text);
  assert.match(none.body.id, /^[a-z0-9]{1,40}$/);
  assert.ok(none.body.base_url.endsWith(`/sandboxes/${none.body.id}`), none.body.base_url);
  const nul = await m.http.post('/_mock/sandboxes').set('Content-Type', 'application/json').send('null');
  assert.is(nul.status, 201, nul.text);
  assert.is.not(nul.body.id, none.body.id);
  const list = await m.http.get('/_mock/sandboxes');
  assert.equal(list.body.items.map((s: { id: string }) => s.id).sort(), [none.body.id, nul.body.id].sort());
  // The sandbox holds the demo state: its project answers.
  const run = await m.http.get(`/sandboxes/${none.body.id}/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`).set(bearer(DEMO.tokens.owner));
  assert.is(run.status, 200, run.text);
  assert.is(run.body.id, DEMO.runs.failedApi);
});

test('required body: POST /_mock/projects/{id}/desired-state/apply with no body is 422 `missing` at ["body"], nothing changes', async () => {
  const m = await freshMock();
  const before = stateOf(m.mock);
  const res = await m.http.post(`/_mock/projects/${P}/desired-state/apply`);
  assert.is(res.status, 422);
  assert.equal(res.body.detail, MISSING);
  const nul = await m.http.post(`/_mock/projects/${P}/desired-state/apply`).set('Content-Type', 'application/json').send('null');
  assert.equal(nul.body.detail, MISSING);
  assert.is(stateOf(m.mock), before);
});

test('optional body: POST /_mock/projects/{id}/runs with no body creates a queued live api run', async () => {
  const m = await freshMock();
  const res = await m.http.post(`/_mock/projects/${P}/runs`);
  assert.is(res.status, 200, res.text);
  assert.is(res.body.status, 'queued');
  assert.is(res.body.runtime_mode, 'live');
  assert.is(res.body.surface, 'api');
});

test('large body: the control state documents read past the v3 body limit, a v3 body of the same size is 413', async () => {
  const m = await freshMock({ bodyLimit: 2048 });
  const state = await m.http.get('/_mock/state');
  assert.ok(state.text.length > 2048, `${state.text.length}`);
  const put = await m.http.put('/_mock/state').set('Content-Type', 'application/json').send(state.text);
  assert.is(put.status, 200, put.text.slice(0, 200));
  assert.is(put.body.restored, true);
  const budget = await m.http
    .put(`/api/v3/projects/${P}/budget`)
    .set(bearer(DEMO.tokens.owner))
    .send({ funding_mode: 'prepaid', pad: 'x'.repeat(3000) });
  assert.is(budget.status, 413);
  assert.is(budget.body.detail.reason_code, 'payload_too_large');
  // A control body that is not a state document keeps the v3 limit.
  const clock = await m.http.post('/_mock/clock').send({ advance_ms: 1, pad: 'x'.repeat(3000) });
  assert.is(clock.status, 413);
});

const probe = (operationId: string, path: string) =>
  declareControl({
    operationId,
    method: 'get',
    path,
    summary: operationId,
    description: operationId,
    success: [answer('Probe', v.object({}))],
    client: { name: operationId },
    handler: () => () => ({}),
  });

test('route order: a literal segment is tried before a parameter at the first segment where two patterns differ', () => {
  // Declared parameter first: the literal still wins for its own path; everything else goes to the parameter.
  const ops = [probe('byId', '/_mock/things/{thing_id}'), probe('export', '/_mock/things/export'), probe('nested', '/_mock/{kind}/export')];
  const table = routeTable([operationRoutes(ops)((async () => undefined) as never, 1024)]);
  const found = (path: string) => {
    const r = table.lookup('GET', path);
    return 'path' in r ? r.path : r;
  };
  assert.is(found('/_mock/things/export'), '/_mock/things/export');
  assert.is(found('/_mock/things/abc'), '/_mock/things/:thing_id');
  assert.is(found('/_mock/other/export'), '/_mock/:kind/export');
  assert.equal(table.lookup('POST', '/_mock/things/export'), { allowed: ['HEAD', 'GET'] });
});

test.run();
