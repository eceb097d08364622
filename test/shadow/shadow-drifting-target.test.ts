// Shadow mode over HTTP against the drifting proxy (one perturbation per run): each perturbation of a GET answer is
// recorded once per perturbed request, in one group naming its operation and field; an extra field is compatible.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { PERTURBATIONS, driftingTarget, type PerturbationName } from '../helpers/drifting-target.js';

const P = `/api/v3/projects/${DEMO.projects.support}`;
const MISSING = '00000000-0000-4000-8000-000000000000';
/** A GET workload that meets every GET perturbation: found records, missing ones, a list with a next page, a bad parameter. */
const WORKLOAD = [
  `${P}/runs/${DEMO.runs.failedApi}`,
  `${P}/approvals/${DEMO.approvals.pendingWaiting}`,
  `${P}/users/${MISSING}`,
  `/api/v3/projects/${MISSING}/jobs`,
  `${P}/jobs`,
  `${P}/users?limit=1`,
  `${P}/releases/${DEMO.releases.gen4Candidate}/diff`,
  `${P}/releases?limit=abc`,
  `${P}/connections/crm`,
];

const GETS = (Object.keys(PERTURBATIONS) as PerturbationName[]).filter((name) => PERTURBATIONS[name].method === 'GET');

test('the workload agrees with a faithful proxy: every request compared, no drift', async () => {
  const target = await driftingTarget(null);
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), shadow: { url: target.url, token: DEMO.tokens.owner, ratePerSecond: 1000 } });
  for (const path of WORKLOAD) await mock.fetch(path, { headers: bearer(DEMO.tokens.owner) });
  const report = await mock.control.drift({ settled: true });
  await target.close();
  assert.equal([report.compared, report.same, report.drifted, report.groups], [WORKLOAD.length, WORKLOAD.length, 0, []]);
});

for (const name of GETS) {
  test(`perturbation "${name}": one group, its operation and field, counted once per perturbed request`, async () => {
    const p = PERTURBATIONS[name];
    const target = await driftingTarget(name);
    const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), shadow: { url: target.url, token: DEMO.tokens.owner, ratePerSecond: 1000 } });
    for (let round = 0; round < 2; round++) for (const path of WORKLOAD) await mock.fetch(path, { headers: bearer(DEMO.tokens.owner) });
    const report = await mock.control.drift({ settled: true });
    const perturbed = target.perturbed();
    await target.close();
    assert.ok(perturbed >= 2, `the workload met the perturbation ${perturbed} times`);
    assert.is(report.compared, WORKLOAD.length * 2);
    if (p.kind === 'compatible') {
      assert.equal(report.groups, []);
      assert.is(report.compatible, perturbed);
      return;
    }
    assert.equal(
      report.groups.map((g) => [g.operations, g.field, g.count]),
      [[[p.operation], p.field, perturbed]],
    );
    assert.is(report.drifted, perturbed);
    const ids = report.groups[0].examples.map((e) => e.request_id!);
    for (const id of ids)
      assert.equal(
        mock.control.journalEntry(id).drift!.map((d) => d.field),
        [p.field],
      );
  });
}

test.run();
