// Shadow mode keeps its token out of everything it records, and a sandbox's drift belongs to that sandbox.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO, bearer } from '../helpers/demo.js';
import { SHADOW_TOKEN, shadowingMock, targetMock } from '../helpers/shadow.js';
import { REDACTED } from '../../src/control/redact.js';

const P = DEMO.projects.support;
const RUN = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;

test('the shadow token is in no journal entry, drift record or notice line, wherever it shows', async () => {
  const target = await targetMock();
  // The target echoes the token it was sent, in a field without a secret name and in a changed value.
  target.perturb = (_path, status, body) => ({ status: status === 200 ? 299 : status, body: { ...(body as object), note: `you sent ${SHADOW_TOKEN}` } });
  let now = Date.parse('2030-01-01T00:00:00Z');
  const { mock, lines } = await shadowingMock(target, { now: () => now, retryMs: 1 }, { controlToken: 'control-token-123456' });
  // A client that happens to send the shadow token: in a query (nothing else in the entry names it), a header, a body.
  await mock.fetch(`${RUN}?trace=${SHADOW_TOKEN}`, { headers: bearer(DEMO.tokens.owner) });
  await mock.fetch(RUN, { headers: bearer(SHADOW_TOKEN) });
  await mock.fetch(RUN, { headers: bearer(DEMO.tokens.owner) });
  await mock.fetch(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}/cancel`, {
    method: 'POST',
    headers: { ...bearer(DEMO.tokens.operator), 'Content-Type': 'application/json' },
    body: JSON.stringify({ reason: SHADOW_TOKEN }),
  });
  const report = await mock.control.drift({ settled: true });
  assert.ok(report.drifted >= 1, 'the changed status was recorded');
  // The target goes down: notice lines name the target and a code, not the token.
  target.down = true;
  await mock.fetch(RUN, { headers: bearer(DEMO.tokens.owner) });
  await mock.control.drift({ settled: true });
  now += 61_000;
  await mock.fetch(RUN, { headers: bearer(DEMO.tokens.owner) });
  await mock.control.drift({ settled: true });
  assert.is(lines.length, 2);
  target.down = false;
  now += 2;
  await mock.fetch(RUN, { headers: bearer(DEMO.tokens.owner) });
  await mock.control.drift({ settled: true });
  assert.is(lines.length, 3);
  const everything = JSON.stringify({
    journal: mock.control.requests(),
    entries: [1, 2, 3, 4].map((id) => mock.control.journalEntry(id)),
    drift: mock.control.drift(),
    har: mock.control.har(),
    lines,
  });
  assert.not.ok(everything.includes(SHADOW_TOKEN), 'the shadow token shows somewhere');
  assert.not.ok(everything.includes('control-token-123456'), 'the control token shows somewhere');
  // It was redacted where it showed, not dropped.
  assert.equal(mock.control.journalEntry(1).query, { trace: REDACTED });
  const echoed = mock.control.requests().flatMap((e) => e.drift ?? []);
  assert.ok(echoed.length > 0);
  // The target did get it, as the bearer token, and only there.
  assert.ok(target.sent.every((s) => s.authorization === `Bearer ${SHADOW_TOKEN}`));
});

test('a sandbox: its requests are shadowed, and their drift is its own, not the default mock', async () => {
  const target = await targetMock();
  target.perturb = (_path, status, body) => ({ status: status + 1, body });
  const { mock } = await shadowingMock(target);
  const sandbox = await mock.control.createSandbox({});
  await mock.fetch(`/sandboxes/${sandbox.id}${RUN}`, { headers: bearer(DEMO.tokens.owner) });
  await mock.fetch(RUN, { headers: { ...bearer(DEMO.tokens.owner), 'X-Mock-Sandbox': sandbox.id } });
  const own = mock.control.sandboxControl(sandbox.id);
  const inSandbox = await own.drift({ settled: true });
  assert.is(inSandbox.compared, 2);
  assert.is(inSandbox.groups[0].count, 2);
  assert.equal(
    inSandbox.groups[0].examples.map((e) => e.request_id),
    [1, 2],
  );
  assert.equal(own.journalEntry(1).drift, [{ field: 'status', mock: 200, target: 201 }]);
  const root = mock.control.drift();
  assert.equal([root.compared, root.groups.length], [0, 0]);
  // The target got the path without the sandbox's prefix, and not the sandbox header.
  assert.equal(
    target.sent.map((s) => s.path),
    [RUN, RUN],
  );
  assert.ok(target.sent.every((s) => !('x-mock-sandbox' in s.headers)));
  // Over HTTP, under the sandbox's prefix.
  const res = await mock.fetch(`/sandboxes/${sandbox.id}/_mock/drift`);
  assert.equal(await res.json(), own.drift());
});

test.run();
