// Conformance against a drifting target (a proxy of a mock from the same fixture that perturbs one thing): each
// perturbation is reported exactly once, naming the probe and the field; an extra field is compatible, not a difference.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { demoFixture } from '../../src/fixtures.js';
import { runConformance, type ConformanceReport } from '../../src/conformance/index.js';
import { driftingTarget, PERTURBATIONS, type PerturbationName } from '../helpers/drifting-target.js';
import { DEMO } from '../helpers/demo.js';

let n = 0;
// Fixed probe ids, so a run is the same run every time.
const random = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

async function against(name: PerturbationName | null): Promise<{ report: ConformanceReport; perturbed: number }> {
  const target = await driftingTarget(name);
  try {
    const report = await runConformance({
      target: target.url,
      token: DEMO.tokens.owner,
      adminKey: DEMO.adminKey,
      project: DEMO.projects.support,
      fixtures: demoFixture(),
      random,
    });
    return { report, perturbed: target.perturbed() };
  } finally {
    await target.close();
  }
}

const named = (report: ConformanceReport, kind: 'differences' | 'compatible') =>
  report.results.flatMap((r) => r[kind].map((d) => ({ probe: r.probe, operation: r.operation, field: d.field })));

for (const name of Object.keys(PERTURBATIONS) as PerturbationName[]) {
  const p = PERTURBATIONS[name];
  test(`drift "${name}": reported once, as ${p.kind === 'compatible' ? 'compatible' : 'a difference'} of ${p.operation} at ${p.field}`, async () => {
    const { report, perturbed } = await against(name);
    assert.ok(perturbed >= 1, 'the perturbation met at least one answer');
    const found = named(report, p.kind === 'compatible' ? 'compatible' : 'differences');
    assert.is(found.length, 1, JSON.stringify(found));
    assert.is(found[0].operation, p.operation);
    assert.is(found[0].field, p.field);
    assert.ok(found[0].probe.startsWith(`${p.operation}: `), found[0].probe);
    if (p.kind === 'compatible') {
      assert.equal(named(report, 'differences'), []);
      assert.is(report.summary.different, 0);
    } else {
      assert.is(report.summary.differences, 1);
      // Probes that met the same drift later name the first one instead of repeating it.
      for (const r of report.results) for (const rep of r.repeats) assert.is(rep.first, found[0].probe);
    }
  });
}

test.run();
