// Conformance reports causes, not occurrences: the same difference (field, mock value, target value) met by many
// operations is one finding listing them, and the summary counts findings. A field the mock sends and the target
// dropped is reported: an optional one as a warning, a required one as a difference.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { demoFixture } from '../../src/fixtures.js';
import { runConformance, type ConformanceReport } from '../../src/conformance/index.js';
import { markdownReport, summaryLine } from '../../src/conformance/report.js';
import { driftingTarget, onGet, type DriftingTarget, type Perturbation } from '../helpers/drifting-target.js';
import { DEMO } from '../helpers/demo.js';

let n = 0;
const random = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

async function against(p: Perturbation): Promise<{ report: ConformanceReport; target: DriftingTarget }> {
  const target = await driftingTarget(p);
  const report = await runConformance({
    target: target.url,
    token: DEMO.tokens.owner,
    adminKey: DEMO.adminKey,
    project: DEMO.projects.support,
    fixtures: demoFixture(),
    random,
  });
  return { report, target };
}

test('one renamed reason code across operations is one finding that lists every operation it showed in', async () => {
  const { report, target } = await against(
    onGet(/^\/api\/v3\//, 404, 'many', (a) => {
      if (a.body?.detail?.reason_code === 'project_not_found') a.body.detail.reason_code = 'project_missing';
    }),
  );
  try {
    // Expected independently: the operations the target answered project_not_found to a GET (what the proxy renames).
    const renamed = new Set<string>();
    for (const e of target.upstream.control.requests())
      if (
        e.method === 'GET' &&
        e.status === 404 &&
        e.operation &&
        (e.response.body as { detail?: { reason_code?: string } })?.detail?.reason_code === 'project_not_found'
      )
        renamed.add(e.operation);
    assert.ok(renamed.size >= 5, `only ${renamed.size} operations met the rename`);
    assert.is(report.findings.length, 1, JSON.stringify(report.findings));
    const [f] = report.findings;
    assert.equal(
      { level: f.level, field: f.field, mock: f.mock, target: f.target, operations: [...f.operations].sort() },
      { level: 'drift', field: 'body.detail.reason_code', mock: 'project_not_found', target: 'project_missing', operations: [...renamed].sort() },
    );
    // Every probe that met it is named; the first reports it, the others name the first.
    const meeting = report.results.filter((r) => r.differences.length || r.repeats.length);
    assert.equal([...f.probes].sort(), meeting.map((r) => r.probe).sort());
    assert.is(meeting.filter((r) => r.differences.length === 1).length, 1);
    for (const r of meeting.slice(1)) assert.equal(r.repeats, [{ field: 'body.detail.reason_code', first: f.probes[0] }]);
    assert.equal([report.summary.differences, report.summary.warnings, report.summary.different], [1, 0, meeting.length]);
    assert.match(summaryLine(report), `${meeting.length} different (1 distinct differences, 0 warnings)`);
    const md = markdownReport(report);
    const rows = md.split('\n').filter((l: string) => l.startsWith('| `'));
    assert.equal(rows, [
      `| \`body.detail.reason_code\` | "project_not_found" | "project_missing" | ${f.operations.map((o) => `\`${o}\``).join(', ')} (${f.probes.length} probes, first "${f.probes[0]}") |`,
    ]);
  } finally {
    await target.close();
  }
});

test('the same field renamed to two different values is two findings', async () => {
  let k = 0;
  const { report, target } = await against(
    onGet(/^\/api\/v3\//, 404, 'many', (a) => {
      if (a.body?.detail?.reason_code === 'project_not_found') a.body.detail.reason_code = k++ % 2 ? 'no_project' : 'project_missing';
    }),
  );
  try {
    assert.ok(k >= 2, `${k} answers renamed`);
    assert.equal(report.findings.map((f) => [f.level, f.field, f.mock, f.target]).sort(), [
      ['drift', 'body.detail.reason_code', 'project_not_found', 'no_project'],
      ['drift', 'body.detail.reason_code', 'project_not_found', 'project_missing'],
    ]);
    assert.is(report.summary.differences, 2);
  } finally {
    await target.close();
  }
});

test('an optional field the target dropped is a warning finding; the run still has no difference', async () => {
  const { report, target } = await against(
    onGet(/^\/api\/v3\/projects\/[^/]+\/runs\/[^/]+$/, 200, 'getRun', (a) => {
      delete a.body.trace_id;
    }),
  );
  try {
    assert.ok(target.perturbed() >= 1);
    assert.equal(
      report.findings.map((f) => ({ level: f.level, field: f.field, mock: f.mock, target: f.target, operations: f.operations })),
      [{ level: 'warning', field: 'body.trace_id', mock: 'present', target: 'absent', operations: ['getRun'] }],
    );
    assert.equal([report.summary.differences, report.summary.warnings, report.summary.different], [0, 1, 0]);
    assert.match(summaryLine(report), '0 different (0 distinct differences, 1 warnings)');
    assert.match(markdownReport(report), `### Warnings (optional fields the target dropped)\n\n- \`body.trace_id\`: \`getRun\` (`);
  } finally {
    await target.close();
  }
});

test('a required field the target dropped is a difference, named once however many operations show it', async () => {
  const { report, target } = await against(
    onGet(/^\/api\/v3\//, 404, 'many', (a) => {
      if (a.body?.detail) delete a.body.detail.message;
    }),
  );
  try {
    const drift = report.findings.filter((f) => f.level === 'drift');
    assert.equal(
      drift.map((f) => [f.field, f.mock, f.target]),
      [['body.detail.message', 'present (required)', 'absent']],
    );
    assert.ok(drift[0].operations.length >= 5, drift[0].operations.join(','));
    assert.is(report.summary.differences, 1);
  } finally {
    await target.close();
  }
});

test.run();
