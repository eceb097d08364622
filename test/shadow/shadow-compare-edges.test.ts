// What a compared request records at the edges: differences before warnings on its entry, an answer over 1 MiB not compared (one of exactly 1 MiB is), a field path redacted like values.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO, bearer } from '../helpers/demo.js';
import { shadowingMock, targetMock } from '../helpers/shadow.js';
import { boundedDrift } from '../../src/shadow/middleware.js';
import { REDACTED, Redactor } from '../../src/control/redact.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const owner = bearer(DEMO.tokens.owner);
const MIB = 1024 * 1024;

test('a request with a difference and a warning: the difference first on its entry, and it counts as drifted', async () => {
  const target = await targetMock();
  target.perturb = (_path, status, body) => {
    delete (body as Record<string, unknown>).trace_id;
    delete (body as Record<string, unknown>).status;
    return { status, body };
  };
  const { mock } = await shadowingMock(target);
  await mock.fetch(RUN, { headers: owner });
  const report = await mock.control.drift({ settled: true });
  assert.equal(mock.control.journalEntry(1).drift, [
    { field: 'body.status', mock: 'present (required)', target: 'absent' },
    { field: 'body.trace_id', mock: 'present', target: 'absent', level: 'warning' },
  ]);
  assert.equal([report.compared, report.drifted, report.same], [1, 1, 0]);
});

test('an answer over 1 MiB is not read nor compared (skipped.not_comparable); one of exactly 1 MiB is compared', async () => {
  const target = await targetMock();
  const sizes = [MIB, MIB + 1];
  const { mock } = await shadowingMock({
    ...target,
    fetch: async () => new Response(JSON.stringify('x'.repeat(sizes.shift()! - 2)), { status: 200, headers: { 'content-type': 'application/json' } }),
  });
  await mock.fetch(RUN, { headers: owner });
  await mock.control.drift({ settled: true });
  await mock.fetch(RUN, { headers: owner });
  const report = await mock.control.drift({ settled: true });
  assert.equal([report.compared, report.drifted, report.skipped], [1, 1, { method: 0, fault: 0, not_comparable: 1 }]);
  assert.ok(mock.control.journalEntry(1).drift!.length > 0);
  assert.is(mock.control.journalEntry(2).drift, undefined);
});

test('a credential in a field path is replaced as in a value', () => {
  const redactor = new Redactor({ has: () => false, fixed: ['shadow-token-abcdef'] });
  assert.equal(boundedDrift([{ field: 'body.keys.shadow-token-abcdef', mock: 'present', target: 'absent' }], redactor), [
    { field: `body.keys.${REDACTED}`, mock: 'present', target: 'absent' },
  ]);
});

test.run();
