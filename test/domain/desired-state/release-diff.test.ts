// Endpoint 3: the semantic diff of a release against an explicit baseline or the preceding release.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { ReleaseDiffResponseSchema, type Mutation } from '../../../src/schemas/desired-state.js';
import { freshMock, stateOf } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';

const SUPPORT = DEMO.projects.support;
const R = DEMO.releases;
const diffPath = (releaseId: string, baseline?: string, projectId: string = SUPPORT) =>
  `/api/v3/projects/${projectId}/releases/${releaseId}/diff${baseline ? `?baseline_release_id=${baseline}` : ''}`;
const viewer = bearer(DEMO.tokens.viewer);

test('without a baseline a release is diffed against the preceding release', async () => {
  const { http } = await freshMock();
  const res = await http.get(diffPath(R.gen4Candidate)).set(viewer);
  assert.is(res.status, 200);
  assert.ok(v.is(ReleaseDiffResponseSchema, res.body), 'the body matches the release diff schema');
  assert.is(res.body.release_id, R.gen4Candidate);
  assert.is(res.body.baseline_release_id, R.gen3Live);
  assert.match(res.body.semantic_diff_fingerprint, /^[0-9a-f]{64}$/);
  assert.equal(
    res.body.changes.map((c: { subject_id: string; action: string; authority_effect: string }) => [c.subject_id, c.action, c.authority_effect]),
    [
      ['agent:escalation-bot/capability:refund-issue', 'removed', 'reduced'],
      ['agent:support-bot/memory:customer-notes', 'modified', 'reduced'],
    ],
  );
  // Explicitly naming the preceding release gives the same answer.
  const explicit = await http.get(diffPath(R.gen4Candidate, R.gen3Live)).set(viewer);
  assert.equal(explicit.body, res.body);
});

test('an explicit baseline may be any release of the project, newer ones included', async () => {
  const { http } = await freshMock();
  const forward = await http.get(diffPath(R.gen4Candidate, R.gen1)).set(viewer);
  assert.is(forward.status, 200);
  assert.is(forward.body.baseline_release_id, R.gen1);
  assert.ok(forward.body.changes.length > 0);
  // Backwards: every action mirrors, created <-> removed.
  const backward = await http.get(diffPath(R.gen1, R.gen4Candidate)).set(viewer);
  assert.is(backward.status, 200);
  const mirror = { created: 'removed', removed: 'created', modified: 'modified' } as Record<string, string>;
  const key = (c: { subject_id: string }) => c.subject_id;
  assert.equal(backward.body.changes.map(key).sort(), forward.body.changes.map(key).sort());
  for (const c of forward.body.changes) {
    const back = backward.body.changes.find((b: { subject_id: string }) => b.subject_id === c.subject_id);
    assert.is(back.action, mirror[c.action], c.subject_id);
  }
  const self = await http.get(diffPath(R.gen3Live, R.gen3Live)).set(viewer);
  assert.equal(self.body.changes, []);
});

test('the first release has a null baseline and every entity created', async () => {
  const { http } = await freshMock();
  const res = await http.get(diffPath(R.gen1)).set(viewer);
  assert.is(res.status, 200);
  assert.is(res.body.baseline_release_id, null);
  assert.ok(res.body.changes.length > 0);
  for (const c of res.body.changes) assert.is(c.action, 'created', c.subject_id);
  assert.ok(res.body.changes.some((c: { subject_id: string }) => c.subject_id === 'agent:support-bot'));
});

test("another project's release as baseline is 404 release_not_found", async () => {
  const { http } = await freshMock();
  const res = await http.get(diffPath(R.gen4Candidate, R.sales)).set(bearer(DEMO.tokens.owner));
  assert.is(res.status, 404);
  assert.is(res.body.detail.reason_code, 'release_not_found');
  // ... and so is the release itself when asked through the wrong project.
  const wrongProject = await http.get(diffPath(R.sales, undefined, SUPPORT)).set(bearer(DEMO.tokens.owner));
  assert.is(wrongProject.status, 404);
  assert.is(wrongProject.body.detail.reason_code, 'release_not_found');
});

test('an unknown release is 404 and a malformed id 422', async () => {
  const { http } = await freshMock();
  const unknown = await http.get(diffPath('00000000-0000-4000-8000-000000000000')).set(viewer);
  assert.is(unknown.status, 404);
  assert.is(unknown.body.detail.reason_code, 'release_not_found');
  const unknownBaseline = await http.get(diffPath(R.gen4Candidate, '00000000-0000-4000-8000-000000000000')).set(viewer);
  assert.is(unknownBaseline.status, 404);
  assert.is(unknownBaseline.body.detail.reason_code, 'release_not_found');
  const badPath = await http.get(diffPath('not-a-uuid')).set(viewer);
  assert.is(badPath.status, 422);
  assert.equal(badPath.body.detail[0].loc, ['path', 'release_id']);
  const badQuery = await http.get(diffPath(R.gen4Candidate, 'not-a-uuid')).set(viewer);
  assert.is(badQuery.status, 422);
  assert.equal(badQuery.body.detail[0].loc, ['query', 'baseline_release_id']);
});

test('the fingerprint is stable across calls and does not depend on the order of edits', async () => {
  const { http } = await freshMock();
  const first = await http.get(diffPath(R.gen4Candidate)).set(viewer);
  const again = await http.get(diffPath(R.gen4Candidate)).set(viewer);
  assert.is(again.body.semantic_diff_fingerprint, first.body.semantic_diff_fingerprint);

  const edits: Mutation[] = [
    { type: 'agent.capability.grant', agent_id: 'support-bot', capability_id: 'refund-issue' },
    { type: 'memory_namespace.upsert', namespace_id: 'refund-log', display_name: 'Refund log' },
    { type: 'agent.memory.grant', agent_id: 'escalation-bot', namespace_id: 'customer-notes', access: 'write' },
    { type: 'agent.model.set', agent_id: 'escalation-bot', model: 'large-1' },
  ];
  async function releaseAfter(order: Mutation[]) {
    const { mock, http: h } = await freshMock({ seed: 'diff-order' });
    for (const m of order) await mock.control.applyDesiredState(SUPPORT, { mutation: m });
    const release = await mock.control.compileRelease(SUPPORT);
    const res = await h.get(diffPath(release.id)).set(viewer);
    assert.is(res.status, 200);
    assert.is(res.body.baseline_release_id, R.gen4Candidate);
    return res.body;
  }
  const forward = await releaseAfter(edits);
  const backward = await releaseAfter([...edits].reverse());
  assert.is(forward.semantic_diff_fingerprint, backward.semantic_diff_fingerprint);
  assert.equal(forward.changes, backward.changes);
  assert.is(forward.changes.length, 4);
});

test('authority: viewer and admin key may read, another workspace is 404, a wrong admin key 401', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assert.is((await http.get(diffPath(R.gen4Candidate)).set(viewer)).status, 200);
  const admin = await http.get(diffPath(R.gen4Candidate)).set('X-Admin-Key', DEMO.adminKey);
  assert.is(admin.status, 200);
  const wrongKey = await http.get(diffPath(R.gen4Candidate)).set('X-Admin-Key', 'not-the-key');
  assert.is(wrongKey.status, 401);
  assert.is(wrongKey.body.detail.reason_code, 'admin_key_invalid');
  const globex = await http.get(diffPath(R.gen4Candidate)).set(bearer(DEMO.tokens.globex));
  assert.is(globex.status, 404);
  assert.is(globex.body.detail.reason_code, 'project_not_found');
  const anonymous = await http.get(diffPath(R.gen4Candidate));
  assert.is(anonymous.status, 401);
  assert.is(anonymous.body.detail.reason_code, 'authentication_required');
  assert.is(stateOf(mock), before);
});

test('a release whose revision is missing from imported state is diffed from its own document', async () => {
  const { mock, http } = await freshMock();
  const expected = (await http.get(diffPath(R.gen4Candidate)).set(viewer)).body;
  const data = mock.control.exportState();
  await mock.control.importState({ ...data, revisions: [] });
  const res = await http.get(diffPath(R.gen4Candidate)).set(viewer);
  assert.is(res.status, 200);
  // The edges survive compilation, so the authority changes are the same.
  assert.equal(res.body.changes, expected.changes);
});

test.run();
