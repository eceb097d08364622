// The pieces of conformance one by one: the schema walk, the malformed values of each type, the operations read from
// the document, the secret scrubber, and how the in-process mock stands in for the target (projects, credentials).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { demoFixture } from '../../src/fixtures.js';
import { openApiDocument } from '../../src/document/build.js';
import { checkShape, type Schema, type ShapeFindings } from '../../src/compare/index.js';
import { malformedBodyValues, malformedParamValues } from '../../src/conformance/malformed.js';
import { fill, pathValues, v3Operations, validBody } from '../../src/conformance/operations.js';
import { scrubber } from '../../src/conformance/secrets.js';
import { mockSide } from '../../src/conformance/sides.js';
import { DEMO } from '../helpers/demo.js';
import { junitReport, markdownReport, summaryLine } from '../../src/conformance/report.js';
import type { ConformanceReport } from '../../src/conformance/index.js';

function shape(schema: Schema, value: unknown, doc: Schema = {}) {
  const out: ShapeFindings = { differences: new Map(), compatible: new Map() };
  checkShape(doc, schema, value, 'body', out);
  return { differences: [...out.differences.values()], compatible: [...out.compatible.values()] };
}

test('shape: types (an integer is a number, not the reverse), const, enum, pattern, uuid and date-time formats', () => {
  assert.equal(shape({ type: 'number' }, 3).differences, []);
  assert.equal(shape({ type: 'integer' }, 3.5).differences, [{ field: 'body', mock: 'integer', target: 3.5 }]);
  assert.equal(shape({ type: ['string', 'null'] }, null).differences, []);
  assert.equal(shape({ type: 'string' }, null).differences, [{ field: 'body', mock: 'not nullable', target: null }]);
  assert.equal(shape({ type: 'boolean' }, 'true').differences, [{ field: 'body', mock: 'boolean', target: 'true' }]);
  assert.equal(shape({ const: 'deleted' }, 'gone').differences, [{ field: 'body', mock: 'deleted', target: 'gone' }]);
  assert.equal(shape({ enum: ['a', 'b'] }, 'b').differences, []);
  assert.equal(shape({ type: 'string', pattern: '^[0-9a-f]{4}$' }, 'abcd').differences, []);
  assert.equal(shape({ type: 'string', pattern: '^[0-9a-f]{4}$' }, 'ABCD').differences, [{ field: 'body', mock: 'pattern ^[0-9a-f]{4}$', target: 'ABCD' }]);
  assert.equal(shape({ type: 'string', format: 'uuid' }, 'FE1868EE-D60E-4CE6-8DB0-F4A764225229').differences, []);
  for (const ok of ['2026-01-15T12:00:00.000Z', '2026-01-15T12:00:00+00:00', '2026-01-15T12:00:00Z'])
    assert.equal(shape({ type: 'string', format: 'date-time' }, ok).differences, [], ok);
  assert.equal(shape({ type: 'string', format: 'date-time' }, '2026-01-15').differences, [{ field: 'body', mock: 'format date-time', target: '2026-01-15' }]);
});

test('shape: objects: required, extra keys compatible, free-form objects open, additionalProperties walked', () => {
  const s = { type: 'object', properties: { a: { type: 'string' }, meta: { type: 'object', additionalProperties: true } }, required: ['a'] };
  assert.equal(shape(s, { a: 'x', meta: { anything: 1 } }), { differences: [], compatible: [] });
  assert.equal(shape(s, { meta: {}, b: 2 }), {
    differences: [{ field: 'body.a', mock: 'present (required)', target: 'absent' }],
    compatible: [{ field: 'body.b', mock: 'absent', target: 2 }],
  });
  const map = { type: 'object', properties: {}, additionalProperties: { type: 'integer' } };
  assert.equal(shape(map, { x: 1, y: 'two' }).differences, [{ field: 'body.y', mock: 'integer', target: 'two' }]);
  const list = { type: 'array', items: s };
  assert.equal(shape(list, [{ a: 'x' }, { a: 1 }, { a: 2 }]).differences, [{ field: 'body[].a', mock: 'string', target: 1 }]);
});

test('shape: anyOf and oneOf: a matching branch is no difference; else the closest branch speaks; $refs resolve', () => {
  const doc = { components: { schemas: { Id: { type: 'string', format: 'uuid' } } } };
  const nullableId = { anyOf: [{ $ref: '#/components/schemas/Id' }, { type: 'null' }] };
  assert.equal(shape(nullableId, null, doc).differences, []);
  assert.equal(shape(nullableId, 'nope', doc).differences, [{ field: 'body', mock: 'format uuid', target: 'nope' }]);
  const either = {
    oneOf: [
      { type: 'object', properties: { k: { const: 'a' } }, required: ['k', 'x'] },
      { type: 'object', properties: { k: { const: 'b' } }, required: ['k'] },
    ],
  };
  assert.equal(shape(either, { k: 'b' }).differences, []);
  assert.equal(shape(either, { k: 'a' }).differences, [{ field: 'body.x', mock: 'present (required)', target: 'absent' }]);
  assert.equal(shape({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, null).differences, [{ field: 'body', mock: 'not nullable', target: null }]);
});

test('shape: a target nested deeper than the walk goes is not walked (no stack overflow), nothing reported past it', () => {
  let deep: unknown = 'leaf';
  for (let i = 0; i < 10_000; i++) deep = { n: deep };
  const loose: Schema = { type: 'object', properties: {} };
  assert.equal(shape(loose, deep).compatible, [{ field: 'body.n', mock: 'absent', target: '(nested deeper than 64 levels)' }]);
  const self: Schema = { type: 'object', properties: { n: { $ref: '#/s' } }, required: ['n'] };
  const doc = { s: self };
  assert.equal(shape(self, deep, doc).differences, []);
});

test('malformed values: one per JSON Schema type, each a value pydantic lax mode still refuses', () => {
  const body = (s: Schema) => malformedBodyValues({}, s).map((m) => [m.label, m.value]);
  assert.equal(body({ type: 'string' }), [['string_type', 5]]);
  assert.equal(body({ type: 'string', format: 'uuid' }), [['uuid_parsing', 'not-a-uuid']]);
  assert.equal(body({ type: 'string', format: 'date-time' }), [['datetime_parsing', 'yesterday']]);
  assert.equal(body({ type: 'number', minimum: 0 }), [
    ['float_parsing', 'lots'],
    ['greater_than_equal', -1],
  ]);
  assert.equal(body({ type: 'number' }), [['float_parsing', 'lots']]);
  assert.equal(body({ type: 'integer' }), [['int_from_float', 1.5]]);
  assert.equal(body({ type: 'boolean' }), [['bool_parsing', 'maybe']]);
  assert.equal(body({ type: 'array' }), [['list_type', 'x']]);
  assert.equal(body({ type: 'object' }), [['dict_type', 'x']]);
  assert.equal(body({ enum: ['a'] }), [['enum', 'conformance-bogus']]);
  assert.equal(body({ const: 'delete-application-user' }), [['literal_error', 'not-delete-application-user']]);
  assert.equal(body({ anyOf: [{ type: 'integer' }, { type: 'null' }] }), [['int_from_float', 1.5]]);
  const param = (s: Schema) => malformedParamValues({}, s).map((m) => [m.label, m.value]);
  assert.equal(param({ type: 'integer', minimum: 1, maximum: 200 }), [
    ['int_parsing', 'abc'],
    ['greater_than_equal', '0'],
    ['less_than_equal', '201'],
  ]);
  assert.equal(param({ type: 'string', format: 'uuid' }), [['uuid_parsing', 'not-a-uuid']]);
  assert.equal(param({ type: 'boolean' }), [['bool_parsing', 'maybe']]);
  assert.equal(param({ type: 'string', minLength: 1 }), []);
});

test('operations: the 20 v3 operations of the served document (no control route), filled paths, valid bodies', () => {
  const ops = v3Operations(openApiDocument(true));
  assert.is(ops.length, 20);
  assert.ok(ops.every((o) => o.template.startsWith('/api/v3/')));
  const diff = ops.find((o) => o.id === 'diffRelease')!;
  assert.equal(
    [diff.method, diff.pathParams.map((p) => p.name), diff.query.map((q) => q.name), diff.security],
    ['GET', ['project_id', 'release_id'], ['baseline_release_id'], ['bearerAuth', 'adminKey']],
  );
  assert.is(
    fill(diff, { project_id: 'a b', release_id: 'r/1' }, { baseline_release_id: 'x&y' }),
    '/api/v3/projects/a%20b/releases/r%2F1/diff?baseline_release_id=x%26y',
  );
  let n = 0;
  const random = () => `00000000-0000-4000-8000-00000000000${++n}`;
  assert.equal(
    pathValues(
      ops.find((o) => o.id === 'getApproval')!,
      'P',
      random,
    ),
    { project_id: 'P', approval_id: 'conformance-00000000' },
  );
  assert.equal(pathValues(diff, undefined, random), { project_id: '00000000-0000-4000-8000-000000000002', release_id: '00000000-0000-4000-8000-000000000003' });
  assert.is(
    validBody(
      ops.find((o) => o.id === 'getRun')!,
      random,
    ),
    undefined,
  );
  assert.is(
    validBody(
      ops.find((o) => o.id === 'deleteUser')!,
      random,
    ),
    '{"confirmation":"delete-application-user"}',
  );
  assert.is(
    validBody(
      ops.find((o) => o.id === 'cancelRun')!,
      random,
    ),
    '{}',
  );
});

test('scrubber: every secret, raw, as JSON escapes it and URL-encoded, longest first; empty and missing ignored', () => {
  const scrub = scrubber(['tok"en', 'tok', '', undefined, 'a b']);
  assert.is(scrub('tok"en / tok\\"en / tok / a%20b / a b'), '[redacted] / [redacted] / [redacted] / [redacted] / [redacted]');
  assert.is(scrubber([])('nothing'), 'nothing');
});

test('the mock side: same project id when the fixture has it, else its first active one; an owner token with admin scope', async () => {
  const same = await mockSide(demoFixture(), { token: 'x', adminKey: 'k', project: DEMO.projects.sales, disposableProject: DEMO.projects.support });
  assert.equal(
    [same.side.project, same.side.disposable, same.side.token, same.side.adminKey],
    [DEMO.projects.sales, DEMO.projects.support, DEMO.tokens.owner, DEMO.adminKey],
  );
  await same.app.close();
  // Unknown ids: --project gets the first active project (the archived first one skipped), the disposable one the first
  // with a pending approval.
  const fixture = structuredClone(demoFixture()) as { projects: { id: string; status: string }[] };
  const support = fixture.projects.findIndex((p) => p.id === DEMO.projects.support);
  fixture.projects.push(...fixture.projects.splice(support, 1)); // support, the one with pending approvals, goes last
  fixture.projects[0].status = 'archived';
  const other = await mockSide(fixture, { project: '11111111-1111-4111-8111-111111111111', disposableProject: '22222222-2222-4222-8222-222222222222' });
  assert.equal([other.side.project, other.side.disposable], [fixture.projects[1].id, DEMO.projects.support]);
  // No --token, no --admin-key on the target: none on the mock either.
  assert.equal([other.side.token, other.side.adminKey], [undefined, undefined]);
  await other.app.close();
  const globex = await mockSide(demoFixture(), { token: 'x', project: DEMO.projects.globex });
  assert.is(globex.side.token, DEMO.tokens.globex);
  await globex.app.close();
});

test('reports from one result set: the summary line, Markdown sections and JUnit cases (failure, skipped, passed)', () => {
  const report: ConformanceReport = {
    target: 'https://staging.example.com',
    summary: { probes: 3, same: 1, different: 1, not_comparable: 1, differences: 1, warnings: 1, compatible: 1 },
    writes: ['setBudget: set to its current values: PUT the budget'],
    findings: [
      {
        level: 'drift',
        field: 'body.status',
        mock: 'present (required)',
        target: 'absent',
        operations: ['getRun', 'getJob'],
        probes: ['getRun: one run', 'getRun: no credentials', 'getJob: one job'],
      },
      { level: 'warning', field: 'body.trace_id', mock: 'present', target: 'absent', operations: ['getRun'], probes: ['getRun: one run'] },
    ],
    results: [
      {
        probe: 'getRun: one run',
        operation: 'getRun',
        group: 'read',
        request: 'GET /r|1',
        outcome: 'different',
        differences: [{ field: 'body.status', mock: 'present (required)', target: 'absent' }],
        compatible: [],
        warnings: [{ field: 'body.trace_id', mock: 'present', target: 'absent' }],
        repeats: [],
      },
      {
        probe: 'getRun: no credentials',
        operation: 'getRun',
        group: 'auth',
        request: 'GET /r',
        outcome: 'different',
        differences: [],
        compatible: [{ field: 'body.x', mock: 'absent', target: 1 }],
        warnings: [],
        repeats: [{ field: 'body.status', first: 'getRun: one run' }],
      },
      {
        probe: 'listUsers: first page',
        operation: 'listUsers',
        group: 'read',
        request: '(listUsers: first page)',
        outcome: 'not comparable',
        reason: 'no --project given',
        differences: [],
        compatible: [],
        warnings: [],
        repeats: [],
      },
    ],
  };
  assert.is(
    summaryLine(report),
    'conformance: 3 probes against https://staging.example.com: 1 same, 1 different (1 distinct differences, 1 warnings), 1 not comparable, 1 compatible extras; differences found',
  );
  assert.is(
    markdownReport(report),
    [
      '## Conformance: differences found',
      '',
      summaryLine(report),
      '',
      '### Differences (one row per cause)',
      '',
      '| field | mock | target | where |',
      '| --- | --- | --- | --- |',
      '| `body.status` | "present (required)" | "absent" | `getRun`, `getJob` (3 probes, first "getRun: one run") |',
      '',
      '### Warnings (optional fields the target dropped)',
      '',
      '- `body.trace_id`: `getRun` (1 probe, first "getRun: one run")',
      '',
      '### Compatible (extra fields the contract allows)',
      '',
      '- getRun: no credentials: `body.x` = 1',
      '',
      '### Not comparable',
      '',
      '- listUsers: first page: no --project given',
      '',
      '### Writes',
      '',
      '- setBudget: set to its current values: PUT the budget',
      '',
    ].join('\n'),
  );
  const xml = junitReport(report);
  assert.match(xml, /tests="3" failures="1" skipped="1">/);
  assert.match(
    xml,
    /<testcase classname="conformance.getRun" name="getRun: one run"><failure message="body.status: mock &quot;present \(required\)&quot;, target &quot;absent&quot;">GET \/r\|1\nbody.status: mock/,
  );
  assert.match(xml, /name="getRun: no credentials"><failure message="body.status: as reported by &quot;getRun: one run&quot;">/);
  assert.match(xml, /<testcase classname="conformance.listUsers" name="listUsers: first page"><skipped message="no --project given"\/><\/testcase>/);
  const ok = junitReport({ ...report, results: [{ ...report.results[0], outcome: 'same', differences: [] }] });
  assert.match(ok, /<testcase classname="conformance.getRun" name="getRun: one run"><\/testcase>/);
  assert.is(junitReport({ ...report, results: [{ ...report.results[2], reason: 'a\u0001b' }] }).includes('a\ufffdb'), true);
});

test.run();
