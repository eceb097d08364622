// The coverage gate's OPERATION:STATUS[:REASON] requirements: met only by that operation's own answers (another
// operation's status does not count), the reason checked only when given, each gap named as written.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gate } from '../../src/control/coverage-gate.js';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const MISSING_RUN = '00000000-0000-4000-8000-000000000000';

async function traffic() {
  const m = await freshMock();
  await m.http.get(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`).set(owner).expect(200);
  await m.http.get(`/api/v3/projects/${P}/runs/${MISSING_RUN}`).set(owner).expect(404);
  await m.http.get(`/api/v3/projects/${P}/jobs`).set(owner).expect(200);
  return m;
}

const whats = (r: ReturnType<typeof gate>) => r.gaps.map((g) => [g.what, g.message]);

test('coverage gate: OPERATION:STATUS met by that operation, OPERATION:STATUS:REASON by its reason too', async () => {
  const m = await traffic();
  const report = m.mock.control.coverage();
  const met = gate(report, { require: ['getRun:200', 'getRun:404', 'getRun:404:run_not_found', 'listJobs:200'] });
  assert.equal([met.ok, met.gaps], [true, []]);
});

test('coverage gate: a status another operation answered does not meet it; nor a reason of another status or operation', async () => {
  const m = await traffic();
  const report = m.mock.control.coverage();
  const r = gate(report, { require: ['cancelRun:200', 'listJobs:404', 'getRun:401', 'getRun:404:token_invalid', 'listJobs:200:run_not_found'] });
  assert.is(r.ok, false);
  assert.equal(whats(r), [
    ['cancelRun:200', 'cancelRun never answered status 200 (0 requests)'],
    ['listJobs:404', 'listJobs never answered status 404 (1 requests)'],
    ['getRun:401', 'getRun never answered status 401 (2 requests)'],
    ['getRun:404:token_invalid', 'getRun never answered reason token_invalid (2 requests)'],
    ['listJobs:200:run_not_found', 'listJobs never answered reason run_not_found (1 requests)'],
  ]);
});

test('coverage gate: the threshold at its edge (equal passes, one above fails) and malformed requirements', async () => {
  const m = await traffic();
  const report = m.mock.control.coverage();
  const percent = report.summary.percent;
  assert.is(gate(report, { failUnder: percent }).ok, true);
  const over = gate(report, { failUnder: percent + 1 });
  assert.is(over.ok, false);
  assert.is(over.gaps[0].what, 'threshold');
  assert.throws(() => gate(report, { require: ['getRun:40'] }), /should be OPERATION:STATUS\[:REASON\]/);
  assert.throws(() => gate(report, { require: ['getRn:200'] }), /unknown operation getRn/);
});

test.run();
