// The desired-state control surface: read the head, commit revisions, compile releases (HTTP and in-process).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, ValidationError } from '../../src/errors.js';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { CountingAdapter } from '../helpers/ops.js';

const SUPPORT = DEMO.projects.support;
const GRANT_REFUND = { type: 'agent.capability.grant', agent_id: 'support-bot', capability_id: 'refund-issue' } as const;
const statePath = (id: string) => `/_mock/projects/${id}/desired-state`;
const applyPath = (id: string) => `/_mock/projects/${id}/desired-state/apply`;
const releasesPath = (id: string) => `/_mock/projects/${id}/releases`;

async function rejects(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  assert.unreachable('expected a rejection');
}

test('GET desired-state answers the head identity and its normalized document, without credentials', async () => {
  const { http } = await freshMock();
  const res = await http.get(statePath(SUPPORT));
  assert.is(res.status, 200);
  assert.match(res.body.head.revision_id, /^[0-9a-f-]{36}$/);
  assert.match(res.body.head.fingerprint, /^[0-9a-f]{64}$/);
  assert.equal(
    res.body.document.agents.map((a: { id: string }) => a.id),
    ['escalation-bot', 'support-bot'],
  );
  const unknown = await http.get(statePath('00000000-0000-4000-8000-000000000000'));
  assert.is(unknown.status, 404);
  assert.is(unknown.body.detail.reason_code, 'project_not_found');
  const bad = await http.get(statePath('nope'));
  assert.is(bad.status, 422);
  assert.equal(bad.body.detail[0].loc, ['path', 'project_id']);
});

test('apply commits a new head at generation + 1 and answers the changes from the previous head', async () => {
  const { http } = await freshMock();
  const before = (await http.get(statePath(SUPPORT))).body;
  const res = await http.post(applyPath(SUPPORT)).send({ base_revision_id: before.head.revision_id, mutation: GRANT_REFUND });
  assert.is(res.status, 200);
  assert.is(res.body.committed, true);
  assert.equal(res.body.previous_head, before.head);
  assert.is(res.body.head.generation, before.head.generation + 1);
  assert.is.not(res.body.head.revision_id, before.head.revision_id);
  assert.equal(
    res.body.changes.map((c: { subject_id: string; authority_effect: string }) => [c.subject_id, c.authority_effect]),
    [['agent:support-bot/capability:refund-issue', 'expanded']],
  );
  assert.ok(res.body.document.agents.find((a: { id: string }) => a.id === 'support-bot').capabilities.includes('refund-issue'));
  const after = (await http.get(statePath(SUPPORT))).body;
  assert.equal(after.head, res.body.head);
  assert.equal(after.document, res.body.document);
});

test('apply with a stale base is 409 and changes nothing', async () => {
  const { mock, http } = await freshMock();
  const before = (await http.get(statePath(SUPPORT))).body;
  await http.post(applyPath(SUPPORT)).send({ mutation: GRANT_REFUND }).expect(200);
  const snapshot = stateOf(mock);
  const res = await http
    .post(applyPath(SUPPORT))
    .send({ base_revision_id: before.head.revision_id, mutation: { type: 'agent.delete', agent_id: 'support-bot' } });
  assert.is(res.status, 409);
  assert.is(res.body.detail.reason_code, 'stale_base_revision');
  assert.is(stateOf(mock), snapshot);
});

test('apply refuses both or neither source (422), bad shapes (422) and unknown references (409), writing nothing', async () => {
  const { mock, http } = await freshMock();
  const snapshot = stateOf(mock);
  const neither = await http.post(applyPath(SUPPORT)).send({});
  assert.is(neither.status, 422);
  assert.equal(neither.body.detail[0].loc, ['body']);
  const both = await http.post(applyPath(SUPPORT)).send({ mutation: GRANT_REFUND, bundle: { manifest: '{}' } });
  assert.is(both.status, 422);
  assert.equal(both.body.detail[0].loc, ['body']);
  const shape = await http.post(applyPath(SUPPORT)).send({ mutation: { type: 'agent.model.set', agent_id: 'support-bot' } });
  assert.is(shape.status, 422);
  assert.equal(shape.body.detail[0].loc, ['body', 'mutation', 'model']);
  const unknown = await http.post(applyPath(SUPPORT)).send({ mutation: { ...GRANT_REFUND, agent_id: 'ghost' } });
  assert.is(unknown.status, 409);
  assert.is(unknown.body.detail.reason_code, 'unknown_reference');
  assert.is(stateOf(mock), snapshot);
});

test('an apply that changes nothing commits no revision', async () => {
  const { mock, http } = await freshMock();
  const before = (await http.get(statePath(SUPPORT))).body;
  const snapshot = stateOf(mock);
  // support-bot already holds kb-read.
  const res = await http.post(applyPath(SUPPORT)).send({ mutation: { type: 'agent.capability.grant', agent_id: 'support-bot', capability_id: 'kb-read' } });
  assert.is(res.status, 200);
  assert.is(res.body.committed, false);
  assert.equal(res.body.head, before.head);
  assert.equal(res.body.changes, []);
  assert.is(stateOf(mock), snapshot);
});

test('compile puts a new release first in endpoint 10 with desired_state_head = head, and moves the target', async () => {
  const { http } = await freshMock();
  const applied = (await http.post(applyPath(SUPPORT)).send({ mutation: GRANT_REFUND })).body;
  const res = await http.post(releasesPath(SUPPORT)).send({ target: 'candidate' });
  assert.is(res.status, 200);
  assert.is(res.body.project_id, SUPPORT);
  assert.is(res.body.generation, 5);
  assert.is(res.body.created_at, DEMO.now);
  assert.equal(res.body.desired_state_head, applied.head);
  assert.equal(res.body.targets, ['candidate']);
  assert.is(res.body.document.schema_version, 'svc.project-release/v3');
  assert.is(res.body.document.compiler_version, '3.0.0');
  const plan = res.body.document.execution_plans.find((p: { agent_id: string }) => p.agent_id === 'support-bot');
  assert.ok(plan.capabilities.some((c: { id: string }) => c.id === 'refund-issue'));

  const list = await http.get(`/api/v3/projects/${SUPPORT}/releases`).set(bearer(DEMO.tokens.viewer));
  assert.is(list.status, 200);
  assert.equal(list.body.items[0], res.body);
  const old = list.body.items.find((r: { id: string }) => r.id === DEMO.releases.gen4Candidate);
  assert.equal(old.targets, []);
  const live = list.body.items.find((r: { id: string }) => r.id === DEMO.releases.gen3Live);
  assert.equal(live.targets, ['live']);

  const diff = await http.get(`/api/v3/projects/${SUPPORT}/releases/${res.body.id}/diff`).set(bearer(DEMO.tokens.viewer));
  assert.is(diff.body.baseline_release_id, DEMO.releases.gen4Candidate);
  assert.ok(
    diff.body.changes.some(
      (c: { subject_id: string; authority_effect: string }) =>
        c.subject_id === 'agent:support-bot/capability:refund-issue' && c.authority_effect === 'expanded',
    ),
  );
});

test('compile without a body creates a release and moves no target; a bad target is 422', async () => {
  const { mock, http } = await freshMock();
  const res = await http.post(releasesPath(SUPPORT));
  assert.is(res.status, 200);
  assert.equal(res.body.targets, []);
  assert.is(mock.store.get('targets', `${SUPPORT}:candidate`)!.release_id, DEMO.releases.gen4Candidate);
  const bad = await http.post(releasesPath(SUPPORT)).send({ target: 'production' });
  assert.is(bad.status, 422);
  assert.equal(bad.body.detail[0].loc, ['body', 'target']);
});

test('releases never change after creation: later applies and compiles leave them byte-identical', async () => {
  const { mock, http } = await freshMock();
  const first = (await http.post(releasesPath(SUPPORT)).send({ target: 'live' })).body;
  const releasesBefore = JSON.stringify(mock.control.exportState().releases);
  await http
    .post(applyPath(SUPPORT))
    .send({ mutation: { type: 'agent.delete', agent_id: 'escalation-bot' } })
    .expect(200);
  const second = (await http.post(releasesPath(SUPPORT)).send({ target: 'live' })).body;
  assert.is(second.generation, first.generation + 1);
  const releasesAfter = mock.control.exportState().releases;
  assert.is(JSON.stringify(releasesAfter.filter((r) => r.id !== second.id)), releasesBefore);
  const list = await http.get(`/api/v3/projects/${SUPPORT}/releases`).set(bearer(DEMO.tokens.viewer));
  const again = list.body.items.find((r: { id: string }) => r.id === first.id);
  assert.equal({ ...again, targets: [] }, { ...first, targets: [] });
  assert.equal(again.targets, []);
  assert.equal(list.body.items[0].targets, ['live']);
});

test('an archived project is 409 project_archived for apply and compile, but its desired state stays readable', async () => {
  const { mock, http } = await freshMock();
  const snapshot = stateOf(mock);
  const read = await http.get(statePath(DEMO.projects.legacy));
  assert.is(read.status, 200);
  const apply = await http.post(applyPath(DEMO.projects.legacy)).send({ mutation: { type: 'skill.upsert', skill_id: 'x', display_name: 'X' } });
  assert.is(apply.status, 409);
  assert.is(apply.body.detail.reason_code, 'project_archived');
  const compile = await http.post(releasesPath(DEMO.projects.legacy)).send({});
  assert.is(compile.status, 409);
  assert.is(compile.body.detail.reason_code, 'project_archived');
  const unknown = await http.post(releasesPath('00000000-0000-4000-8000-000000000000')).send({});
  assert.is(unknown.status, 404);
  assert.is(unknown.body.detail.reason_code, 'project_not_found');
  assert.is(stateOf(mock), snapshot);
});

test('an apply and a compile are each one transaction (one change set)', async () => {
  const adapter = new CountingAdapter();
  const { mock } = await freshMock({ storage: adapter });
  const before = adapter.sets;
  await mock.control.applyDesiredState(SUPPORT, { mutation: GRANT_REFUND });
  assert.is(adapter.sets - before, 1);
  assert.is(adapter.written('revisions').length, 1);
  await mock.control.compileRelease(SUPPORT, { target: 'candidate' });
  assert.is(adapter.sets - before, 2);
  assert.is(adapter.written('releases').length, 1);
});

test('the in-process methods do what the routes do, with the same errors', async () => {
  const { mock, http } = await freshMock();
  const state = mock.control.getDesiredState(SUPPORT);
  assert.equal(state, (await http.get(statePath(SUPPORT))).body);
  const applied = await mock.control.applyDesiredState(SUPPORT, { base_revision_id: state.head.revision_id, mutation: GRANT_REFUND });
  assert.is(applied.head.generation, state.head.generation + 1);
  assert.equal(mock.control.getDesiredState(SUPPORT).head, applied.head);
  const release = await mock.control.compileRelease(SUPPORT, { target: 'live' });
  assert.equal(release.desired_state_head, applied.head);
  assert.equal(release.targets, ['live']);

  const stale = await rejects(mock.control.applyDesiredState(SUPPORT, { base_revision_id: state.head.revision_id, mutation: GRANT_REFUND }));
  assert.instance(stale, ApiError);
  assert.is((stale as ApiError).reason_code, 'stale_base_revision');
  const invalid = await rejects(mock.control.applyDesiredState(SUPPORT, { mutation: { type: 'agent.model.set' } as never }));
  assert.instance(invalid, ValidationError);
  assert.equal((invalid as ValidationError).items[0].loc[0], 'body');
  const badTarget = await rejects(mock.control.compileRelease(SUPPORT, { target: 'prod' as never }));
  assert.instance(badTarget, ValidationError);
  const archived = await rejects(mock.control.compileRelease(DEMO.projects.legacy));
  assert.is((archived as ApiError).reason_code, 'project_archived');
  const missing = (() => {
    try {
      mock.control.getDesiredState('00000000-0000-4000-8000-000000000000');
    } catch (err) {
      return err;
    }
  })();
  assert.is((missing as ApiError).reason_code, 'project_not_found');
});

test('the control routes are absent when control is off', async () => {
  const { http } = await freshMock({ control: false });
  const res = await http.get(statePath(SUPPORT));
  assert.is(res.status, 404);
});

test.run();
