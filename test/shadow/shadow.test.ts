// Shadow mode against a second mock from the same fixture: what is sent (GET only, writes only to the disposable
// project), with which credentials, and that agreeing answers record no drift.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO, bearer } from '../helpers/demo.js';
import { SHADOW_TOKEN, TARGET_URL, shadowingMock, targetMock } from '../helpers/shadow.js';
import type { MockApp } from '../../src/app.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);

const get = (mock: MockApp, path: string, headers: Record<string, string> = owner) => mock.fetch(path, { headers }).then((r) => r.text());
const send = (mock: MockApp, method: string, path: string, body: unknown, headers: Record<string, string> = owner) =>
  mock.fetch(path, { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.text());

/** A mixed read workload: found and missing records, lists with limits and filters, refusals without or with bad credentials. */
const READS = [
  `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`,
  `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`,
  `/api/v3/projects/${P}/runs/00000000-0000-4000-8000-000000000000`,
  `/api/v3/projects/${P}/jobs?limit=2`,
  `/api/v3/projects/${P}/approvals?status=pending`,
  `/api/v3/projects/${P}/users?limit=3`,
  `/api/v3/projects/${P}/releases`,
  `/api/v3/projects/${P}/releases/${DEMO.releases.gen4Candidate}/diff`,
  `/api/v3/projects/${P}/connections/crm`,
  `/api/v3/projects/${P}/runs/not-a-uuid`,
  `/api/v3/projects/${DEMO.projects.globex}/releases`,
];

test('a second mock from the same fixture: zero drift over a mixed GET workload, every request compared', async () => {
  const target = await targetMock();
  const { mock, lines } = await shadowingMock(target);
  for (let round = 0; round < 3; round++) for (const path of READS) await get(mock, path);
  await get(mock, READS[0], {}); // no credentials: both 401
  const report = await mock.control.drift({ settled: true });
  const expected = READS.length * 3 + 1;
  assert.is(target.sent.length, expected);
  assert.equal(
    { compared: report.compared, same: report.same, drifted: report.drifted, groups: report.groups, unreachable: report.unreachable },
    { compared: expected, same: expected, drifted: 0, groups: [], unreachable: 0 },
  );
  assert.equal(report.dropped, { queue_full: 0, rate_limited: 0, target_down: 0 });
  assert.equal(report.target, { url: `${TARGET_URL}/`, state: 'up', since: report.target!.since, last_error: null, notices: 0, writes: false });
  assert.is(mock.control.requests().filter((e) => e.drift).length, 0);
  assert.equal(lines, []);
  // The target got the same paths and queries, in order.
  assert.equal(
    target.sent.slice(0, READS.length).map((s) => s.path),
    READS,
  );
});

test('only GET is shadowed by default: writes are answered by the mock alone and counted as skipped', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target);
  await send(mock, 'PUT', `/api/v3/projects/${P}/budget`, { funding_mode: 'invoiced', user_daily_usd: 3, project_monthly_usd: 1200 });
  await send(mock, 'POST', `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}/retry`, {});
  await get(mock, `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`);
  const report = await mock.control.drift({ settled: true });
  assert.equal(
    target.sent.map((s) => `${s.method} ${s.path}`),
    [`GET /api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`],
  );
  assert.is(report.skipped.method, 2);
  // The target was not written to: its own journal holds the one read.
  assert.equal(
    target.mock.control.requests().map((e) => `${e.method} ${e.status}`),
    ['GET 200'],
  );
});

test('with writes: only writes under the disposable project go to the target, with their body', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target, { writes: true, disposableProject: DEMO.projects.sandbox });
  const budget = { funding_mode: 'invoiced', user_daily_usd: 4, project_monthly_usd: 900 };
  await send(mock, 'PUT', `/api/v3/projects/${DEMO.projects.sandbox}/budget`, budget);
  await send(mock, 'PUT', `/api/v3/projects/${P}/budget`, budget);
  // A project whose id only starts like the disposable one is another project.
  await send(mock, 'PUT', `/api/v3/projects/${DEMO.projects.sandbox}x/budget`, budget);
  await send(mock, 'POST', '/api/v3/auth/token', { grant_type: 'refresh_token', refresh_token: 'nope-nope' }, {});
  const report = await mock.control.drift({ settled: true });
  assert.equal(
    target.sent.map((s) => `${s.method} ${s.path}`),
    [`PUT /api/v3/projects/${DEMO.projects.sandbox}/budget`],
  );
  assert.equal(JSON.parse(target.sent[0].body!), budget);
  assert.is(target.sent[0].headers['content-type'], 'application/json');
  assert.is(report.skipped.method, 3);
  assert.is(report.target!.writes, true);
  assert.is(report.compared, 1);
});

test('writes without a disposable project are refused at createApp, naming the rule', async () => {
  const target = await targetMock();
  try {
    await shadowingMock(target, { writes: true });
    assert.unreachable('createApp accepted shadow writes without a disposable project');
  } catch (err) {
    assert.instance(err, TypeError);
    assert.match((err as Error).message, /shadow writes need a disposable project/);
  }
});

test('the target gets the shadow token in place of the client credentials, and nothing of the client else', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target);
  await get(mock, `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`, { ...owner, 'X-Admin-Key': DEMO.adminKey, Cookie: 'session=abc', 'X-Trace': 't1' });
  await get(mock, `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`, {});
  await mock.control.drift({ settled: true });
  assert.is(target.sent[0].authorization, `Bearer ${SHADOW_TOKEN}`);
  assert.equal(Object.keys(target.sent[0].headers).sort(), ['accept', 'authorization']);
  // No credentials from the client: none to the target either (both sides answer 401).
  assert.is(target.sent[1].authorization, null);
});

test('no shadow target: GET /_mock/drift answers a disabled, empty report', async () => {
  const { mock } = await shadowingMock(await targetMock());
  const { createApp } = await import('../../src/app.js');
  const plain = await createApp({ storage: 'memory' });
  const report = plain.control.drift();
  assert.is(report.enabled, false);
  assert.is(report.target, null);
  assert.is(report.compared, 0);
  assert.is(mock.control.drift().enabled, true);
});

test.run();
