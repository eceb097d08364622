// What shadow mode sends at the edges of its rules: only paths under /api/v3, writes only with `writes` and only to the disposable project (itself included), the client's Accept, and the shadow token for every request when auth is off.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO, bearer } from '../helpers/demo.js';
import { SHADOW_TOKEN, shadowingMock, targetMock } from '../helpers/shadow.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const owner = bearer(DEMO.tokens.owner);
const NONE = { method: 0, fault: 0, not_comparable: 0 };

test('a path that only starts like /api/v3 is not under it: not sent, not counted', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target);
  for (const path of ['/api/v3x/projects', '/api/v30', `/api/v3.1${RUN.slice('/api/v3'.length)}`]) {
    assert.is((await mock.fetch(path, { headers: owner })).status, 404, path);
  }
  await mock.fetch(RUN, { headers: owner });
  const report = await mock.control.drift({ settled: true });
  assert.equal(
    target.sent.map((s) => `${s.method} ${s.path}`),
    [`GET ${RUN}`],
  );
  assert.equal([report.compared, report.skipped, report.dropped], [1, NONE, { queue_full: 0, rate_limited: 0, target_down: 0 }]);
});

test('a disposable project without `writes` sends no write, even to that project', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target, { disposableProject: DEMO.projects.sandbox });
  const budget = { funding_mode: 'invoiced', user_daily_usd: 4, project_monthly_usd: 900 };
  await mock.fetch(`/api/v3/projects/${DEMO.projects.sandbox}/budget`, {
    method: 'PUT',
    headers: { ...owner, 'Content-Type': 'application/json' },
    body: JSON.stringify(budget),
  });
  await mock.fetch(`/api/v3/projects/${DEMO.projects.sandbox}`, { method: 'DELETE', headers: owner });
  const report = await mock.control.drift({ settled: true });
  assert.equal(target.sent, []);
  assert.equal([report.compared, report.skipped, report.target!.writes], [0, { ...NONE, method: 2 }, false]);
});

test('with writes: a write to the disposable project itself is sent; one to another project is not', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target, { writes: true, disposableProject: DEMO.projects.sandbox });
  // No body: nothing left unread, so the answers (both 422) are compared.
  const mine = await mock.fetch(`/api/v3/projects/${DEMO.projects.sandbox}`, { method: 'DELETE', headers: owner });
  const other = await mock.fetch(`/api/v3/projects/${DEMO.projects.support}`, { method: 'DELETE', headers: owner });
  // A body the mock never read (405 answers before reading it): not comparable, not sent.
  const unread = await mock.fetch(`/api/v3/projects/${DEMO.projects.sandbox}`, {
    method: 'PATCH',
    headers: { ...owner, 'Content-Type': 'application/json' },
    body: '{}',
  });
  assert.equal([mine.status, other.status, unread.status], [422, 422, 405]);
  const report = await mock.control.drift({ settled: true });
  assert.equal(
    target.sent.map((s) => [s.method, s.path, s.body]),
    [['DELETE', `/api/v3/projects/${DEMO.projects.sandbox}`, '']],
  );
  assert.equal([report.compared, report.same, report.drifted, report.skipped], [1, 1, 0, { ...NONE, method: 1, not_comparable: 1 }]);
});

test('the client Accept header is forwarded as sent; without one the target is asked for application/json', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target);
  await mock.fetch(RUN, { headers: { ...owner, Accept: 'application/json; charset=utf-8' } });
  await mock.fetch(RUN, { headers: owner });
  await mock.control.drift({ settled: true });
  assert.equal(
    target.sent.map((s) => s.headers),
    [
      { accept: 'application/json; charset=utf-8', authorization: `Bearer ${SHADOW_TOKEN}` },
      { accept: 'application/json', authorization: `Bearer ${SHADOW_TOKEN}` },
    ],
  );
});

test('with auth off, a request without credentials still gets the shadow token: the mock answered it as an owner', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target, {}, { auth: 'off' });
  const res = await mock.fetch(RUN);
  assert.is(res.status, 200);
  const report = await mock.control.drift({ settled: true });
  assert.equal(
    target.sent.map((s) => [s.path, s.headers]),
    [[RUN, { accept: 'application/json', authorization: `Bearer ${SHADOW_TOKEN}` }]],
  );
  assert.equal([report.compared, report.same, report.drifted, report.groups], [1, 1, 0, []]);
});

test('a request an injected fault answered is not sent: counted in skipped.fault, the next one compared', async () => {
  const target = await targetMock();
  const { mock } = await shadowingMock(target);
  await mock.control.addFault({ method: 'GET', path: RUN, status: 503, times: 1 });
  assert.is((await mock.fetch(RUN, { headers: owner })).status, 503);
  assert.is((await mock.fetch(RUN, { headers: owner })).status, 200);
  const report = await mock.control.drift({ settled: true });
  assert.equal(
    target.sent.map((s) => s.path),
    [RUN],
  );
  assert.equal([report.compared, report.same, report.skipped], [1, 1, { ...NONE, fault: 1 }]);
});

test.run();
