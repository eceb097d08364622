// The chat webhook's refusals in order: the binding secret (401), the binding (404, 422), the update (422), no live agent
// (409) and an archived project (409); none stores anything.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { demoFixture } from '../../src/fixtures.js';
import { BINDING, hook, SECRET, update } from '../helpers/chat-webhook.js';

const ORPHAN = '2b0c7a43-51a8-4e5f-9d3c-0f6f7f3e1a01';
const ARCHIVED_BINDING = '5d1e3a0f-8c1b-4f7e-a2b9-6c3d2e1f0a77';

/** The demo plus a chat binding no agent attaches to, and one on the archived project. */
function fixtureWithExtraBindings() {
  const demo = structuredClone(demoFixture()) as { connections: Record<string, unknown>[] };
  const base = demo.connections.find((c) => c.id === BINDING)!;
  demo.connections.push(
    { ...base, id: ORPHAN, connection_name: 'orphan-chat', connection_resource_id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f', webhook_secret: 'orphan-secret' },
    {
      ...base,
      id: ARCHIVED_BINDING,
      project_id: DEMO.projects.legacy,
      connection_name: 'legacy-chat',
      connection_resource_id: '4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a',
      webhook_secret: 'legacy-secret',
    },
  );
  return demo;
}

test('chat webhook: a wrong or absent secret is 401 webhook_secret_invalid with WWW-Authenticate, state unchanged', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  for (const headers of [{}, { 'X-Chatapp-Secret-Token': 'wrong' }, { 'X-Chatapp-Secret-Token': `${DEMO.chatSecret}x` }, { 'X-Chatapp-Secret-Token': '' }]) {
    const res = await http.post(hook(BINDING)).set(headers).send(update(4001));
    assert.is(res.status, 401, JSON.stringify(headers));
    assert.is(res.body.detail.reason_code, 'webhook_secret_invalid');
    assert.is(res.body.detail.next_action, 'check_webhook_secret');
    assert.is(res.headers['www-authenticate'], 'Bearer');
  }
  assert.is(stateOf(mock), before);
});

test('chat webhook: a binding without a secret accepts no update', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const res = await http.post(hook(DEMO.connections.crm)).set({ 'X-Chatapp-Secret-Token': '' }).send(update(4101));
  assert.is(res.status, 401);
  assert.is(res.body.detail.reason_code, 'webhook_secret_invalid');
  assert.is(stateOf(mock), before);
});

test('chat webhook: the secret is checked before the body (bad secret and bad body is 401)', async () => {
  const { http } = await freshMock();
  const res = await http.post(hook(BINDING)).set({ 'X-Chatapp-Secret-Token': 'wrong' }).send({ nonsense: true });
  assert.is(res.status, 401);
  assert.is(res.body.detail.reason_code, 'webhook_secret_invalid');
});

test('chat webhook: an unknown binding is 404 binding_not_found', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const res = await http.post(hook('00000000-0000-4000-8000-000000000000')).set(SECRET).send(update(5001));
  assert.is(res.status, 404);
  assert.is(res.body.detail.reason_code, 'binding_not_found');
  assert.is(stateOf(mock), before);
});

test('chat webhook: a binding id that is not a UUID is 422 at path binding_id', async () => {
  const { http } = await freshMock();
  const res = await http.post(hook('not-a-uuid')).set(SECRET).send(update(5002));
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['path', 'binding_id']);
});

test('chat webhook: a malformed update is 422 at its field, state unchanged', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const cases: [unknown, (string | number)[]][] = [
    [{ message: { from: { id: 1 }, text: 'x' } }, ['body', 'update_id']],
    [{ update_id: 'seven', message: { from: { id: 1 }, text: 'x' } }, ['body', 'update_id']],
    [{ update_id: 1.5, message: { from: { id: 1 }, text: 'x' } }, ['body', 'update_id']],
    [{ update_id: 7, message: { from: { id: 1 } } }, ['body', 'message', 'text']],
    [{ update_id: 7, message: { from: {}, text: 'x' } }, ['body', 'message', 'from', 'id']],
    // from.id is str | int: pydantic reports each member's error, the member named at the end of the loc.
    [{ update_id: 7, message: { from: { id: 1.5 }, text: 'x' } }, ['body', 'message', 'from', 'id', 'str']],
    [{ update_id: 7 }, ['body', 'message']],
  ];
  for (const [body, loc] of cases) {
    const res = await http
      .post(hook(BINDING))
      .set(SECRET)
      .send(body as object);
    assert.is(res.status, 422, JSON.stringify(body));
    assert.equal(res.body.detail[0].loc, loc, JSON.stringify(body));
  }
  const broken = await http.post(hook(BINDING)).set(SECRET).set('Content-Type', 'application/json').send('{"update_id": 1,');
  assert.is(broken.status, 422);
  assert.is(broken.body.detail[0].type, 'json_invalid');
  const empty = await http.post(hook(BINDING)).set(SECRET);
  assert.is(empty.status, 422);
  assert.equal(empty.body.detail[0].loc, ['body']);
  assert.is(stateOf(mock), before);
});

test('chat webhook: no agent of the live release attached to the connection is 409 no_live_agent, nothing stored', async () => {
  const { mock, http } = await freshMock({ fixtures: fixtureWithExtraBindings() });
  const before = stateOf(mock);
  const res = await http.post(hook(ORPHAN)).set({ 'X-Chatapp-Secret-Token': 'orphan-secret' }).send(update(6001));
  assert.is(res.status, 409);
  assert.is(res.body.detail.reason_code, 'no_live_agent');
  assert.is(stateOf(mock), before);
});

test('chat webhook: a project without a live target is 409 no_live_agent, nothing stored', async () => {
  const fixture = structuredClone(demoFixture()) as { targets: { project_id: string; name: string }[] };
  fixture.targets = fixture.targets.filter((t) => !(t.project_id === DEMO.projects.support && t.name === 'live'));
  const { mock, http } = await freshMock({ fixtures: fixture });
  const before = stateOf(mock);
  const res = await http.post(hook(BINDING)).set(SECRET).send(update(6002));
  assert.is(res.status, 409);
  assert.is(res.body.detail.reason_code, 'no_live_agent');
  assert.is(stateOf(mock), before);
});

test('chat webhook: a binding of an archived project is 409 project_archived', async () => {
  const { mock, http } = await freshMock({ fixtures: fixtureWithExtraBindings() });
  const before = stateOf(mock);
  const res = await http.post(hook(ARCHIVED_BINDING)).set({ 'X-Chatapp-Secret-Token': 'legacy-secret' }).send(update(6003));
  assert.is(res.status, 409);
  assert.is(res.body.detail.reason_code, 'project_archived');
  assert.is(stateOf(mock), before);
});

test.run();
