// The client report: each rule provoked by the behaviour it names, and not by the nearest legitimate behaviour.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AssertionError } from 'node:assert';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { JsonFileAdapter } from '../../src/storage/adapters.js';
import { freshMock } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { TestDisk, tmpDataFile } from '../helpers/disk.js';

const P = DEMO.projects.support;
const OWNER = DEMO.principals.owner;
const RULE_NAMES = [
  'refresh_token_reused',
  'code_reused',
  'retry_after_ignored',
  'expired_token_resent',
  'retried_final_error',
  'hot_polling',
  'unbounded_concurrency',
  'content_type_not_json',
  'bearer_prefix_missing',
];

async function call(mock: MockApp, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await mock.fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}
const exchange = (mock: MockApp, body: Record<string, string>) => call(mock, 'POST', '/api/v3/auth/token', undefined, body);
const getRun = (mock: MockApp, token: string = DEMO.tokens.owner) => call(mock, 'GET', `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`, token);
const lastId = (mock: MockApp) => mock.control.requests({ limit: 1, summary: true })[0].id;
const findings = (mock: MockApp, rule: string) => mock.control.clientReport().findings.filter((f) => f.rule === rule);
const demo = () => createApp({ storage: 'memory', fixtures: demoFixture() });

/** A second authorization code for the owner, with its verifier. */
async function mintCode(mock: MockApp, verifier: string): Promise<string> {
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return (await mock.control.mintAuthorizationCode({ principal_id: OWNER, code_challenge: challenge })).code;
}
const VERIFIER_2 = 'second-verifier-0123456789-abcdefghijklmnopqrstuvwxyz';

test('client report: the rules in one table, each with a description; a fresh mock has no finding', async () => {
  const { http } = await freshMock();
  const res = await http.get('/_mock/client-report');
  assert.is(res.status, 200);
  assert.equal(res.body.findings, []);
  assert.equal(
    res.body.rules.map((r: { rule: string }) => r.rule),
    RULE_NAMES,
  );
  assert.equal(
    res.body.rules.map((r: { severity: string }) => r.severity),
    ['error', 'error', 'error', 'warning', 'warning', 'warning', 'warning', 'warning', 'warning'],
  );
  for (const r of res.body.rules) assert.ok(r.description.length > 60 && r.checked === 0, r.rule);
  assert.equal(res.body.journal, { entries: 0, left: 0 });
});

test('refresh_token_reused: a rotated refresh token presented again is an error naming both requests; using each new one is clean', async () => {
  const mock = await demo();
  const first = await exchange(mock, { grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier });
  const r1 = first.body.refresh_token as string;
  const second = await exchange(mock, { grant_type: 'refresh_token', refresh_token: r1 });
  assert.is(second.status, 200);
  const rotated = lastId(mock);
  // Legitimate: the new refresh token, then the next one.
  const third = await exchange(mock, { grant_type: 'refresh_token', refresh_token: second.body.refresh_token as string });
  await exchange(mock, { grant_type: 'refresh_token', refresh_token: third.body.refresh_token as string });
  assert.equal(findings(mock, 'refresh_token_reused'), []);
  assert.is(mock.control.clientReport().rules.find((r) => r.rule === 'refresh_token_reused')!.checked, 3);
  await exchange(mock, { grant_type: 'refresh_token', refresh_token: r1 });
  const [f, ...more] = findings(mock, 'refresh_token_reused');
  assert.equal(more, []);
  assert.equal([f.severity, f.principal, f.entries], ['error', OWNER, [rotated, lastId(mock)]]);
  assert.not.match(JSON.stringify(mock.control.clientReport()), r1);
});

test('code_reused: a code presented twice is an error; two codes each once are clean', async () => {
  const mock = await demo();
  await exchange(mock, { grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier });
  const firstId = lastId(mock);
  const code2 = await mintCode(mock, VERIFIER_2);
  assert.is((await exchange(mock, { grant_type: 'authorization_code', code: code2, code_verifier: VERIFIER_2 })).status, 200);
  assert.equal(findings(mock, 'code_reused'), []);
  const again = await exchange(mock, { grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier });
  assert.is(again.status, 400);
  const [f] = findings(mock, 'code_reused');
  assert.equal([f.severity, f.principal, f.entries], ['error', OWNER, [firstId, lastId(mock)]]);
});

test('expired_token_resent: a token sent again after 401 token_expired is a warning; refreshing instead is clean', async () => {
  const mock = await demo();
  const refused = await getRun(mock, DEMO.tokens.expired);
  assert.equal([refused.status, (refused.body.detail as { reason_code: string }).reason_code], [401, 'token_expired']);
  const refusedId = lastId(mock);
  await getRun(mock, DEMO.tokens.owner);
  await getRun(mock, DEMO.tokens.owner);
  assert.equal(findings(mock, 'expired_token_resent'), []);
  await getRun(mock, DEMO.tokens.expired);
  const [f] = findings(mock, 'expired_token_resent');
  assert.equal([f.severity, f.principal, f.entries], ['warning', OWNER, [refusedId, lastId(mock)]]);
});

test('retried_final_error: the same write again within 60 s after 409 run_not_cancellable is a warning; after 60 s, or another body, it is not', async () => {
  const mock = await demo();
  const cancel = (body: unknown = {}) => call(mock, 'POST', `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}/cancel`, DEMO.tokens.operator, body);
  assert.is((await cancel()).status, 409);
  await mock.control.advanceClock(60_001);
  await cancel();
  await cancel({ reason: 'other' });
  assert.equal(findings(mock, 'retried_final_error'), []);
  const refusedId = lastId(mock);
  await mock.control.advanceClock(60_000);
  await cancel({ reason: 'other' });
  const [f] = findings(mock, 'retried_final_error');
  assert.equal([f.severity, f.principal, f.entries], ['warning', DEMO.principals.operator, [refusedId, lastId(mock)]]);
  assert.match(f.message, 'run_not_cancellable');
});

test('retried_final_error: a repeat after a 503 (which a retry can fix) or a repeated read is not a finding', async () => {
  const mock = await demo();
  mock.control.addFault({ method: 'POST', path: '/api/v3/projects/*/runs/*/cancel', status: 503, times: 1 });
  const cancel = () => call(mock, 'POST', `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`, DEMO.tokens.operator, {});
  assert.is((await cancel()).status, 503);
  assert.is((await cancel()).status, 200);
  await call(mock, 'GET', `/api/v3/projects/${P}/runs/00000000-0000-4000-8000-000000000000`, DEMO.tokens.owner);
  await call(mock, 'GET', `/api/v3/projects/${P}/runs/00000000-0000-4000-8000-000000000000`, DEMO.tokens.owner);
  assert.equal(findings(mock, 'retried_final_error'), []);
});

test('hot_polling: six unchanged reads within a second of mock time are a warning; five, or six over more than a second, are not', async () => {
  const mock = await demo();
  for (let i = 0; i < 6; i++) {
    await getRun(mock);
    await mock.control.advanceClock(200);
  }
  for (let i = 0; i < 5; i++) await call(mock, 'GET', `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`, DEMO.tokens.owner);
  assert.equal(findings(mock, 'hot_polling'), []);
  const first = lastId(mock) + 1;
  for (let i = 0; i < 6; i++) await getRun(mock, DEMO.tokens.viewer);
  const [f] = findings(mock, 'hot_polling');
  assert.equal([f.severity, f.principal, f.entries], ['warning', DEMO.principals.viewer, [first, first + 1, first + 2, first + 3, first + 4, first + 5]]);
});

test('hot_polling: reads whose answer changes each time are not a finding', async () => {
  const mock = await demo();
  for (let i = 0; i < 8; i++) {
    await call(mock, 'PUT', `/api/v3/projects/${P}/budget`, DEMO.tokens.owner, { user_daily_usd: i + 1 });
    await call(mock, 'GET', `/api/v3/projects/${P}/budget`, DEMO.tokens.owner);
  }
  assert.equal(findings(mock, 'hot_polling'), []);
});

test('unbounded_concurrency: 33 requests of one principal in flight at once are a warning; 32 are not', async () => {
  const mock = await demo();
  // Each request waits in the fault layer, so all of a batch are in flight together.
  mock.control.addFault({ method: 'GET', path: '/api/v3/projects/*/runs/*', delay_ms: 30 });
  await Promise.all(Array.from({ length: 32 }, () => getRun(mock)));
  assert.equal(findings(mock, 'unbounded_concurrency'), []);
  await Promise.all(Array.from({ length: 33 }, () => getRun(mock, DEMO.tokens.operator)));
  const [f, ...more] = findings(mock, 'unbounded_concurrency');
  assert.equal(more, []);
  assert.equal([f.severity, f.principal, f.entries.length], ['warning', DEMO.principals.operator, 1]);
  assert.match(f.message, '33 requests were in flight at once');
});

test('retry_after_ignored: the same operation before a 503 Retry-After passed (mock clock) is an error; after it, or another operation, is not', async () => {
  const disk = new TestDisk();
  const mock = await createApp({
    storage: new JsonFileAdapter(tmpDataFile('prm-judge-'), { fs: disk, report: {} }),
    fixtures: demoFixture(),
    onError: () => {},
  });
  const setBudget = (n: number) => call(mock, 'PUT', `/api/v3/projects/${P}/budget`, DEMO.tokens.owner, { user_daily_usd: n });
  disk.fail = 'write';
  assert.is((await setBudget(1)).status, 503);
  disk.fail = null;
  await getRun(mock);
  await mock.control.advanceClock(1000);
  assert.is((await setBudget(2)).status, 200);
  assert.equal(findings(mock, 'retry_after_ignored'), []);
  disk.fail = 'write';
  assert.is((await setBudget(3)).status, 503);
  const refusedId = lastId(mock);
  disk.fail = null;
  await mock.control.advanceClock(999);
  await setBudget(4);
  const [f] = findings(mock, 'retry_after_ignored');
  assert.equal([f.severity, f.principal, f.entries], ['error', OWNER, [refusedId, lastId(mock)]]);
  await mock.close();
});

test('assertCleanClient: throws an AssertionError listing the errors; warnings alone pass', async () => {
  const mock = await demo();
  await getRun(mock, DEMO.tokens.expired);
  await getRun(mock, DEMO.tokens.expired);
  assert.is(mock.control.assertCleanClient().findings.length, 1, 'a warning passes');
  await exchange(mock, { grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier });
  await exchange(mock, { grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier });
  try {
    mock.control.assertCleanClient();
    assert.unreachable('an error finding fails');
  } catch (err) {
    assert.instance(err, AssertionError);
    assert.match((err as Error).message, /code_reused \(e0aa8a15-a6c9-481a-839d-7ec4ece39df4, requests 3, 4\)/);
    assert.not.match((err as Error).message, 'expired_token_resent');
  }
});

test('client report: the demo simulation running a day with chat traffic gives no finding', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 9, simulation: { mode: 'auto' } });
  await mock.control.setSimulation({ traffic: [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 30 }] });
  await mock.control.runSimulation({ until: '2026-11-21T12:00:00.000Z' });
  assert.ok(mock.store.count('runs') > (demoFixture() as { runs: unknown[] }).runs.length);
  assert.equal(mock.control.clientReport().findings, []);
});

test('docs/debugging.md documents every rule with its severity and why it matters (the same table the report reads)', async () => {
  const page = readFileSync(fileURLToPath(new URL('../../docs/debugging.md', import.meta.url)), 'utf8');
  const rows = [...page.matchAll(/^\| `(\w+)` \| (error|warning) \| (.+) \|$/gm)].map((m) => [m[1], m[2], m[3]]);
  const { rules } = (await demo()).control.clientReport();
  assert.equal(
    rows,
    rules.map((r) => [r.rule, r.severity, r.description]),
  );
});

test.run();
