// A secret that only the target's answer carries (a secret-named field or header) is redacted wherever the drift shows it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO, bearer } from '../helpers/demo.js';
import { shadowingMock, targetMock, type Target } from '../helpers/shadow.js';
import { REDACTED } from '../../src/control/redact.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const BODY_SECRET = 'tgt-body-5e3c71a09d';
const HEADER_SECRET = 'tgt-head-8b24f6e13c';

/** The field the target breaks, as the drift names it: a value outside the contract is drift, and the drift keeps it. */
const CHANGED = 'body.status';
const STATUSES = ['queued', 'running', 'waiting_approval', 'succeeded', 'failed', 'cancelled'];

/** The run as the target answers it: a status no client expects, which echoes `secret`. */
const echoing = (body: unknown, secret: string): Record<string, unknown> => ({ ...(body as object), status: `key ${secret} issued` });

/** Everything the mock keeps of its requests and their drift, as one text. */
function everything(mock: Awaited<ReturnType<typeof shadowingMock>>['mock'], lines: string[]): string {
  return JSON.stringify({ journal: mock.control.requests(), entry: mock.control.journalEntry(1), drift: mock.control.drift(), har: mock.control.har(), lines });
}

/** One read through a mock shadowing `target`: its one difference is the broken status, with the secret redacted. */
async function oneDriftedRead(target: Target, fetch?: Target['fetch']) {
  const { mock, lines } = await shadowingMock(target, fetch ? { fetch } : {});
  await mock.fetch(RUN, { headers: bearer(DEMO.tokens.owner) });
  const report = await mock.control.drift({ settled: true });
  assert.is(report.drifted, 1);
  assert.equal(
    (mock.control.requests()[0].drift ?? []).map((d) => [d.field, d.mock, d.target]),
    [[CHANGED, STATUSES, `key ${REDACTED} issued`]],
  );
  return { mock, lines };
}

test('a secret field of the target answer is redacted where another field of it echoes the value', async () => {
  const target = await targetMock();
  // The target adds a secret field (an extra field is no drift) and echoes its value in a field it breaks.
  target.perturb = (_path, status, body) => ({ status, body: { ...echoing(body, BODY_SECRET), api_key: BODY_SECRET } });
  const { mock, lines } = await oneDriftedRead(target);
  assert.not.ok(everything(mock, lines).includes(BODY_SECRET), 'the target body secret shows somewhere');
});

test('a secret header of the target answer is redacted where its body echoes the value', async () => {
  const target = await targetMock();
  target.perturb = (_path, status, body) => ({ status, body: echoing(body, HEADER_SECRET) });
  // The target also answers with the key in a header of a secret name.
  const fetch: typeof target.fetch = async (input, init) => {
    const res = await target.fetch(input, init);
    const headers = new Headers(res.headers);
    headers.set('x-api-key', HEADER_SECRET);
    return new Response(await res.text(), { status: res.status, headers });
  };
  const { mock, lines } = await oneDriftedRead(target, fetch);
  assert.not.ok(everything(mock, lines).includes(HEADER_SECRET), 'the target header secret shows somewhere');
});

test.run();
