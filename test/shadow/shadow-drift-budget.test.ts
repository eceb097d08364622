// The drift records of one server's mocks (its default mock and every sandbox) share one byte bound: a record that goes
// (a sandbox dropped, a reset) gives its bytes back.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO, bearer } from '../helpers/demo.js';
import { shadowingMock, targetMock } from '../helpers/shadow.js';
import { driftLog, shadowServer } from '../../src/shadow/index.js';
import { DRIFT_MAX_BYTES, DriftBudget, DriftLog } from '../../src/control/index.js';

const P = DEMO.projects.support;
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;
/**
 * What the record counts for a group (a cause: field and both values) met by one operation with one example: fixed
 * costs of 160 (the group), 8 (an operation listed) and 48 (an example naming its operation) bytes.
 */
const groupBytes = (operation: string, field: string, mock: unknown, target: unknown) =>
  160 + field.length + JSON.stringify(mock).length + JSON.stringify(target).length + 8 + operation.length + 48 + operation.length;

test('two records on one budget: what one holds the other cannot take; a cleared record gives its bytes back', () => {
  const one = groupBytes('getRun', 'body.a', 'x', 'y');
  const budget = new DriftBudget(2 * one);
  const [a, b] = [new DriftLog(null, null, budget), new DriftLog(null, null, budget)];
  a.compared('getRun', 1, DEMO.now, [{ field: 'body.a', mock: 'x', target: 'y' }], 0);
  a.compared('getRun', 2, DEMO.now, [{ field: 'body.b', mock: 'x', target: 'y' }], 0);
  assert.is(a.report().bytes, 2 * one);
  assert.is(budget.used, 2 * one);
  // Full: the other record only counts its difference.
  b.compared('getRun', 1, DEMO.now, [{ field: 'body.c', mock: 'x', target: 'y' }], 0);
  assert.equal([b.report().groups.length, b.report().ungrouped, b.report().bytes], [0, 1, 0]);
  assert.is(b.report().max_bytes, 2 * one);
  a.clear();
  assert.is(budget.used, 0);
  b.compared('getRun', 2, DEMO.now, [{ field: 'body.c', mock: 'x', target: 'y' }], 0);
  assert.equal(
    b.report().groups.map((g) => [g.field, g.count, g.examples.length]),
    [['body.c', 1, 1]],
  );
  assert.is(budget.used, one);
});

test('a record without a budget of its own gets the default bound', () => {
  const log = new DriftLog(null, null);
  assert.is(log.report().max_bytes, DRIFT_MAX_BYTES);
});

test("one server's records share its budget: driftLog gives every mock of a shadow server the server's", () => {
  const server = shadowServer(
    { url: 'http://target.test', token: 't0k3n-for-the-test' },
    () => {},
    () => ({ differences: [], compatible: [], warnings: [] }),
  );
  const [a, b] = [driftLog(server), driftLog(server)];
  a.compared('getRun', 1, DEMO.now, [{ field: 'status', mock: 200, target: 418 }], 0);
  b.compared('getRun', 1, DEMO.now, [{ field: 'status', mock: 200, target: 418 }], 0);
  const status = groupBytes('getRun', 'status', 200, 418);
  assert.equal([a.report().bytes, b.report().bytes, server.driftBudget.used], [status, status, 2 * status]);
  // Without a shadow server nothing is compared: a record of its own.
  assert.is(driftLog(null).report().max_bytes, DRIFT_MAX_BYTES);
});

test('over HTTP: a sandbox records its own drift, and a dropped sandbox or a reset gives the bytes back', async () => {
  const target = await targetMock();
  target.perturb = (_path, status, body) => ({ status: status === 200 ? 418 : status, body });
  const { mock } = await shadowingMock(target);
  const owner = bearer(DEMO.tokens.owner);
  const sandbox = await mock.control.createSandbox();
  await mock.fetch(RUN, { headers: owner }).then((r) => r.text());
  await mock.fetch(RUN, { headers: { ...owner, 'X-Mock-Sandbox': sandbox.id } }).then((r) => r.text());
  const root = await mock.control.drift({ settled: true });
  const inSandbox = (await (await mock.fetch(`/sandboxes/${sandbox.id}/_mock/drift`)).json()) as { bytes: number; groups: { field: string }[] };
  const status = groupBytes('getRun', 'status', 200, 418);
  assert.equal([root.bytes, inSandbox.bytes], [status, status]);
  assert.equal(
    inSandbox.groups.map((g) => g.field),
    ['status'],
  );
  await mock.control.deleteSandbox(sandbox.id);
  await mock.control.reset();
  assert.is((await mock.control.drift()).bytes, 0);
  await mock.close();
  await target.mock.close();
});

test('a group keeps its first 3 requests by journal id, whatever order their comparisons finish in; a swap counts its bytes', () => {
  const budget = new DriftBudget();
  const log = new DriftLog(null, null, budget);
  const d = [{ field: 'body.a', mock: 'x', target: 'y' }];
  const seen = (id: number | null, operation: string) => log.compared(operation, id, DEMO.now, d, 0);
  const examples = () => log.report().groups[0].examples.map((e) => [e.request_id, e.operation]);
  seen(null, 'getRun');
  seen(9, 'getRun');
  seen(5, 'getRun');
  assert.equal(examples(), [
    [5, 'getRun'],
    [9, 'getRun'],
    [null, 'getRun'],
  ]);
  // Full: a request with an id takes the place of the one without; a later one than all three changes nothing.
  const before = budget.used;
  seen(10, 'getRun');
  assert.equal(examples(), [
    [5, 'getRun'],
    [9, 'getRun'],
    [10, 'getRun'],
  ]);
  assert.is(budget.used, before);
  seen(11, 'listJobs');
  assert.equal(examples(), [
    [5, 'getRun'],
    [9, 'getRun'],
    [10, 'getRun'],
  ]);
  seen(2, 'listJobs');
  assert.equal(examples(), [
    [2, 'listJobs'],
    [5, 'getRun'],
    [9, 'getRun'],
  ]);
  const withOps = 160 + 'body.a'.length + 3 + 3 + (8 + 'getRun'.length) + (8 + 'listJobs'.length);
  assert.is(budget.used, withOps + 3 * 48 + 'listJobs'.length + 2 * 'getRun'.length);
  seen(1, 'getRun');
  assert.equal(examples(), [
    [1, 'getRun'],
    [2, 'listJobs'],
    [5, 'getRun'],
  ]);
  assert.is(budget.used, withOps + 3 * 48 + 'listJobs'.length + 2 * 'getRun'.length);
  seen(3, 'getRun'); // replaces #5 by #3: the same operation, the same bytes
  assert.equal(examples(), [
    [1, 'getRun'],
    [2, 'listJobs'],
    [3, 'getRun'],
  ]);
  assert.is(log.report().bytes, budget.used);
  assert.is(log.report().groups[0].count, 8);
  // A shorter operation in the place of a longer one gives the difference back.
  const other = new DriftLog(null, null, budget);
  const d2 = [{ field: 'body.b', mock: 'x', target: 'y' }];
  for (const id of [5, 6, 7]) other.compared('listJobs', id, DEMO.now, d2, 0);
  other.compared('getRun', 1, DEMO.now, d2, 0);
  assert.equal(
    other.report().groups[0].examples.map((e) => [e.request_id, e.operation]),
    [
      [1, 'getRun'],
      [5, 'listJobs'],
      [6, 'listJobs'],
    ],
  );
  const otherOps = 160 + 'body.b'.length + 3 + 3 + (8 + 'listJobs'.length) + (8 + 'getRun'.length);
  assert.is(other.report().bytes, otherOps + 3 * 48 + 2 * 'listJobs'.length + 'getRun'.length);
  log.clear();
  other.clear();
  assert.is(budget.used, 0);
});

test.run();
