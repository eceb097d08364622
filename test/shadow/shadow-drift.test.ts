// Shadow mode against a target that answers differently: each difference on its journal entry and grouped by operation
// and field in GET /_mock/drift, counted, with a few examples; bounded per request, per value and in bytes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO, bearer } from '../helpers/demo.js';
import { shadowingMock, targetMock } from '../helpers/shadow.js';
import { freshMock } from '../helpers/app.js';
import { DRIFT_PER_REQUEST, DRIFT_VALUE_CHARS } from '../../src/shadow/index.js';
import { DRIFT_MAX_BYTES, DriftLog, EXAMPLES_PER_GROUP } from '../../src/control/index.js';
import type { MockApp } from '../../src/app.js';
import { boundedDrift } from '../../src/shadow/middleware.js';
import { REDACTED, Redactor } from '../../src/control/redact.js';

const P = DEMO.projects.support;
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;
const JOBS = `/api/v3/projects/${P}/jobs?limit=2`;
const get = (mock: MockApp, path: string) => mock.fetch(path, { headers: bearer(DEMO.tokens.owner) }).then((r) => r.text());

test('a changed status: on the journal entry, and grouped by cause (one group listing both operations) with counts and the first examples', async () => {
  const target = await targetMock();
  target.perturb = (_path, status, body) => ({ status: status === 200 ? 418 : status, body });
  const { mock } = await shadowingMock(target);
  for (let i = 0; i < 40; i++) await get(mock, i % 4 === 3 ? JOBS : RUN);
  const report = await mock.control.drift({ settled: true });
  assert.is(report.compared, 40);
  assert.is(report.drifted, 40);
  assert.is(report.same, 0);
  const status = report.groups.filter((g) => g.field === 'status');
  // The same difference (200 where 418 came back) in two operations is one cause.
  assert.equal(
    status.map((g) => [g.level, g.mock, g.target, g.operations, g.count]),
    [['drift', 200, 418, ['getRun', 'listJobs'], 40]],
  );
  // The first examples: journal ids 1, 2, 3 (all getRun; id 4 was the first listJobs).
  assert.equal(status[0].examples, [
    { request_id: 1, operation: 'getRun' },
    { request_id: 2, operation: 'getRun' },
    { request_id: 3, operation: 'getRun' },
  ]);
  assert.is(status[0].examples.length, EXAMPLES_PER_GROUP);
  assert.is(status[0].first_at, DEMO.now);
  const entry = mock.control.journalEntry(4);
  assert.equal(
    entry.drift!.filter((d) => d.field === 'status'),
    [{ field: 'status', mock: 200, target: 418 }],
  );
  // Reset forgets it all.
  await mock.control.reset();
  const cleared = mock.control.drift();
  assert.equal([cleared.compared, cleared.drifted, cleared.groups.length, cleared.bytes], [0, 0, 0, 0]);
});

test('a removed required field: named by its path, on that request only', async () => {
  const target = await targetMock();
  target.perturb = (path, status, body) => {
    if (!path.includes('/runs/')) return { status, body };
    const { status: _removed, ...rest } = body as Record<string, unknown>;
    return { status, body: rest };
  };
  const { mock } = await shadowingMock(target);
  await get(mock, RUN);
  await get(mock, JOBS);
  const report = await mock.control.drift({ settled: true });
  assert.is(report.drifted, 1);
  assert.is(report.same, 1);
  assert.is(report.groups.length, 1);
  const [group] = report.groups;
  assert.equal(group.operations, ['getRun']);
  assert.is(group.field, 'body.status');
  assert.equal([group.mock, group.target], ['present (required)', 'absent']);
  assert.equal(group.examples, [{ request_id: 1, operation: 'getRun' }]);
  assert.is(mock.control.journalEntry(2).drift, undefined);
});

test('a long value is cut with a marker; a request keeps its first differences; secrets are replaced', () => {
  const long = 'x'.repeat(5000);
  const differences = Array.from({ length: 40 }, (_, i) => ({ field: `body.f${i}`, mock: i, target: { text: long } }));
  const redactor = new Redactor({ has: () => false, fixed: ['shadow-token-abcdef'] });
  const kept = boundedDrift(
    [{ field: 'body.note', mock: 'sent shadow-token-abcdef', target: { access_token: 'tok-123456', ok: 1 } }, ...differences],
    redactor,
  );
  assert.is(kept.length, DRIFT_PER_REQUEST);
  assert.equal(kept[0], { field: 'body.note', mock: `sent ${REDACTED}`, target: { access_token: REDACTED, ok: 1 } });
  const cutText = `${JSON.stringify({ text: long }).slice(0, DRIFT_VALUE_CHARS)}… (${long.length + 11} characters)`;
  assert.equal(kept[1], { field: 'body.f0', mock: 0, target: cutText });
  assert.equal(
    kept.map((d) => d.field),
    ['body.note', ...differences.slice(0, DRIFT_PER_REQUEST - 1).map((d) => d.field)],
  );
  // A value exactly at the bound stays whole; one past it is cut; an absent side stays absent.
  const atBound = 'y'.repeat(DRIFT_VALUE_CHARS - 2);
  assert.equal(boundedDrift([{ field: 'a', mock: atBound }], redactor), [{ field: 'a', mock: atBound }]);
  assert.match(boundedDrift([{ field: 'a', mock: `${atBound}z` }], redactor)[0].mock as string, /… \(513 characters\)$/);
});

test('many requests: counts grow, examples and bytes do not', async () => {
  const target = await targetMock();
  target.perturb = (_path, status, body) => ({ status: 500 + (status % 7), body });
  const { mock } = await shadowingMock(target);
  for (let i = 0; i < 300; i++) await get(mock, RUN);
  const report = await mock.control.drift({ settled: true });
  const status = report.groups.find((g) => g.field === 'status')!;
  assert.is(status.count, 300);
  assert.is(status.examples.length, EXAMPLES_PER_GROUP);
  const after300 = report.bytes;
  for (let i = 0; i < 100; i++) await get(mock, RUN);
  const more = await mock.control.drift({ settled: true });
  assert.is(more.groups.find((g) => g.field === 'status')!.count, 400);
  assert.is(more.bytes, after300);
});

test('the drift record is bounded in bytes: past the bound new groups are only counted', () => {
  const log = new DriftLog(null, null);
  const value = 'v'.repeat(400);
  let differences = 0;
  for (let i = 0; i < 5000; i++) {
    log.compared(`op${i % 7}`, i + 1, DEMO.now, [{ field: `body.field_${i}`, mock: value, target: i }], 0);
    differences++;
  }
  const report = log.report();
  assert.ok(report.bytes <= DRIFT_MAX_BYTES, `${report.bytes} bytes`);
  assert.is(report.max_bytes, DRIFT_MAX_BYTES);
  assert.ok(report.ungrouped > 0);
  assert.is(report.groups.reduce((n, g) => n + g.count, 0) + report.ungrouped, differences);
  // The report as JSON stays within a small multiple of the bound.
  assert.ok(JSON.stringify(report).length < DRIFT_MAX_BYTES * 1.5);
  // A difference of a group already held (the same cause: field and both values) is still counted past the bound.
  log.compared('op0', 9999, DEMO.now, [{ field: 'body.field_0', mock: value, target: 0 }], 0);
  assert.is(log.report().groups.find((g) => g.field === 'body.field_0')!.count, 2);
});

test('GET /_mock/drift over HTTP answers the report its OpenAPI document describes, and journal entries carry drift', async () => {
  const target = await targetMock();
  target.perturb = (_path, status, body) => ({ status: status + 1, body });
  const { mock } = await shadowingMock(target);
  await get(mock, RUN);
  await mock.control.drift({ settled: true });
  const { createServer } = await import('node:http');
  const server = createServer(mock.callback()).listen(0);
  const { default: request } = await import('supertest');
  const { checkedClient } = await import('../helpers/openapi-check.js');
  const http = checkedClient(request(server));
  const res = await http.get('/_mock/drift').expect(200);
  assert.equal(res.body, mock.control.drift());
  assert.equal(res.body.groups[0], {
    level: 'drift',
    field: 'status',
    mock: 200,
    target: 201,
    operations: ['getRun'],
    count: 1,
    first_at: DEMO.now,
    last_at: DEMO.now,
    examples: [{ request_id: 1, operation: 'getRun' }],
  });
  const entry = await http.get('/_mock/requests/1').expect(200);
  assert.equal(entry.body.drift[0], { field: 'status', mock: 200, target: 201 });
  server.close();
  // The typed client has it too.
  const plain = await freshMock();
  const off = await plain.http.get('/_mock/drift').expect(200);
  assert.is(off.body.enabled, false);
});

test.run();
