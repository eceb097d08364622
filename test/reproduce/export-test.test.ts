// Replayable tests: GET /_mock/requests/export writes a node:test or vitest file that passes when run, and fails naming the request whose answer changed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { signBrokerPayload } from '../../src/client-helpers.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { mixedRequests, type MixedRequest } from '../helpers/mixed-traffic.js';
import { SEAL_KEY, failing, replayDir, stepsOf } from '../helpers/replay-run.js';

const P = DEMO.projects.support;
const ADMIN_KEY = 'admin-key-under-test-7f3a91';
const BROKER_SECRET = 'broker-secret-under-test-c41d';

const dir = replayDir();
const isSealed = (v: unknown) => typeof v === 'object' && v !== null && typeof (v as { $sealed?: unknown }).$sealed === 'string';
test.after(() => dir.remove());

async function send(mock: MockApp, r: MixedRequest): Promise<{ status: number; text: string }> {
  const init: RequestInit = { method: r.method, headers: { ...r.headers, ...(r.body !== undefined ? { 'Content-Type': 'application/json' } : {}) } };
  if (r.body !== undefined) init.body = JSON.stringify(r.body);
  const res = await mock.fetch(r.path, init);
  return { status: res.status, text: await res.text() };
}

/** Every secret the session below sends or is sent. */
const secrets: string[] = [ADMIN_KEY, BROKER_SECRET, DEMO.tokens.owner, DEMO.tokens.operator, DEMO.authorizationCode, DEMO.pkceVerifier, DEMO.chatSecret];

/** A seeded demo session of reads, writes, auth (a code exchange, refreshes, an admin key, a signed webhook), refusals, a fault and clock moves. */
async function session(options: Parameters<typeof createApp>[0] = {}): Promise<MockApp> {
  const mock = await createApp({
    storage: 'memory',
    fixtures: demoFixture(),
    seed: 'export-1',
    sealKey: SEAL_KEY,
    adminKey: ADMIN_KEY,
    brokerSecret: BROKER_SECRET,
    ...options,
  });
  mock.control.addFault({ method: 'GET', path: `/api/v3/projects/${P}/jobs`, status: 503, body: { detail: 'injected' }, times: 2 });
  mock.control.startSession();
  const token = await mock.fetch('/api/v3/auth/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier }),
  });
  const minted = (await token.json()) as { access_token: string; refresh_token: string };
  secrets.push(minted.access_token, minted.refresh_token);
  await mock.fetch(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`, { headers: bearer(minted.access_token) });
  await mock.fetch(`/api/v3/projects/${P}/connections/crm`, { headers: { 'X-Admin-Key': ADMIN_KEY } });
  const event = JSON.stringify({
    event_id: 'evt-1',
    event_type: 'connection.refreshed',
    connection_resource_id: 'a6a48f50-71c5-4c54-a80a-0b8eaf0d93e0',
    occurred_at: '2026-11-20T12:00:00Z',
  });
  const signed = signBrokerPayload(event, BROKER_SECRET);
  secrets.push(signed.signature);
  await mock.fetch('/api/v3/webhooks/broker', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Broker-Hmac-Sha256': signed.signature },
    body: event,
  });
  for (const r of mixedRequests(40, minted.refresh_token)) await send(mock, r);
  return mock;
}

let mock: MockApp;
let nodeFile: string;
test.before(async () => {
  mock = await session();
  nodeFile = await mock.control.exportTest({ format: 'node-test' });
});

test('export: the node:test file replays the session and passes, one test per request', () => {
  const first = mock.control.requests()[0].id;
  const last = mock.control.journal.next - 1;
  assert.ok(nodeFile.startsWith(`// Replays requests ${first}..${last} (every request asserted)`), nodeFile.slice(0, 120));
  assert.ok(nodeFile.includes("from 'node:test'") && nodeFile.includes("from 'project-runtime-mock'"));
  const run = dir.run('session.test.mjs', nodeFile, 'node-test');
  assert.is(run.code, 0, run.out.slice(-3000));
  assert.match(run.out, new RegExp(`# pass ${last - first + 1}\\n`));
  assert.match(run.out, /# fail 0\n/);
});

test('export: the session mixes reads, writes, auth, refusals, the fault and clock moves', () => {
  const entries = mock.control.requests();
  const statuses = new Set(entries.map((e) => e.status));
  for (const s of [200, 201, 400, 401, 404, 409, 503]) assert.ok(statuses.has(s), `status ${s} in the session`);
  const ops = new Set(entries.map((e) => e.operation));
  for (const op of ['exchangeToken', 'getConnection', 'brokerWebhook', 'chatWebhook', 'cancelRun', 'retryRun', 'setBudget']) assert.ok(ops.has(op), op);
  assert.ok(new Set(entries.map((e) => e.at)).size > 3, 'the clock moved between requests');
});

test('export: no secret in the file, and every credential sent is sealed', () => {
  for (const s of secrets) assert.not.ok(nodeFile.includes(s), `a secret (${s.slice(0, 6)}…) is in the exported file`);
  const steps = stepsOf(nodeFile);
  const exchange = steps.find((s) => s.name.includes('exchangeToken'))!;
  assert.ok(isSealed(exchange.body), 'a token exchange body is sealed');
  assert.equal(exchange.shows, { grant_type: 'authorization_code', code: '[redacted]', code_verifier: '[redacted]' });
  const admin = steps.find((s) => s.name.includes('getConnection'))!;
  assert.ok(isSealed(admin.headers['x-admin-key']));
  const broker = steps.find((s) => s.name.includes('brokerWebhook'))!;
  assert.ok(isSealed(broker.headers['x-broker-hmac-sha256']));
  assert.type(broker.body, 'string', 'a signed body stays as sent (its signature is over these bytes)');
  // The bundle inside seals the fixture's tokens and codes too (GET /_mock/bundle leaves them as GET /_mock/state does).
  assert.not.ok(nodeFile.includes(`"token":"${DEMO.tokens.owner}"`));
  assert.equal(mock.control.unseal(admin.headers['x-admin-key']), ADMIN_KEY, 'the mock that sealed it opens it');
});

test('export: the vitest file replays the session and passes', () => {
  const text = nodeFile.replace(
    "import { after, before, describe, test } from 'node:test';",
    "import { afterAll as after, beforeAll as before, describe, test } from 'vitest';",
  );
  return mock.control.exportTest({ format: 'vitest' }).then((vitestFile) => {
    assert.is(vitestFile, text, 'the formats differ only in the import');
    const run = dir.run('session-vitest.test.mjs', vitestFile, 'vitest');
    assert.is(run.code, 0, run.out.slice(-3000));
    assert.match(run.out, /Tests\s+\S*\s*\d+ passed/);
  });
});

test('export: a behaviour the export cannot know about (a fault on one operation) fails naming exactly those requests', () => {
  const changed = nodeFile.replace(
    '    for (const step of STEPS) if (!step.assert) await replay(step);',
    "    mock.control.addFault({ match: { operation: 'listReleases' }, status: 500 });\n    for (const step of STEPS) if (!step.assert) await replay(step);",
  );
  assert.is.not(changed, nodeFile);
  const run = dir.run('changed.test.mjs', changed, 'node-test');
  assert.is(run.code, 1);
  const expected = stepsOf(nodeFile)
    .filter((s) => s.name.includes('(listReleases)'))
    .map((s) => `request ${s.id}: ${s.name} answered ${s.status}`);
  assert.ok(expected.length > 0);
  assert.equal(failing(run.out), expected);
  assert.match(run.out, /\(listReleases\)\): status\s+500 !== 200/);
});

test('export: an edited recorded body fails naming that request and its body', () => {
  const step = stepsOf(nodeFile).find((s) => s.name.includes('(getRun)') && s.status === 200)!;
  const line = `  ${JSON.stringify(step)},`;
  const edited = { ...step, response: { ...(step.response as object), status: 'edited' } };
  const run = dir.run('edited.test.mjs', nodeFile.replace(line, `  ${JSON.stringify(edited)},`), 'node-test');
  assert.is(run.code, 1);
  assert.equal(failing(run.out), [`request ${step.id}: ${step.name} answered 200`]);
  assert.match(run.out, new RegExp(`request ${step.id} \\(GET [^)]*\\(getRun\\)\\): body`));
});

test.run();
