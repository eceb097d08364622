// Shadow mode groups drift by cause: a target that renames one reason code gives one group listing the operations it
// showed in; an optional field the target dropped is a warning group (the request still counts as the same).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO, bearer } from '../helpers/demo.js';
import { shadowingMock, targetMock } from '../helpers/shadow.js';

const P = DEMO.projects.support;
const MISSING = '00000000-0000-4000-8000-000000000000';
const get = (mock: { fetch: (p: string, i: RequestInit) => Promise<Response> }, path: string) =>
  mock.fetch(path, { headers: bearer(DEMO.tokens.owner) }).then((r) => r.status);

test('shadow: one renamed reason code in three operations is one group listing them', async () => {
  const target = await targetMock();
  target.perturb = (_path, status, body) => {
    const detail = (body as { detail?: { reason_code?: string } } | null)?.detail;
    if (detail?.reason_code === 'project_not_found') detail.reason_code = 'project_missing';
    return { status, body };
  };
  const { mock } = await shadowingMock(target);
  const paths = [
    `/api/v3/projects/${MISSING}/jobs`,
    `/api/v3/projects/${MISSING}/users`,
    `/api/v3/projects/${MISSING}/approvals`,
    `/api/v3/projects/${MISSING}/jobs`,
  ];
  for (const p of paths) assert.is(await get(mock, p), 404);
  const report = await mock.control.drift({ settled: true });
  assert.equal(report.groups, [
    {
      level: 'drift',
      field: 'body.detail.reason_code',
      mock: 'project_not_found',
      target: 'project_missing',
      operations: ['listJobs', 'listUsers', 'listApprovals'],
      count: 4,
      first_at: DEMO.now,
      last_at: DEMO.now,
      examples: [
        { request_id: 1, operation: 'listJobs' },
        { request_id: 2, operation: 'listUsers' },
        { request_id: 3, operation: 'listApprovals' },
      ],
    },
  ]);
  assert.equal([report.compared, report.drifted, report.same], [4, 4, 0]);
  assert.equal(mock.control.journalEntry(2).drift, [{ field: 'body.detail.reason_code', mock: 'project_not_found', target: 'project_missing' }]);
});

test('shadow: the same field renamed to two different values is two causes', async () => {
  const target = await targetMock();
  target.perturb = (path, status, body) => {
    const detail = (body as { detail?: { reason_code?: string } } | null)?.detail;
    if (detail?.reason_code === 'project_not_found') detail.reason_code = path.endsWith('/jobs') ? 'project_missing' : 'no_project';
    return { status, body };
  };
  const { mock } = await shadowingMock(target);
  for (const p of [`/api/v3/projects/${MISSING}/jobs`, `/api/v3/projects/${MISSING}/users`]) assert.is(await get(mock, p), 404);
  const report = await mock.control.drift({ settled: true });
  assert.equal(report.groups.map((g) => [g.field, g.mock, g.target, g.operations]).sort(), [
    ['body.detail.reason_code', 'project_not_found', 'no_project', ['listUsers']],
    ['body.detail.reason_code', 'project_not_found', 'project_missing', ['listJobs']],
  ]);
});

test('shadow: an optional field the target dropped is a warning group; a request with warnings only counts as the same', async () => {
  const target = await targetMock();
  target.perturb = (path, status, body) => {
    if (path.includes('/runs/') && status === 200) delete (body as Record<string, unknown>).trace_id;
    return { status, body };
  };
  const { mock } = await shadowingMock(target);
  assert.is(await get(mock, `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`), 200);
  const report = await mock.control.drift({ settled: true });
  assert.equal(report.groups, [
    {
      level: 'warning',
      field: 'body.trace_id',
      mock: 'present',
      target: 'absent',
      operations: ['getRun'],
      count: 1,
      first_at: DEMO.now,
      last_at: DEMO.now,
      examples: [{ request_id: 1, operation: 'getRun' }],
    },
  ]);
  assert.equal([report.compared, report.drifted, report.same], [1, 0, 1]);
  assert.equal(mock.control.journalEntry(1).drift, [{ field: 'body.trace_id', mock: 'present', target: 'absent', level: 'warning' }]);
});

test.run();
