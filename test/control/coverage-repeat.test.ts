// The coverage tracker counts a request that repeats the last operation and status with a count alone: what a repeat
// adds (a reason code, a transition), another operation in between, and a clear must still show in the report.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CoverageTracker, type OperationCoverage } from '../../src/control/coverage.js';

const of = (t: CoverageTracker, name: string): OperationCoverage => t.report().operations.find((o) => o.operation === name)!;
const seen = (o: OperationCoverage) => [o.requests, o.exercised.statuses, o.exercised.reason_codes, o.exercised.transitions];

test('coverage repeat: the same operation and status three times counts three requests and one status', () => {
  const t = new CoverageTracker();
  for (let i = 0; i < 3; i++) t.record('getRun', 200, undefined, []);
  assert.equal(seen(of(t, 'getRun')), [3, [200], [], []]);
});

test('coverage repeat: a repeat with a reason code or a transition adds it; a repeat with another status adds that', () => {
  const t = new CoverageTracker();
  t.record('cancelRun', 409, undefined, []);
  t.record('cancelRun', 409, 'run_not_cancellable', []);
  t.record('cancelRun', 409, undefined, []);
  t.record('cancelRun', 202, undefined, ['run: queued -> cancelled']);
  t.record('cancelRun', 202, undefined, ['run: running -> cancelled']);
  t.record('cancelRun', 404, undefined, []);
  assert.equal(seen(of(t, 'cancelRun')), [6, [202, 404, 409], ['run_not_cancellable'], ['run: queued -> cancelled', 'run: running -> cancelled']]);
});

test('coverage repeat: operations taking turns each keep their own counts and statuses', () => {
  const t = new CoverageTracker();
  for (let i = 0; i < 4; i++) {
    t.record('getRun', 200, undefined, []);
    t.record('listJobs', i < 2 ? 200 : 422, undefined, []);
  }
  t.record('getRun', 200, undefined, []);
  assert.equal(seen(of(t, 'getRun')), [5, [200], [], []]);
  assert.equal(seen(of(t, 'listJobs')), [4, [200, 422], [], []]);
});

test('coverage repeat: after a clear, the operation recorded last before it counts from zero again', () => {
  const t = new CoverageTracker();
  t.record('getRun', 200, undefined, []);
  t.record('getRun', 200, undefined, []);
  t.clear();
  assert.equal(seen(of(t, 'getRun')), [0, [], [], []]);
  t.record('getRun', 200, undefined, []);
  assert.equal(seen(of(t, 'getRun')), [1, [200], [], []]);
  assert.equal(t.report().summary.operations.exercised, 1);
});

test.run();
