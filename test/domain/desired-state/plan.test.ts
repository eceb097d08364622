// Endpoint 9: a write-free plan of a mutation or bundle against the project's desired-state head.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import request from 'supertest';
import * as v from 'valibot';
import { createApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { JsonFileAdapter } from '../../../src/storage/adapters.js';
import { PlanResponseSchema } from '../../../src/schemas/desired-state.js';
import { freshMock, stateOf } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';

const SUPPORT = DEMO.projects.support;
const planPath = (projectId: string) => `/api/v3/projects/${projectId}/desired-state/plan`;
const GRANT_REFUND = { type: 'agent.capability.grant', agent_id: 'support-bot', capability_id: 'refund-issue' } as const;

async function headOf(http: Awaited<ReturnType<typeof freshMock>>['http'], projectId: string = SUPPORT) {
  const res = await http.get(`/_mock/projects/${projectId}/desired-state`);
  assert.is(res.status, 200);
  return res.body as { head: { revision_id: string; generation: number; fingerprint: string }; document: Record<string, unknown> };
}

test('a plan of a capability grant answers the head, the proposed fingerprint and one expanded change', async () => {
  const { mock, http } = await freshMock();
  const { head } = await headOf(http);
  const res = await http.post(planPath(SUPPORT)).set(bearer(DEMO.tokens.operator)).send({ base_revision_id: head.revision_id, mutation: GRANT_REFUND });
  assert.is(res.status, 200);
  assert.ok(v.is(PlanResponseSchema, res.body), 'the body matches the plan response schema');
  assert.is(res.body.api_version, 'svc.desired-state-plan/v3');
  assert.equal(res.body.head, head);
  assert.is.not(res.body.proposed_fingerprint, head.fingerprint);
  assert.equal(res.body.changes, [
    {
      action: 'created',
      authority_effect: 'expanded',
      category: 'capability',
      display_name: "Capability 'Issue refund' granted to agent 'Support Bot'",
      reason_code: 'capability_granted',
      subject_id: 'agent:support-bot/capability:refund-issue',
    },
  ]);
  // The plan predicts exactly what an apply then commits.
  const applied = await mock.control.applyDesiredState(SUPPORT, { base_revision_id: head.revision_id, mutation: GRANT_REFUND });
  assert.is(applied.head.fingerprint, res.body.proposed_fingerprint);
  assert.equal(applied.changes, res.body.changes);
});

test('a plan of a bundle holding the head document with one edge more gives the same answer as the mutation', async () => {
  const { http } = await freshMock();
  const { head, document } = await headOf(http);
  const doc = structuredClone(document) as { agents: { id: string; capabilities: string[]; soul: string }[] };
  doc.agents.find((a) => a.id === 'support-bot')!.capabilities.push('refund-issue');
  const soul = doc.agents.find((a) => a.id === 'support-bot')!.soul;
  // The soul comes from an asset: the manifest names it with soul_asset.
  const manifest = {
    ...doc,
    agents: doc.agents.map((a) => (a.id === 'support-bot' ? { ...a, soul: undefined, soul_asset: 'souls/support-bot.md' } : a)),
  };
  const bundle = {
    manifest: JSON.stringify(manifest),
    assets: [
      { path: 'souls/support-bot.md', content: soul, content_type: 'text/markdown', kind: 'soul', sha256: createHash('sha256').update(soul).digest('hex') },
    ],
  };
  const viaBundle = await http.post(planPath(SUPPORT)).set(bearer(DEMO.tokens.operator)).send({ base_revision_id: head.revision_id, bundle });
  const viaMutation = await http.post(planPath(SUPPORT)).set(bearer(DEMO.tokens.operator)).send({ base_revision_id: head.revision_id, mutation: GRANT_REFUND });
  assert.is(viaBundle.status, 200, JSON.stringify(viaBundle.body));
  assert.equal(viaBundle.body, viaMutation.body);
});

test('a bundle asset whose sha256 does not match its content is 422 at that asset', async () => {
  const { http } = await freshMock();
  const { head } = await headOf(http);
  const bundle = { manifest: 'agents: []\n', assets: [{ path: 'a.md', content: 'x', sha256: '0'.repeat(64) }] };
  const res = await http.post(planPath(SUPPORT)).set(bearer(DEMO.tokens.operator)).send({ base_revision_id: head.revision_id, bundle });
  assert.is(res.status, 422);
  assert.equal(res.body.detail[0].loc, ['body', 'bundle', 'assets', 0, 'sha256']);
});

test('a base revision that is not the head is 409 stale_base_revision', async () => {
  const { mock, http } = await freshMock();
  const { head } = await headOf(http);
  await mock.control.applyDesiredState(SUPPORT, { mutation: { type: 'skill.upsert', skill_id: 'refunds', display_name: 'Refunds' } });
  const res = await http.post(planPath(SUPPORT)).set(bearer(DEMO.tokens.operator)).send({ base_revision_id: head.revision_id, mutation: GRANT_REFUND });
  assert.is(res.status, 409);
  assert.is(res.body.detail.reason_code, 'stale_base_revision');
});

test('both sources or neither is 422', async () => {
  const { http } = await freshMock();
  const { head } = await headOf(http);
  for (const extra of [{}, { mutation: GRANT_REFUND, bundle: { manifest: '{}' } }]) {
    const res = await http
      .post(planPath(SUPPORT))
      .set(bearer(DEMO.tokens.operator))
      .send({ base_revision_id: head.revision_id, ...extra });
    assert.is(res.status, 422);
    assert.equal(res.body.detail[0].loc, ['body']);
  }
});

test('a mutation of the wrong shape is 422 located at the bad field', async () => {
  const { http } = await freshMock();
  const { head } = await headOf(http);
  const missing = await http
    .post(planPath(SUPPORT))
    .set(bearer(DEMO.tokens.operator))
    .send({ base_revision_id: head.revision_id, mutation: { type: 'agent.capability.grant', agent_id: 'support-bot' } });
  assert.is(missing.status, 422);
  assert.equal(
    missing.body.detail.map((i: { loc: unknown }) => i.loc),
    [['body', 'mutation', 'capability_id']],
  );
  assert.is(missing.body.detail[0].type, 'missing');
  const badEnum = await http
    .post(planPath(SUPPORT))
    .set(bearer(DEMO.tokens.operator))
    .send({ base_revision_id: head.revision_id, mutation: { type: 'agent.memory.grant', agent_id: 'support-bot', namespace_id: 'faq', access: 'admin' } });
  assert.is(badEnum.status, 422);
  assert.equal(badEnum.body.detail[0].loc, ['body', 'mutation', 'access']);
  const badType = await http
    .post(planPath(SUPPORT))
    .set(bearer(DEMO.tokens.operator))
    .send({ base_revision_id: head.revision_id, mutation: { type: 'agent.teleport' } });
  assert.is(badType.status, 422);
  // A discriminated union reports at its own loc (pydantic's union_tag_invalid), the tag in ctx.
  assert.equal(badType.body.detail[0].loc, ['body', 'mutation']);
  assert.is(badType.body.detail[0].type, 'union_tag_invalid');
  assert.is(badType.body.detail[0].ctx.tag, 'agent.teleport');
  const badBase = await http.post(planPath(SUPPORT)).set(bearer(DEMO.tokens.operator)).send({ base_revision_id: 'nope', mutation: GRANT_REFUND });
  assert.is(badBase.status, 422);
  assert.equal(badBase.body.detail[0].loc, ['body', 'base_revision_id']);
});

test('a reference to something that does not exist is 409 unknown_reference', async () => {
  const { http } = await freshMock();
  const { head } = await headOf(http);
  const res = await http
    .post(planPath(SUPPORT))
    .set(bearer(DEMO.tokens.operator))
    .send({ base_revision_id: head.revision_id, mutation: { ...GRANT_REFUND, capability_id: 'launch-missiles' } });
  assert.is(res.status, 409);
  assert.is(res.body.detail.reason_code, 'unknown_reference');
});

test('a viewer is 403, another workspace 404, no credentials 401', async () => {
  const { http } = await freshMock();
  const { head } = await headOf(http);
  const body = { base_revision_id: head.revision_id, mutation: GRANT_REFUND };
  const viewer = await http.post(planPath(SUPPORT)).set(bearer(DEMO.tokens.viewer)).send(body);
  assert.is(viewer.status, 403);
  assert.is(viewer.body.detail.reason_code, 'insufficient_authority');
  const globex = await http.post(planPath(SUPPORT)).set(bearer(DEMO.tokens.globex)).send(body);
  assert.is(globex.status, 404);
  assert.is(globex.body.detail.reason_code, 'project_not_found');
  const anonymous = await http.post(planPath(SUPPORT)).send(body);
  assert.is(anonymous.status, 401);
  // The admin key is no credential on endpoint 9.
  const admin = await http.post(planPath(SUPPORT)).set('X-Admin-Key', DEMO.adminKey).send(body);
  assert.is(admin.status, 401);
  assert.is(admin.body.detail.reason_code, 'authentication_required');
  const owner = await http.post(planPath(SUPPORT)).set(bearer(DEMO.tokens.owner)).send(body);
  assert.is(owner.status, 200);
});

test('a plan on an archived project is allowed: it writes nothing', async () => {
  const { mock, http } = await freshMock();
  const { head } = await headOf(http, DEMO.projects.legacy);
  const before = stateOf(mock);
  const res = await http
    .post(planPath(DEMO.projects.legacy))
    .set(bearer(DEMO.tokens.owner))
    .send({ base_revision_id: head.revision_id, mutation: { type: 'skill.upsert', skill_id: 'farewell', display_name: 'Farewell' } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.changes[0].subject_id, 'skill:farewell');
  assert.is(stateOf(mock), before);
});

test('a plan changes no stored record, successful or refused', async () => {
  const { mock, http } = await freshMock();
  const { head } = await headOf(http);
  const before = stateOf(mock);
  const bodies = [
    { base_revision_id: head.revision_id, mutation: GRANT_REFUND },
    { base_revision_id: head.revision_id, mutation: { type: 'agent.delete', agent_id: 'support-bot' } },
    { base_revision_id: head.revision_id, mutation: { ...GRANT_REFUND, capability_id: 'nope' } },
    { base_revision_id: '00000000-0000-4000-8000-000000000000', mutation: GRANT_REFUND },
  ];
  for (const body of bodies) await http.post(planPath(SUPPORT)).set(bearer(DEMO.tokens.operator)).send(body);
  assert.is(stateOf(mock), before);
  assert.is((await headOf(http)).head.generation, head.generation);
});

test('a plan leaves the JSON data file byte-identical', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prm-plan-'));
  const file = join(dir, 'db.json');
  try {
    const mock = await createApp({ storage: new JsonFileAdapter(file), fixtures: demoFixture() });
    await mock.close();
    const bytesBefore = readFileSync(file);
    const http = request(mock.callback());
    const { body } = await http.get(`/_mock/projects/${SUPPORT}/desired-state`);
    const plan = await http.post(planPath(SUPPORT)).set(bearer(DEMO.tokens.operator)).send({ base_revision_id: body.head.revision_id, mutation: GRANT_REFUND });
    assert.is(plan.status, 200);
    assert.is(plan.body.api_version, 'svc.desired-state-plan/v3');
    assert.is(plan.body.changes.length, 1);
    const stale = await http
      .post(planPath(SUPPORT))
      .set(bearer(DEMO.tokens.operator))
      .send({ base_revision_id: '00000000-0000-4000-8000-000000000000', mutation: GRANT_REFUND });
    assert.is(stale.status, 409);
    assert.is(stale.body.detail.reason_code, 'stale_base_revision');
    await mock.close();
    assert.ok(readFileSync(file).equals(bytesBefore), 'the data file is unchanged');
    // Sanity: a real write does change the file, so the comparison above can fail.
    await mock.control.applyDesiredState(SUPPORT, { mutation: GRANT_REFUND });
    await mock.close();
    assert.not.ok(readFileSync(file).equals(bytesBefore));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
