// The chat webhook's accepted updates: the app-user upsert, the queued live run, duplicates per binding, the default agent.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { demoFixture } from '../../src/fixtures.js';
import { BINDING, hook, SECRET, update } from '../helpers/chat-webhook.js';

const DANA = { id: '7eeec0cc-4c09-4d7b-bb90-476a4c5f5f61', externalId: '500100200' };

test('chat webhook: a verified update creates the sender and a queued live run for the attached agent', async () => {
  const { mock, http } = await freshMock();
  const res = await http.post(hook(BINDING)).set(SECRET).send(update(1001));
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.accepted, true);
  assert.is(res.body.duplicate, false);
  const run = mock.store.get('runs', res.body.run_id)!;
  assert.is(run.status, 'queued');
  assert.is(run.surface, 'chatapp');
  assert.is(run.runtime_mode, 'live');
  assert.is(run.project_id, DEMO.projects.support);
  assert.is(run.release_id, DEMO.releases.gen3Live);
  assert.is(run.created_at, DEMO.now);
  assert.type(run.trace_id, 'string');
  assert.is(run.request_metadata.agent_id, 'support-bot');
  assert.is(run.request_metadata.binding_id, BINDING);
  assert.is(run.request_metadata.update_id, 1001);
  assert.is(run.request_metadata.text_length, 'Where is my order?'.length);
  assert.not.ok(JSON.stringify(run.request_metadata).includes('Where is my order?'), 'message text is not metadata');
  const user = mock.store.get('users', run.user_id!)!;
  assert.is(user.external_provider, 'chatapp');
  assert.is(user.external_user_id, '777000111');
  assert.is(user.display_name, 'New Person');
  assert.is(user.preferred_channel, 'chatapp');
  assert.is(user.last_active_at, DEMO.now);
  assert.is(user.status, 'active');
  // The text is kept as the run's full-content trace, owned by the user (endpoint 20 deletes it).
  const trace = mock.store.get('traces', run.trace_id!)!;
  assert.is(trace.content, 'Where is my order?');
  assert.is(trace.user_id, user.id);
  assert.is(trace.run_id, run.id);
});

test('chat webhook: the new run is readable through the run detail endpoint', async () => {
  const { http } = await freshMock();
  const res = await http.post(hook(BINDING)).set(SECRET).send(update(1002));
  const detail = await http.get(`/api/v3/projects/${DEMO.projects.support}/runs/${res.body.run_id}`).set(bearer(DEMO.tokens.viewer));
  assert.is(detail.status, 200);
  assert.is(detail.body.status, 'queued');
  assert.is(detail.body.release_id, DEMO.releases.gen3Live);
});

test('chat webhook: a known sender (integer or string id) is updated, not duplicated', async () => {
  const { mock, http } = await freshMock();
  const usersBefore = mock.store.count('users');
  const a = await http
    .post(hook(BINDING))
    .set(SECRET)
    .send(update(2001, { id: Number(DANA.externalId) }));
  assert.is(a.status, 200);
  assert.is(mock.store.get('runs', a.body.run_id)!.user_id, DANA.id);
  assert.is(mock.store.count('users'), usersBefore);
  const dana = mock.store.get('users', DANA.id)!;
  assert.is(dana.last_active_at, DEMO.now);
  assert.is(dana.display_name, 'Dana Whitfield', 'no display_name in the update keeps the stored one');

  await mock.control.advanceClock(60_000);
  const b = await http
    .post(hook(BINDING))
    .set(SECRET)
    .send(update(2002, { id: DANA.externalId, display_name: 'Dana W.' }));
  assert.is(mock.store.get('runs', b.body.run_id)!.user_id, DANA.id);
  assert.is(mock.store.count('users'), usersBefore);
  assert.is(mock.store.get('users', DANA.id)!.display_name, 'Dana W.');
  assert.is(mock.store.get('users', DANA.id)!.last_active_at, '2026-11-20T12:01:00.000Z');
});

test('chat webhook: the same update_id again changes nothing and answers duplicate with the first run id', async () => {
  const { mock, http } = await freshMock();
  const first = await http.post(hook(BINDING)).set(SECRET).send(update(3001));
  const before = stateOf(mock);
  await mock.control.advanceClock(1000);
  const afterClock = stateOf(mock);
  const again = await http
    .post(hook(BINDING))
    .set(SECRET)
    .send(update(3001, { id: 'someone-else' }, 'different text'));
  assert.is(again.status, 200);
  assert.equal(again.body, { accepted: true, run_id: first.body.run_id, duplicate: true });
  assert.is(stateOf(mock), afterClock);
  assert.is.not(before, afterClock); // only the clock moved
});

test('chat webhook: update ids are per binding; different ids make different runs', async () => {
  const { mock, http } = await freshMock();
  const runsBefore = mock.store.count('runs');
  const a = await http.post(hook(BINDING)).set(SECRET).send(update(7001));
  const b = await http.post(hook(BINDING)).set(SECRET).send(update(7002));
  assert.is.not(a.body.run_id, b.body.run_id);
  assert.is(mock.store.count('runs'), runsBefore + 2);
  assert.is(mock.store.get('runs', a.body.run_id)!.user_id, mock.store.get('runs', b.body.run_id)!.user_id);
});

test('chat webhook: the same update_id on another binding is a new update (dedupe is per binding)', async () => {
  const fixture = structuredClone(demoFixture()) as { connections: Record<string, unknown>[] };
  const base = fixture.connections.find((c) => c.id === BINDING)!;
  const SECOND = '6e2f4b1a-9c3d-4e5f-8a7b-1c2d3e4f5a6b';
  fixture.connections.push({ ...base, id: SECOND, connection_resource_id: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d', webhook_secret: 'second-secret' });
  const { mock, http } = await freshMock({ fixtures: fixture });
  const a = await http.post(hook(BINDING)).set(SECRET).send(update(8001));
  const b = await http.post(hook(SECOND)).set({ 'X-Chatapp-Secret-Token': 'second-secret' }).send(update(8001));
  assert.equal([a.status, b.status], [200, 200]);
  assert.is(b.body.duplicate, false);
  assert.is.not(b.body.run_id, a.body.run_id);
  assert.is(mock.store.get('runs', b.body.run_id)!.request_metadata.binding_id, SECOND);
  // And each binding still dedupes its own.
  const again = await http.post(hook(SECOND)).set({ 'X-Chatapp-Secret-Token': 'second-secret' }).send(update(8001));
  assert.equal(again.body, { accepted: true, run_id: b.body.run_id, duplicate: true });
});

test('chat webhook: a sender whose app user is marked deleted gets a new app user, the deleted one is untouched', async () => {
  const fixture = structuredClone(demoFixture()) as { users: Record<string, unknown>[] };
  const GONE = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
  const gone = {
    id: GONE,
    project_id: DEMO.projects.support,
    created_at: '2026-10-01T00:00:00.000Z',
    preferred_channel: 'chatapp',
    status: 'deleted',
    display_name: 'Gone',
    external_provider: 'chatapp',
    external_user_id: '424242',
    last_active_at: null,
  };
  fixture.users.push(gone);
  const { mock, http } = await freshMock({ fixtures: fixture });
  const res = await http
    .post(hook(BINDING))
    .set(SECRET)
    .send(update(8101, { id: 424242, display_name: 'Back Again' }));
  assert.is(res.status, 200, JSON.stringify(res.body));
  const userId = mock.store.get('runs', res.body.run_id)!.user_id!;
  assert.is.not(userId, GONE);
  assert.equal(mock.store.get('users', GONE), gone);
  const user = await http.get(`/api/v3/projects/${DEMO.projects.support}/users/${userId}`).set(bearer(DEMO.tokens.owner));
  assert.is(user.status, 200);
  assert.equal([user.body.display_name, user.body.external_user_id, user.body.status], ['Back Again', '424242', 'active']);
});

test('chat webhook: with several agents attached, the binding configuration.default_agent wins when it is one of them', async () => {
  for (const [preferred, expected] of [
    ['escalation-bot', 'escalation-bot'],
    ['support-bot', 'support-bot'],
    ['ghost-bot', 'escalation-bot'],
  ] as const) {
    const fixture = structuredClone(demoFixture()) as { connections: { id: string; configuration: Record<string, unknown> }[] };
    fixture.connections.find((c) => c.id === BINDING)!.configuration.default_agent = preferred;
    const { mock, http } = await freshMock({ fixtures: fixture });
    // A live release where both agents attach support-chat.
    await mock.control.applyDesiredState(DEMO.projects.support, {
      mutation: { type: 'agent.connection.attach', agent_id: 'escalation-bot', connection_name: 'support-chat' },
    });
    await mock.control.compileRelease(DEMO.projects.support, { target: 'live' });
    const res = await http.post(hook(BINDING)).set(SECRET).send(update(8201));
    assert.is(res.status, 200, JSON.stringify(res.body));
    // Not the default, or not attached: the first attached agent by id (escalation-bot sorts before support-bot).
    assert.is(mock.store.get('runs', res.body.run_id)!.request_metadata.agent_id, expected, preferred);
  }
});

test.run();
