// App user deletion (endpoint 20): the user, memories and traces go with counts; runs lose trace content; refusals change nothing; authority.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { AS, refusals, CountingAdapter, assertError, assertInvalidAt } from '../helpers/ops.js';
import { demoFixture } from '../../src/fixtures.js';

const P = DEMO.projects.support;
const DANA = '7eeec0cc-4c09-4d7b-bb90-476a4c5f5f61'; // 5 memories, 3 traces, several runs
const KWAME = 'a3429024-1ca7-47a1-a8ae-188571533ff7'; // no memories, no traces, no runs
const SALES_USER = '1970ca1e-e727-435c-8729-1cb167092a29';
const LEGACY_USER = 'e17fa9a3-4f97-42ca-b01c-2ae448d06a06';
const userPath = (user: string, project: string = P) => `/api/v3/projects/${project}/users/${user}`;
const CONFIRM = { confirmation: 'delete-application-user' };

test('delete user: user, memories and traces go with their counts; the user is 404 and off the list', async () => {
  const { mock, http } = await freshMock();
  const res = await http.delete(userPath(DANA)).set(AS.owner).send(CONFIRM);
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body, { deleted_memory_count: 5, deleted_trace_bundle_count: 3, project_id: P, status: 'deleted', user_id: DANA });
  assertError(await http.get(userPath(DANA)).set(AS.viewer), 404, 'user_not_found');
  const list = await http.get(`/api/v3/projects/${P}/users?limit=200`).set(AS.viewer);
  assert.not.ok(list.body.items.some((u: { id: string }) => u.id === DANA));
  const data = mock.store.toData();
  assert.is(data.memories.filter((m) => m.user_id === DANA).length, 0);
  assert.is(data.traces.filter((t) => t.user_id === DANA).length, 0);
  // Other users keep theirs.
  assert.is(data.memories.filter((m) => m.user_id === '8de86176-8369-482c-8c4f-f3e9bb211423').length, 3);
});

test("delete user: their runs show trace_content_status unavailable and steps content_available false; others' runs do not", async () => {
  const { mock, http } = await freshMock();
  const theirs = Array.from(mock.store.values('runs')).filter((r) => r.user_id === DANA);
  assert.ok(theirs.length > 0);
  assert.is((await http.delete(userPath(DANA)).set(AS.owner).send(CONFIRM)).status, 200);
  for (const run of theirs) {
    const detail = await http.get(`/api/v3/projects/${P}/runs/${run.id}`).set(AS.viewer);
    assert.is(detail.status, 200);
    assert.is(detail.body.trace_content_status, 'unavailable');
    assert.is(detail.body.trace_id, run.trace_id);
    assert.ok(detail.body.steps.every((s: { content_available: boolean }) => s.content_available === false));
  }
  const other = await http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}`).set(AS.viewer);
  assert.is(other.body.trace_content_status, 'available');
  assert.ok(other.body.steps.every((s: { content_available: boolean }) => s.content_available === true));
});

test('delete user: everything happens in one transaction (one change set)', async () => {
  const adapter = new CountingAdapter();
  const { http } = await freshMock({ storage: adapter });
  const before = adapter.sets;
  assert.is((await http.delete(userPath(DANA)).set(AS.owner).send(CONFIRM)).status, 200);
  assert.is(adapter.sets - before, 1);
  const removed = (c: string) => adapter.last!.changes.filter((ch) => ch.collection === c && ch.record === null).length;
  assert.equal([removed('users'), removed('memories'), removed('traces')], [1, 5, 3]);
  assert.ok(adapter.written('runs').length > 0 && adapter.written('runs').every((r) => r.trace_content_status === 'unavailable'));
});

test('delete user: a user with nothing retained -> zero counts; an admin key may delete', async () => {
  const { http } = await freshMock();
  const res = await http.delete(userPath(KWAME)).set(AS.admin).send(CONFIRM);
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body, { deleted_memory_count: 0, deleted_trace_bundle_count: 0, project_id: P, status: 'deleted', user_id: KWAME });
});

test('delete user: a second delete -> 404 user_not_found, nothing changes', async () => {
  const { mock, http } = await freshMock();
  assert.is((await http.delete(userPath(DANA)).set(AS.owner).send(CONFIRM)).status, 200);
  const before = stateOf(mock);
  assertError(await http.delete(userPath(DANA)).set(AS.owner).send(CONFIRM), 404, 'user_not_found');
  assert.is(stateOf(mock), before);
});

test('delete user: a wrong or missing confirmation -> 422, nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  for (const body of [{ confirmation: 'delete' }, { confirmation: 'DELETE-APPLICATION-USER' }, { confirmation: 1 }, {}]) {
    assertInvalidAt(await http.delete(userPath(DANA)).set(AS.owner).send(body), ['body', 'confirmation']);
  }
  assertInvalidAt(await http.delete(userPath(DANA)).set(AS.owner), ['body']);
  assert.is(stateOf(mock), before);
});

test("delete user: unknown user, another project's user and bad ids are refused unchanged", async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(await http.delete(userPath('00000000-0000-4000-8000-000000000000')).set(AS.owner).send(CONFIRM), 404, 'user_not_found');
  assertError(await http.delete(userPath(SALES_USER)).set(AS.owner).send(CONFIRM), 404, 'user_not_found');
  assertInvalidAt(await http.delete(userPath('dana')).set(AS.owner).send(CONFIRM), ['path', 'user_id']);
  assert.is(stateOf(mock), before);
});

test('delete user: authority per actor (operator/viewer/read-only 403, other workspace 404, wrong admin key 401), nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  for (const [actor, status, reason] of refusals('owner', true)) {
    assertError(await http.delete(userPath(DANA)).set(AS[actor]).send(CONFIRM), status, reason);
  }
  assert.is(stateOf(mock), before);
});

test('delete user: a user of an archived project -> 409 project_archived, nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(await http.delete(userPath(LEGACY_USER, DEMO.projects.legacy)).set(AS.owner).send(CONFIRM), 409, 'project_archived');
  assert.is(stateOf(mock), before);
  assert.is((await http.get(userPath(LEGACY_USER, DEMO.projects.legacy)).set(AS.viewer)).status, 200);
});

/** The demo plus an app user stored with status `deleted` (fixtures may hold one), in the sandbox project. */
function fixtureWithDeletedUser(project: string) {
  const fixture = structuredClone(demoFixture()) as { users: Record<string, unknown>[] };
  fixture.users.push({
    id: GONE,
    project_id: project,
    created_at: '2030-01-01T00:00:00.000Z',
    preferred_channel: 'web',
    status: 'deleted',
    display_name: 'Gone',
    external_provider: null,
    external_user_id: null,
    last_active_at: null,
  });
  return fixture;
}
const GONE = '0c1d2e3f-4a5b-4c6d-8e7f-8a9b0c1d2e3f';

test('a user stored as deleted is 404 to read and to delete, and absent from every page', async () => {
  const { mock, http } = await freshMock({ fixtures: fixtureWithDeletedUser(P) });
  assertError(await http.get(userPath(GONE)).set(AS.owner), 404, 'user_not_found');
  assertError(await http.get(userPath(GONE)).set(AS.admin), 404, 'user_not_found');
  const before = stateOf(mock);
  assertError(await http.delete(userPath(GONE)).set(AS.owner).send(CONFIRM), 404, 'user_not_found');
  assert.is(stateOf(mock), before);
  // Newer than every other user: it would be first on the first page.
  const page = await http.get(`/api/v3/projects/${P}/users?limit=200`).set(AS.owner);
  assert.is(page.body.items.length, 34);
  assert.not.ok(page.body.items.some((u: { id: string }) => u.id === GONE));
  const first = await http.get(`/api/v3/projects/${P}/users?limit=1`).set(AS.owner);
  assert.is.not(first.body.items[0].id, GONE);
});

test.run();
