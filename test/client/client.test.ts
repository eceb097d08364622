// The typed client (`project-runtime-mock/client`, built into dist/) against the built CLI in another process: the 20
// v3 operations, which credentials go where, the webhooks, and the strict recipe examples/typed-client.ts.
// The control part: client-control-cli.test.ts and client-control-methods.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, createHmac } from 'node:crypto';
import { createClient, reasonCodeOf } from 'project-runtime-mock/client';
import { cliClient } from '../helpers/client.js';
import { DEMO } from '../helpers/demo.js';
import { typedTour } from '../../examples/typed-client.js';

const P = DEMO.projects.support;
const CRM_RESOURCE = 'a6a48f50-71c5-4c54-a80a-0b8eaf0d93e0';
const mock = cliClient(test);

/** The request headers the mock journaled for the last request to `path` (values redacted, presence kept). */
async function sentHeaders(path: string): Promise<Record<string, unknown>> {
  const entries = await mock.client.control.requests({ path });
  const last = entries.at(-1) as { request?: { headers?: Record<string, unknown> } } | undefined;
  assert.ok(last, `a journal entry for ${path}`);
  return last!.request?.headers ?? {};
}

test('the strict recipe reads free-form fields and the release document from the real answers', async () => {
  const tour = await typedTour(mock.cli.url, DEMO.tokens.owner, DEMO.adminKey);
  assert.equal(tour, {
    jobName: 'Nightly ticket digest',
    errorCode: 'tool_timeout',
    schemaVersion: 'svc.project-release/v3',
    compilerVersion: '3.0.0',
    firstPlanAgent: tour.firstPlanAgent,
    chatLanguage: 'en',
    chatHealth: 'healthy',
    retryOf: DEMO.runs.failedBackground,
    runStatus: 'failed',
  });
  assert.type(tour.firstPlanAgent, 'string');
  // The recipe behaves: the client report finds nothing in what it sent.
  assert.equal((await mock.client.control.clientReport()).findings, []);
});

test('v3 reads: runs, users, releases and their diff, jobs, approvals, connection', async () => {
  const run = await mock.client.getRun(P, DEMO.runs.waitingApproval);
  assert.is(run.response.status, 200);
  assert.is(run.data?.status, 'waiting_approval');
  assert.is((await mock.client.getRun(P, DEMO.runs.waitingApproval, { runtime_mode: 'test' })).response.status, 404);

  const users = await mock.client.listUsers(P, { limit: 2 });
  assert.is(users.data?.items.length, 2);
  assert.type(users.data?.next_cursor, 'string');
  const next = await mock.client.listUsers(P, { limit: 2, cursor: users.data!.next_cursor! });
  assert.not.equal(next.data?.items[0].id, users.data?.items[0].id);
  const user = await mock.client.getUser(P, users.data!.items[0].id);
  assert.is(user.data?.id, users.data!.items[0].id);

  const releases = await mock.client.listReleases(P);
  assert.equal(releases.data?.items.map((r) => r.id).slice(0, 2), [DEMO.releases.gen4Candidate, DEMO.releases.gen3Live]);
  const diff = await mock.client.diffRelease(P, DEMO.releases.gen3Live, { baseline_release_id: DEMO.releases.gen1 });
  assert.is(diff.data?.baseline_release_id, DEMO.releases.gen1);
  assert.match(diff.data!.semantic_diff_fingerprint, /^[0-9a-f]{64}$/);

  assert.ok((await mock.client.listJobs(P, { limit: 1 })).data!.items.length === 1);
  const pending = await mock.client.listApprovals(P, { status: 'pending' });
  assert.ok(pending.data!.items.every((a) => a.status === 'pending'));
  assert.is((await mock.client.getApproval(P, DEMO.approvals.denied)).data?.status, 'denied');
  assert.is((await mock.client.getConnection(P, 'crm')).data?.connection_name, 'crm');
});

test('v3 writes: cancel, retry, budget, plan, deny, delete user, archive, transfer', async () => {
  const cancelled = await mock.client.cancelRun(P, DEMO.runs.waitingApproval, { reason: 'typed' });
  assert.is(cancelled.data?.status, 'cancelled');
  assert.is(cancelled.data?.result?.cancel_reason, 'typed');
  const again = await mock.client.cancelRun(P, DEMO.runs.waitingApproval);
  assert.is(again.response.status, 409);
  assert.is(reasonCodeOf(again.error), 'run_not_cancellable');

  const retry = await mock.client.retryRun(P, DEMO.runs.failedBackground, { metadata: { ticket: 'T-9' } });
  assert.is(retry.response.status, 201);
  assert.is(retry.response.headers.get('location'), `/api/v3/projects/${P}/runs/${retry.data?.id}`);
  assert.is(retry.data?.request_metadata?.ticket, 'T-9');

  const budget = await mock.client.setBudget(P, { project_daily_usd: 5, project_monthly_usd: 50 });
  assert.is(budget.response.status, 200);
  const bad = await mock.client.setBudget(P, { project_daily_usd: 60, project_monthly_usd: 50 });
  assert.is(bad.response.status, 422);
  assert.ok(Array.isArray(bad.error?.detail));

  const head = await mock.client.control.getDesiredState(P);
  const plan = await mock.client.planDesiredState(P, {
    base_revision_id: head.head.revision_id,
    mutation: { type: 'skill.upsert', skill_id: 'typed', display_name: 'Typed' } as never,
  });
  assert.is(plan.data?.api_version, 'svc.desired-state-plan/v3');
  assert.equal(
    plan.data?.changes.map((c) => [c.category, c.action, c.subject_id]),
    [['skill', 'created', 'skill:typed']],
  );

  const deny = await mock.client.denyApproval(P, DEMO.approvals.pendingOther, { reason: 'no' });
  assert.is(deny.data?.approval.status, 'denied');

  const user = (await mock.client.listUsers(P, { limit: 1 })).data!.items[0];
  const deleted = await mock.client.deleteUser(P, user.id, { confirmation: 'delete-application-user' });
  assert.equal(
    { ...deleted.data, deleted_memory_count: 0, deleted_trace_bundle_count: 0 },
    {
      project_id: P,
      user_id: user.id,
      status: 'deleted',
      deleted_memory_count: 0,
      deleted_trace_bundle_count: 0,
    },
  );
  assert.is((await mock.client.getUser(P, user.id)).response.status, 404);

  const moved = await mock.client.transferProject(DEMO.projects.sandbox, { workspace_id: DEMO.workspaces.acmeLabs });
  assert.is(moved.data?.workspace_id, DEMO.workspaces.acmeLabs);
  const archived = await mock.client.deleteProject(DEMO.projects.legacy, { confirmation: 'legacy-bot' });
  assert.is(archived.data?.status, 'archived');
});

test('token exchange with a minted code (PKCE S256), then the new token works', async () => {
  const verifier = 'typed-client-verifier-0123456789-abcdefghijklmnop';
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const minted = await mock.client.control.mintAuthorizationCode({ principal_id: DEMO.principals.viewer, code_challenge: challenge, scopes: ['project:read'] });
  const tokens = await mock.client.exchangeToken({ grant_type: 'authorization_code', code: minted.code, code_verifier: verifier });
  assert.is(tokens.response.status, 200);
  assert.equal(tokens.data?.scopes, ['project:read']);
  assert.not.ok('authorization' in (await sentHeaders('/api/v3/auth/token')), 'no token is sent to the token exchange');
  const viewer = mock.client.with({ token: tokens.data!.access_token });
  assert.is((await viewer.listUsers(P)).response.status, 200);
  const refused = await viewer.cancelRun(P, DEMO.runs.waitingApproval);
  assert.is(refused.response.status, 403);
  assert.is(reasonCodeOf(refused.error), 'insufficient_authority');
  const replay = await mock.client.exchangeToken({ grant_type: 'authorization_code', code: minted.code, code_verifier: verifier });
  assert.is(reasonCodeOf(replay.error), 'invalid_grant');
});

test('credentials go only where the document accepts them', async () => {
  const keyOnly = createClient({ baseUrl: mock.cli.url, adminKey: DEMO.adminKey });
  assert.is((await keyOnly.getConnection(P, 'crm')).response.status, 200);
  assert.is((await keyOnly.getUser(P, '7eeec0cc-4c09-4d7b-bb90-476a4c5f5f61')).response.status, 200);
  assert.equal(await sentHeaders('/api/v3/projects/*/users/*').then((h) => [h['x-admin-key'], h.authorization]), ['[redacted]', undefined]);
  const list = await keyOnly.listUsers(P);
  assert.is(list.response.status, 401);
  assert.is(reasonCodeOf(list.error), 'authentication_required');
  assert.not.ok('x-admin-key' in (await sentHeaders(`/api/v3/projects/${P}/users`)), 'no admin key where it is no credential');
  const wrongKey = createClient({ baseUrl: mock.cli.url, adminKey: 'nope' });
  assert.is(reasonCodeOf((await wrongKey.getUser(P, '7eeec0cc-4c09-4d7b-bb90-476a4c5f5f61')).error), 'admin_key_invalid');
  // A header given for one call wins over the client's credential.
  const other = await mock.client.listUsers(P, undefined, { headers: { Authorization: `Bearer ${DEMO.tokens.expired}` } });
  assert.is(reasonCodeOf(other.error), 'token_expired');
});

test('webhooks: the chat secret and the broker HMAC over the exact bytes sent', async () => {
  const chat = await mock.client.chatWebhook(
    DEMO.connections.chatBinding,
    { update_id: 424242, message: { from: { id: 99, display_name: 'Typed' }, text: 'hi' } },
    DEMO.chatSecret,
  );
  assert.equal({ ...chat.data, run_id: 'x' }, { accepted: true, run_id: 'x', duplicate: false });
  assert.not.ok('authorization' in (await sentHeaders('/api/v3/connections/*/chatapp/webhook')), 'no token to a webhook');
  const wrong = await mock.client.chatWebhook(DEMO.connections.chatBinding, { update_id: 1, message: { from: { id: 1 }, text: 'x' } }, 'wrong');
  assert.is(reasonCodeOf(wrong.error), 'webhook_secret_invalid');

  const event = {
    event_id: 'evt_typed_1',
    event_type: 'connection.refreshed' as const,
    connection_resource_id: CRM_RESOURCE,
    occurred_at: '2026-11-20T11:59:30.000Z',
  };
  const signed = await mock.client.brokerWebhook(event, { secret: DEMO.brokerSecret });
  assert.equal(signed.data, { accepted: true, stored: true });
  // A text body is sent byte for byte, so a signature computed elsewhere over it verifies.
  const text = `{ "event_id": "evt_typed_2", "event_type": "connection.refreshed", "connection_resource_id": "${CRM_RESOURCE}", "occurred_at": "2026-11-20T11:59:31.000Z" }`;
  const signature = createHmac('sha256', DEMO.brokerSecret).update(text).digest('hex');
  assert.equal((await mock.client.brokerWebhook(text, { signature })).data, { accepted: true, stored: true });
  const forged = await mock.client.brokerWebhook({ ...event, event_id: 'evt_typed_3' }, { secret: 'not-the-secret' });
  assert.is(reasonCodeOf(forged.error), 'broker_signature_invalid');
});

test.run();
