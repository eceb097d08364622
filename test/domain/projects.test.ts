// Delete = archive (endpoint 12) and transfer (endpoint 13): confirmation, archived read-only, emptiness, workspaces, authority.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { AS, refusals, assertError, assertInvalidAt } from '../helpers/ops.js';
import { demoFixture } from '../../src/fixtures.js';

const P = DEMO.projects.support;
const SANDBOX = DEMO.projects.sandbox;
const projectPath = (project: string = P) => `/api/v3/projects/${project}`;
const transferPath = (project: string = SANDBOX) => `/api/v3/projects/${project}/transfer`;
const NO_SUCH = '00000000-0000-4000-8000-000000000000';

// ---- delete (archive) ----

test('archive: confirmation equal to the slug -> 200 archived project, nothing removed', async () => {
  const { mock, http } = await freshMock();
  const runsBefore = mock.store.count('runs');
  const res = await http.delete(projectPath()).set(AS.owner).send({ confirmation: 'support-desk' });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body, {
    id: P,
    name: 'Support Desk',
    slug: 'support-desk',
    status: 'archived',
    workspace_id: DEMO.workspaces.acmeSupport,
    created_at: '2026-08-14T09:30:00.000Z',
    updated_at: DEMO.now,
  });
  assert.is(mock.store.count('runs'), runsBefore);
});

test('archive: an archived project stays readable and refuses every write with 409 project_archived', async () => {
  const { mock, http } = await freshMock();
  assert.is((await http.delete(projectPath()).set(AS.owner).send({ confirmation: 'support-desk' })).status, 200);
  assert.is((await http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`).set(AS.viewer)).status, 200);
  assert.is((await http.get(`/api/v3/projects/${P}/users`).set(AS.viewer)).status, 200);
  assert.is((await http.get(`/api/v3/projects/${P}/approvals`).set(AS.viewer)).status, 200);
  const before = stateOf(mock);
  const writes = [
    http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`).set(AS.operator).send({}),
    http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`).set(AS.operator).send({}),
    http.put(`/api/v3/projects/${P}/budget`).set(AS.operator).send({}),
    http.post(`/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}/deny`).set(AS.operator).send({}),
    http.post(transferPath(P)).set(AS.owner).send({ workspace_id: DEMO.workspaces.acmeLabs }),
    http.delete(`/api/v3/projects/${P}/users/7eeec0cc-4c09-4d7b-bb90-476a4c5f5f61`).set(AS.owner).send({ confirmation: 'delete-application-user' }),
  ];
  for (const res of await Promise.all(writes)) assertError(res, 409, 'project_archived');
  assert.is(stateOf(mock), before);
});

test('archive: deleting an archived project again answers 200 with it and writes nothing', async () => {
  const { mock, http } = await freshMock();
  const first = await http.delete(projectPath()).set(AS.owner).send({ confirmation: 'support-desk' });
  const before = stateOf(mock);
  await mock.control.advanceClock(60_000);
  const again = await http.delete(projectPath()).set(AS.owner).send({ confirmation: 'support-desk' });
  assert.is(again.status, 200);
  assert.equal(again.body, first.body);
  const legacy = await http.delete(projectPath(DEMO.projects.legacy)).set(AS.owner).send({ confirmation: 'legacy-bot' });
  assert.is(legacy.status, 200);
  assert.is(legacy.body.status, 'archived');
  assert.is(legacy.body.updated_at, '2026-09-30T17:00:00.000Z');
  await mock.control.advanceClock(-60_000);
  assert.is(stateOf(mock), before);
});

test('archive: a confirmation other than the slug -> 409 confirmation_mismatch, even when already archived', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  for (const confirmation of ['Support Desk', 'support-desk ', '', P]) {
    assertError(await http.delete(projectPath()).set(AS.owner).send({ confirmation }), 409, 'confirmation_mismatch');
  }
  assertError(await http.delete(projectPath(DEMO.projects.legacy)).set(AS.owner).send({ confirmation: 'support-desk' }), 409, 'confirmation_mismatch');
  assert.is(stateOf(mock), before);
});

test('archive: missing body or confirmation -> 422, nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertInvalidAt(await http.delete(projectPath()).set(AS.owner), ['body']);
  assertInvalidAt(await http.delete(projectPath()).set(AS.owner).send({}), ['body', 'confirmation']);
  assertInvalidAt(await http.delete(projectPath()).set(AS.owner).send({ confirmation: 1 }), ['body', 'confirmation']);
  assertInvalidAt(await http.delete(projectPath('nope')).set(AS.owner).send({ confirmation: 'x' }), ['path', 'project_id']);
  assertError(await http.delete(projectPath(NO_SUCH)).set(AS.owner).send({ confirmation: 'x' }), 404, 'project_not_found');
  assert.is(stateOf(mock), before);
});

test('archive: authority per actor (operator/viewer/read-only 403, other workspace 404, admin key 401), nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  for (const [actor, status, reason] of refusals('owner', false)) {
    assertError(await http.delete(projectPath()).set(AS[actor]).send({ confirmation: 'support-desk' }), status, reason);
  }
  assert.is(stateOf(mock), before);
});

// ---- transfer ----

test('transfer: an empty project moves to a workspace where the actor is owner', async () => {
  const { http } = await freshMock();
  const res = await http.post(transferPath()).set(AS.owner).send({ workspace_id: DEMO.workspaces.acmeLabs });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.id, SANDBOX);
  assert.is(res.body.workspace_id, DEMO.workspaces.acmeLabs);
  assert.is(res.body.updated_at, DEMO.now);
  // Members of the old workspace only no longer see it; the owner of both still does.
  assertError(await http.get(`/api/v3/projects/${SANDBOX}/users`).set(AS.viewer), 404, 'project_not_found');
  assert.is((await http.get(`/api/v3/projects/${SANDBOX}/users`).set(AS.owner)).status, 200);
});

test('transfer: an admin key is owner everywhere', async () => {
  const { http } = await freshMock();
  const res = await http.post(transferPath()).set(AS.admin).send({ workspace_id: DEMO.workspaces.globex });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.workspace_id, DEMO.workspaces.globex);
  assert.is((await http.get(`/api/v3/projects/${SANDBOX}/users`).set(AS.globex)).status, 200);
});

test('transfer: to the workspace it is already in -> 200, nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const res = await http.post(transferPath()).set(AS.owner).send({ workspace_id: DEMO.workspaces.acmeSupport });
  assert.is(res.status, 200);
  assert.is(res.body.workspace_id, DEMO.workspaces.acmeSupport);
  assert.is(stateOf(mock), before);
});

test('transfer: the demo support project holds history -> 409 project_not_empty, nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(await http.post(transferPath(P)).set(AS.owner).send({ workspace_id: DEMO.workspaces.acmeLabs }), 409, 'project_not_empty');
  assert.is(stateOf(mock), before);
});

for (const collection of ['releases', 'runs', 'users', 'jobs', 'approvals'] as const) {
  test(`transfer: one of ${collection} makes a project non-empty -> 409 project_not_empty`, async () => {
    const { mock, http } = await freshMock();
    mock.store.apply((tx) => {
      const donor = tx.filter(collection, (r) => r.project_id === P)[0];
      const copy = { ...donor, project_id: SANDBOX, id: '11111111-1111-4111-8111-111111111111' } as never;
      tx.put(collection, copy);
    });
    const before = stateOf(mock);
    assertError(await http.post(transferPath()).set(AS.owner).send({ workspace_id: DEMO.workspaces.acmeLabs }), 409, 'project_not_empty');
    assert.is(stateOf(mock), before);
  });
}

test('transfer: unknown target workspace -> 404 workspace_not_found, nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(await http.post(transferPath()).set(AS.owner).send({ workspace_id: NO_SUCH }), 404, 'workspace_not_found');
  assertError(await http.post(transferPath()).set(AS.admin).send({ workspace_id: NO_SUCH }), 404, 'workspace_not_found');
  assert.is(stateOf(mock), before);
});

test('transfer: owner of the source but not of the target -> 403 insufficient_authority, nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(await http.post(transferPath()).set(AS.owner).send({ workspace_id: DEMO.workspaces.globex }), 403, 'insufficient_authority');
  assert.is(stateOf(mock), before);
});

test('transfer: authority in the source per actor, bad bodies and archived projects are refused unchanged', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const body = { workspace_id: DEMO.workspaces.acmeLabs };
  for (const [actor, status, reason] of refusals('owner', true)) {
    assertError(await http.post(transferPath()).set(AS[actor]).send(body), status, reason);
  }
  assertInvalidAt(await http.post(transferPath()).set(AS.owner), ['body']);
  assertInvalidAt(await http.post(transferPath()).set(AS.owner).send({}), ['body', 'workspace_id']);
  assertInvalidAt(await http.post(transferPath()).set(AS.owner).send({ workspace_id: 'acme' }), ['body', 'workspace_id']);
  assertError(await http.post(transferPath(DEMO.projects.legacy)).set(AS.owner).send(body), 409, 'project_archived');
  assertError(await http.post(transferPath(NO_SUCH)).set(AS.admin).send(body), 404, 'project_not_found');
  assert.is(stateOf(mock), before);
});

test('transfer: an owner who is only viewer or operator in the target workspace -> 403, nothing changes; owner there -> 200', async () => {
  for (const role of ['viewer', 'operator', 'owner'] as const) {
    const fixture = structuredClone(demoFixture()) as { principals: { id: string; memberships: { workspace_id: string; role: string }[] }[] };
    const olivia = fixture.principals.find((p) => p.id === DEMO.principals.owner)!;
    olivia.memberships = olivia.memberships.map((m) => (m.workspace_id === DEMO.workspaces.acmeLabs ? { ...m, role } : m));
    const { mock, http } = await freshMock({ fixtures: fixture });
    const before = stateOf(mock);
    const res = await http.post(transferPath()).set(AS.owner).send({ workspace_id: DEMO.workspaces.acmeLabs });
    if (role === 'owner') {
      assert.is(res.status, 200, JSON.stringify(res.body));
      assert.is(res.body.workspace_id, DEMO.workspaces.acmeLabs);
    } else {
      assertError(res, 403, 'insufficient_authority');
      assert.is(stateOf(mock), before, role);
    }
  }
});

test('transfer: an app user stored as deleted does not make a project non-empty', async () => {
  const fixture = structuredClone(demoFixture()) as { users: Record<string, unknown>[] };
  fixture.users.push({
    id: '0c1d2e3f-4a5b-4c6d-8e7f-8a9b0c1d2e3f',
    project_id: SANDBOX,
    created_at: '2026-10-01T00:00:00.000Z',
    preferred_channel: 'web',
    status: 'deleted',
    display_name: null,
    external_provider: null,
    external_user_id: null,
    last_active_at: null,
  });
  const { http } = await freshMock({ fixtures: fixture });
  const res = await http.post(transferPath()).set(AS.owner).send({ workspace_id: DEMO.workspaces.acmeLabs });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.workspace_id, DEMO.workspaces.acmeLabs);
});

test.run();
