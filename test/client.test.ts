// The typed client (`project-runtime-mock/client`, built into dist/) against the built CLI in another process: the 20
// v3 operations, which credentials go where, the whole control surface, and the strict recipe examples/typed-client.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app.js';
import { createClient, ControlError, OPERATIONS, reasonCodeOf, type MockClient } from 'project-runtime-mock/client';
import { startCli, type RunningCli } from './helpers/cli.js';
import { DEMO } from './helpers/demo.js';
import { demoFixture } from '../src/fixtures.js';
import { typedTour } from '../examples/typed-client.js';

const P = DEMO.projects.support;
const CRM_RESOURCE = 'a6a48f50-71c5-4c54-a80a-0b8eaf0d93e0';
let cli: RunningCli;
let client: MockClient;

test.before(async () => {
  cli = await startCli(['--memory', '--port', '0']);
  client = createClient({ baseUrl: cli.url, token: DEMO.tokens.owner });
});
test.after(async () => {
  await cli?.stop();
});
test.before.each(async () => {
  await client.control.reset();
});

/** The request headers the mock journaled for the last request to `path` (values redacted, presence kept). */
async function sentHeaders(path: string): Promise<Record<string, unknown>> {
  const entries = await client.control.requests({ path });
  const last = entries.at(-1) as { request?: { headers?: Record<string, unknown> } } | undefined;
  assert.ok(last, `a journal entry for ${path}`);
  return last!.request?.headers ?? {};
}

test('the strict recipe reads free-form fields and the release document from the real answers', async () => {
  const tour = await typedTour(cli.url, DEMO.tokens.owner, DEMO.adminKey);
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
});

test('v3 reads: runs, users, releases and their diff, jobs, approvals, connection', async () => {
  const run = await client.getRun(P, DEMO.runs.waitingApproval);
  assert.is(run.response.status, 200);
  assert.is(run.data?.status, 'waiting_approval');
  assert.is((await client.getRun(P, DEMO.runs.waitingApproval, { runtime_mode: 'test' })).response.status, 404);

  const users = await client.listUsers(P, { limit: 2 });
  assert.is(users.data?.items.length, 2);
  assert.type(users.data?.next_cursor, 'string');
  const next = await client.listUsers(P, { limit: 2, cursor: users.data!.next_cursor! });
  assert.not.equal(next.data?.items[0].id, users.data?.items[0].id);
  const user = await client.getUser(P, users.data!.items[0].id);
  assert.is(user.data?.id, users.data!.items[0].id);

  const releases = await client.listReleases(P);
  assert.equal(releases.data?.items.map((r) => r.id).slice(0, 2), [DEMO.releases.gen4Candidate, DEMO.releases.gen3Live]);
  const diff = await client.diffRelease(P, DEMO.releases.gen3Live, { baseline_release_id: DEMO.releases.gen1 });
  assert.is(diff.data?.baseline_release_id, DEMO.releases.gen1);
  assert.match(diff.data!.semantic_diff_fingerprint, /^[0-9a-f]{64}$/);

  assert.ok((await client.listJobs(P, { limit: 1 })).data!.items.length === 1);
  const pending = await client.listApprovals(P, { status: 'pending' });
  assert.ok(pending.data!.items.every((a) => a.status === 'pending'));
  assert.is((await client.getApproval(P, DEMO.approvals.denied)).data?.status, 'denied');
  assert.is((await client.getConnection(P, 'crm')).data?.connection_name, 'crm');
});

test('v3 writes: cancel, retry, budget, plan, deny, delete user, archive, transfer', async () => {
  const cancelled = await client.cancelRun(P, DEMO.runs.waitingApproval, { reason: 'typed' });
  assert.is(cancelled.data?.status, 'cancelled');
  assert.is(cancelled.data?.result?.cancel_reason, 'typed');
  const again = await client.cancelRun(P, DEMO.runs.waitingApproval);
  assert.is(again.response.status, 409);
  assert.is(reasonCodeOf(again.error), 'run_not_cancellable');

  const retry = await client.retryRun(P, DEMO.runs.failedBackground, { metadata: { ticket: 'T-9' } });
  assert.is(retry.response.status, 201);
  assert.is(retry.response.headers.get('location'), `/api/v3/projects/${P}/runs/${retry.data?.id}`);
  assert.is(retry.data?.request_metadata?.ticket, 'T-9');

  const budget = await client.setBudget(P, { project_daily_usd: 5, project_monthly_usd: 50 });
  assert.is(budget.response.status, 200);
  const bad = await client.setBudget(P, { project_daily_usd: 60, project_monthly_usd: 50 });
  assert.is(bad.response.status, 422);
  assert.ok(Array.isArray(bad.error?.detail));

  const head = await client.control.getDesiredState(P);
  const plan = await client.planDesiredState(P, {
    base_revision_id: head.head.revision_id,
    mutation: { type: 'skill.upsert', skill_id: 'typed', display_name: 'Typed' } as never,
  });
  assert.is(plan.data?.api_version, 'svc.desired-state-plan/v3');
  assert.equal(plan.data?.changes.map((c) => [c.category, c.action, c.subject_id]), [['skill', 'created', 'skill:typed']]);

  const deny = await client.denyApproval(P, DEMO.approvals.pendingOther, { reason: 'no' });
  assert.is(deny.data?.approval.status, 'denied');

  const user = (await client.listUsers(P, { limit: 1 })).data!.items[0];
  const deleted = await client.deleteUser(P, user.id, { confirmation: 'delete-application-user' });
  assert.equal({ ...deleted.data, deleted_memory_count: 0, deleted_trace_bundle_count: 0 }, {
    project_id: P, user_id: user.id, status: 'deleted', deleted_memory_count: 0, deleted_trace_bundle_count: 0,
  });
  assert.is((await client.getUser(P, user.id)).response.status, 404);

  const moved = await client.transferProject(DEMO.projects.sandbox, { workspace_id: DEMO.workspaces.acmeLabs });
  assert.is(moved.data?.workspace_id, DEMO.workspaces.acmeLabs);
  const archived = await client.deleteProject(DEMO.projects.legacy, { confirmation: 'legacy-bot' });
  assert.is(archived.data?.status, 'archived');
});

test('token exchange with a minted code (PKCE S256), then the new token works', async () => {
  const verifier = 'typed-client-verifier-0123456789-abcdefghijklmnop';
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const minted = await client.control.mintAuthorizationCode({ principal_id: DEMO.principals.viewer, code_challenge: challenge, scopes: ['project:read'] });
  const tokens = await client.exchangeToken({ grant_type: 'authorization_code', code: minted.code, code_verifier: verifier });
  assert.is(tokens.response.status, 200);
  assert.equal(tokens.data?.scopes, ['project:read']);
  assert.not.ok('authorization' in (await sentHeaders('/api/v3/auth/token')), 'no token is sent to the token exchange');
  const viewer = client.with({ token: tokens.data!.access_token });
  assert.is((await viewer.listUsers(P)).response.status, 200);
  const refused = await viewer.cancelRun(P, DEMO.runs.waitingApproval);
  assert.is(refused.response.status, 403);
  assert.is(reasonCodeOf(refused.error), 'insufficient_authority');
  const replay = await client.exchangeToken({ grant_type: 'authorization_code', code: minted.code, code_verifier: verifier });
  assert.is(reasonCodeOf(replay.error), 'invalid_grant');
});

test('credentials go only where the document accepts them', async () => {
  const keyOnly = createClient({ baseUrl: cli.url, adminKey: DEMO.adminKey });
  assert.is((await keyOnly.getConnection(P, 'crm')).response.status, 200);
  assert.is((await keyOnly.getUser(P, '7eeec0cc-4c09-4d7b-bb90-476a4c5f5f61')).response.status, 200);
  assert.equal(await sentHeaders('/api/v3/projects/*/users/*').then((h) => [h['x-admin-key'], h.authorization]), ['[redacted]', undefined]);
  const list = await keyOnly.listUsers(P);
  assert.is(list.response.status, 401);
  assert.is(reasonCodeOf(list.error), 'authentication_required');
  assert.not.ok('x-admin-key' in (await sentHeaders(`/api/v3/projects/${P}/users`)), 'no admin key where it is no credential');
  const wrongKey = createClient({ baseUrl: cli.url, adminKey: 'nope' });
  assert.is(reasonCodeOf((await wrongKey.getUser(P, '7eeec0cc-4c09-4d7b-bb90-476a4c5f5f61')).error), 'admin_key_invalid');
  // A header given for one call wins over the client's credential.
  const other = await client.listUsers(P, undefined, { headers: { Authorization: `Bearer ${DEMO.tokens.expired}` } });
  assert.is(reasonCodeOf(other.error), 'token_expired');
});

test('webhooks: the chat secret and the broker HMAC over the exact bytes sent', async () => {
  const chat = await client.chatWebhook(DEMO.connections.chatBinding, { update_id: 424242, message: { from: { id: 99, display_name: 'Typed' }, text: 'hi' } }, DEMO.chatSecret);
  assert.equal({ ...chat.data, run_id: 'x' }, { accepted: true, run_id: 'x', duplicate: false });
  assert.not.ok('authorization' in (await sentHeaders('/api/v3/connections/*/chatapp/webhook')), 'no token to a webhook');
  const wrong = await client.chatWebhook(DEMO.connections.chatBinding, { update_id: 1, message: { from: { id: 1 }, text: 'x' } }, 'wrong');
  assert.is(reasonCodeOf(wrong.error), 'webhook_secret_invalid');

  const event = { event_id: 'evt_typed_1', event_type: 'connection.refreshed' as const, connection_resource_id: CRM_RESOURCE, occurred_at: '2026-11-20T11:59:30.000Z' };
  const signed = await client.brokerWebhook(event, { secret: DEMO.brokerSecret });
  assert.equal(signed.data, { accepted: true, stored: true });
  // A text body is sent byte for byte, so a signature computed elsewhere over it verifies.
  const text = `{ "event_id": "evt_typed_2", "event_type": "connection.refreshed", "connection_resource_id": "${CRM_RESOURCE}", "occurred_at": "2026-11-20T11:59:31.000Z" }`;
  const signature = createHmac('sha256', DEMO.brokerSecret).update(text).digest('hex');
  assert.equal((await client.brokerWebhook(text, { signature })).data, { accepted: true, stored: true });
  const forged = await client.brokerWebhook({ ...event, event_id: 'evt_typed_3' }, { secret: 'not-the-secret' });
  assert.is(reasonCodeOf(forged.error), 'broker_signature_invalid');
});

test('control: health, clock, faults, journal, coverage', async () => {
  const health = await client.control.health();
  assert.equal(health, { status: 'ok', now: DEMO.now });
  assert.equal(await client.control.setClock('2027-01-01T00:00:00.000Z'), { now: '2027-01-01T00:00:00.000Z', frozen_at: '2027-01-01T00:00:00.000Z', offset_ms: 0 });
  assert.is((await client.control.advanceClock(60_000)).now, '2027-01-01T00:01:00.000Z');
  assert.is((await client.control.clock()).now, '2027-01-01T00:01:00.000Z');

  const fault = await client.control.addFault({ method: 'GET', path: `/api/v3/projects/${P}/jobs`, status: 503, body: { down: true }, times: 1 });
  assert.equal({ ...fault, id: 'f' }, { id: 'f', method: 'GET', path: `/api/v3/projects/${P}/jobs`, status: 503, body: { down: true }, times: 1, remaining: 1, hits: 0 });
  assert.equal((await client.control.faults()).map((f) => f.id), [fault.id]);
  const hit = await client.listJobs(P);
  assert.is(hit.response.status, 503);
  assert.equal(await client.control.faults(), []);
  await client.control.addFault({ method: '*', path: '/api/v3/**', delay_ms: 1 });
  assert.is(await client.control.clearFaults(), 1);

  await client.listUsers(P);
  const journal = await client.control.requests({ method: 'GET', status: '2xx', path: '/api/v3/**' });
  assert.equal(journal.map((e) => [e.method, e.operation, e.status]), [['GET', 'listUsers', 200]]);
  assert.ok((await client.control.clearRequests()) >= 2);
  assert.equal(await client.control.requests(), []);

  const coverage = await client.control.coverage();
  assert.is(coverage.operations.length, 20);
  assert.ok(coverage.summary.never_called.includes('deleteProject'));
});

test('control: state export and import, fixtures, desired state, releases, runs; refusals throw ControlError', async () => {
  const snapshot = await client.control.exportState();
  await client.cancelRun(P, DEMO.runs.waitingApproval);
  const restored = await client.control.importState(snapshot);
  assert.is(restored.restored, true);
  assert.is((await client.getRun(P, DEMO.runs.waitingApproval)).data?.status, 'waiting_approval');

  const loaded = await client.control.loadFixtures({ now: '2026-01-01T00:00:00.000Z', workspaces: [{ id: DEMO.workspaces.acmeSupport, name: 'Only' }] });
  assert.equal({ loaded: loaded.loaded, workspaces: loaded.counts.workspaces, projects: loaded.counts.projects }, { loaded: true, workspaces: 1, projects: 0 });
  let refused: unknown;
  try {
    await client.control.loadFixtures({ runs: [{ id: 'not-a-uuid' }] as never });
  } catch (err) {
    refused = err;
  }
  assert.instance(refused, ControlError);
  assert.is((refused as ControlError).status, 422);
  // The loaded fixture is what reset returns to; loading the demo again brings the rest of this file's world back.
  await client.control.setClock(DEMO.now);
  await client.control.reset();
  assert.is((await client.control.health()).now, '2026-01-01T00:00:00.000Z');
  await client.control.loadFixtures(demoFixture() as never);
  assert.is((await client.control.health()).now, DEMO.now);

  const applied = await client.control.applyDesiredState(P, { mutation: { type: 'skill.upsert', skill_id: 'typed', display_name: 'Typed' } as never });
  assert.is(applied.committed, true);
  assert.is(applied.head.generation, applied.previous_head.generation + 1);
  const release = await client.control.compileRelease(P, { target: 'candidate' });
  assert.equal(release.targets, ['candidate']);
  assert.is(release.document.schema_version, 'svc.project-release/v3');

  const run = await client.control.createRun(P, { status: 'running', request_metadata: { source: 'typed' } });
  assert.equal([run.status, run.surface, run.request_metadata?.source], ['running', 'api', 'typed']);
  const done = await client.control.transitionRun(P, run.id, { to: 'succeeded', result: { output: 'ok' } });
  assert.equal([done.status, done.result?.output], ['succeeded', 'ok']);
  try {
    await client.control.transitionRun(P, run.id, { to: 'running' });
    assert.unreachable('an illegal transition is refused');
  } catch (err) {
    assert.instance(err, ControlError);
    assert.is(((err as ControlError).body as { detail: { reason_code: string } }).detail.reason_code, 'illegal_transition');
  }
});

test('the client has a method for every v3 and control operation of the document', () => {
  const v3 = Object.keys(OPERATIONS).filter((id) => !id.startsWith('control'));
  assert.is(v3.length, 20);
  for (const id of v3) assert.type((client as unknown as Record<string, unknown>)[id], 'function', id);
  // Control methods are named like the in-process MockControl's; each control operation maps to one.
  const byOperation: Record<string, string> = {
    controlHealth: 'health', controlReset: 'reset', controlLoadFixtures: 'loadFixtures', controlGetState: 'exportState', controlPutState: 'importState',
    controlListRequests: 'requests', controlClearRequests: 'clearRequests', controlCoverage: 'coverage', controlGetClock: 'clock', controlSetClock: 'setClock',
    controlListFaults: 'faults', controlAddFault: 'addFault', controlClearFaults: 'clearFaults', controlGetDesiredState: 'getDesiredState',
    controlApplyDesiredState: 'applyDesiredState', controlCompileRelease: 'compileRelease', controlCreateRun: 'createRun', controlTransitionRun: 'transitionRun',
    controlMintCode: 'mintAuthorizationCode',
  };
  const control = Object.keys(OPERATIONS).filter((id) => id.startsWith('control'));
  assert.equal(control.filter((id) => !byOperation[id]), [], 'a control operation without a client method');
  for (const id of control) assert.type((client.control as unknown as Record<string, unknown>)[byOperation[id]], 'function', id);
});

test('in process: the client over mock.fetch, no socket', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const inProcess = createClient({ baseUrl: 'http://localhost', token: DEMO.tokens.owner, fetch: mock.fetch });
  assert.is((await inProcess.getRun(P, DEMO.runs.failedApi)).data?.id, DEMO.runs.failedApi);
  assert.equal(await inProcess.control.health(), { status: 'ok', now: DEMO.now });
  await mock.close();
});

test('docs/client.md lists every v3 and control method of the client', () => {
  const page = readFileSync(fileURLToPath(new URL('../docs/client.md', import.meta.url)), 'utf8');
  const v3 = [...page.matchAll(/^\| \d+ \| `(\w+)` \|/gm)].map((m) => m[1]);
  assert.equal(v3.sort(), Object.keys(OPERATIONS).filter((id) => !id.startsWith('control')).sort());
  const control = [...page.matchAll(/^\| `(\w+)\([^`]*\)` \| `(?:GET|POST|PUT|DELETE) \/_mock/gm)].map((m) => m[1]);
  assert.equal(control.sort(), Object.keys(client.control).sort());
});

test.run();
