// The answer comparator: status, error envelope, reason code, next_action, validation items, the response schema
// (required, nullable, value sets, extra fields compatible) and the diff fingerprint, each on real answers of a mock.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { compareAnswers, envelopeOf, responseSchema, type Answer } from '../../src/conformance/index.js';
import { openApiDocument } from '../../src/document/build.js';
import { DEMO, bearer } from '../helpers/demo.js';

const P = DEMO.projects.support;
let mock: MockApp;

async function answer(path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await mock.fetch(path, { ...init, headers: { ...bearer(DEMO.tokens.owner), ...(init.headers as Record<string, string>) } });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.json() };
}
const copy = (a: Answer): Answer & { body: any } => structuredClone(a);

test.before(async () => {
  mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
});

test('the same answer twice: no difference, nothing compatible', async () => {
  for (const [op, path] of [
    ['getRun', `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`],
    ['listUsers', `/api/v3/projects/${P}/users?limit=3`],
    ['diffRelease', `/api/v3/projects/${P}/releases/${DEMO.releases.gen2}/diff`],
    ['getRun', `/api/v3/projects/${P}/runs/not-a-uuid`],
    ['listJobs', `/api/v3/projects/00000000-0000-4000-8000-000000000000/jobs`],
  ] as const) {
    const a = await answer(path);
    assert.equal(compareAnswers(op, a, copy(a)), { differences: [], compatible: [], warnings: [] }, `${op} ${path}`);
  }
});

test('a different status is the only difference reported (the bodies answer different questions)', async () => {
  const a = await answer(`/api/v3/projects/${P}/runs/not-a-uuid`);
  const t = copy(a);
  t.status = 401;
  t.body = { detail: { reason_code: 'token_invalid', message: 'x', next_action: 'authenticate' } };
  assert.equal(compareAnswers('getRun', a, t).differences, [{ field: 'status', mock: 422, target: 401 }]);
});

test('error envelopes: kind, reason code and next_action presence; the message text is data', async () => {
  const a = await answer(`/api/v3/projects/00000000-0000-4000-8000-000000000000/jobs`);
  assert.is(a.status, 404);
  assert.is(envelopeOf(a.body), 'management envelope');
  const renamed = copy(a);
  renamed.body.detail.reason_code = 'project_missing';
  renamed.body.detail.message = 'Another text';
  assert.equal(compareAnswers('listJobs', a, renamed).differences, [
    { field: 'body.detail.reason_code', mock: 'project_not_found', target: 'project_missing' },
  ]);
  const items = copy(a);
  items.body = { detail: [{ type: 'missing', loc: ['path', 'project_id'], msg: 'Field required', input: null }] };
  assert.equal(compareAnswers('listJobs', a, items).differences, [{ field: 'body.detail', mock: 'management envelope', target: 'validation items' }]);

  const unauth: Answer = await (async () => {
    const res = await mock.fetch(`/api/v3/projects/${P}/jobs`);
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.json() };
  })();
  assert.is(unauth.status, 401);
  const noAction = copy(unauth);
  delete noAction.body.detail.next_action;
  // Named once, as the envelope's rule (not again as a dropped field).
  assert.equal(compareAnswers('listJobs', unauth, noAction), {
    differences: [{ field: 'body.detail.next_action', mock: 'present', target: 'absent' }],
    compatible: [],
    warnings: [],
  });
  const noChallenge = copy(unauth);
  noChallenge.headers = Object.fromEntries(Object.entries(unauth.headers).filter(([k]) => k !== 'www-authenticate'));
  assert.equal(compareAnswers('listJobs', unauth, noChallenge).differences, [{ field: 'headers.www-authenticate', mock: 'present', target: 'absent' }]);
  const extra = copy(unauth);
  extra.body.detail.trace = 'abc';
  assert.equal(compareAnswers('listJobs', unauth, extra), {
    differences: [],
    compatible: [{ field: 'body.detail.trace', mock: 'absent', target: 'abc' }],
    warnings: [],
  });
});

test('validation items: compared in order on type, loc, msg and ctx; input only when it is the probe own', async () => {
  const a = await answer(`/api/v3/projects/${P}/budget`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ project_daily_usd: 'lots', clear: 'maybe' }),
  });
  assert.is(a.status, 422);
  const items = a.body as { detail: { type: string; loc: unknown[] }[] };
  assert.ok(items.detail.length >= 2);
  const reordered = copy(a);
  reordered.body.detail.reverse();
  const order = items.detail.map((i) => `${i.type} at ${JSON.stringify(i.loc)}`);
  assert.equal(compareAnswers('setBudget', a, reordered).differences, [{ field: 'body.detail[].order', mock: order, target: [...order].reverse() }]);
  const otherType = copy(a);
  otherType.body.detail[1].type = 'float_type';
  assert.equal(compareAnswers('setBudget', a, otherType).differences, [{ field: 'body.detail[1].type', mock: items.detail[1].type, target: 'float_type' }]);
  const otherInput = copy(a);
  otherInput.body.detail[0].input = 'something else';
  assert.equal(compareAnswers('setBudget', a, otherInput).differences, []);
  assert.equal(
    compareAnswers('setBudget', a, otherInput, { ownInput: true }).differences.map((d) => d.field),
    ['body.detail[0].input'],
  );
  const fewer = copy(a);
  fewer.body.detail.pop();
  assert.equal(
    compareAnswers('setBudget', a, fewer).differences.map((d) => d.field),
    ['body.detail'],
  );
});

test('success bodies against the document: required, renamed, nullable, value sets, patterns; extra keys compatible', async () => {
  const run = await answer(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`);
  const renamed = copy(run);
  renamed.body.state = renamed.body.status;
  delete renamed.body.status;
  assert.equal(compareAnswers('getRun', run, renamed), {
    differences: [{ field: 'body.status', mock: 'present (required)', target: 'absent' }],
    compatible: [{ field: 'body.state', mock: 'absent', target: run.body && (run.body as { status: string }).status }],
    warnings: [],
  });
  // An optional field the target dropped is a warning; a required one (above) a difference.
  const noTrace = copy(run);
  delete noTrace.body.trace_id;
  assert.ok(Object.hasOwn(run.body as object, 'trace_id'));
  assert.equal(compareAnswers('getRun', run, noTrace), {
    differences: [],
    compatible: [],
    warnings: [{ field: 'body.trace_id', mock: 'present', target: 'absent' }],
  });
  const newValue = copy(run);
  newValue.body.status = 'paused';
  assert.equal(compareAnswers('getRun', run, newValue).differences, [
    { field: 'body.status', mock: ['queued', 'running', 'waiting_approval', 'succeeded', 'failed', 'cancelled'], target: 'paused' },
  ]);
  const nulled = copy(run);
  nulled.body.project_id = null;
  assert.equal(compareAnswers('getRun', run, nulled).differences, [{ field: 'body.project_id', mock: 'not nullable', target: null }]);
  const nullable = copy(run);
  nullable.body.trace_id = null;
  assert.equal(compareAnswers('getRun', run, nullable).differences, []);
  const badId = copy(run);
  badId.body.id = 'run-1';
  assert.equal(compareAnswers('getRun', run, badId).differences, [{ field: 'body.id', mock: 'format uuid', target: 'run-1' }]);

  const page = await answer(`/api/v3/projects/${P}/users?limit=5`);
  const items = copy(page);
  for (const u of items.body.items) u.status = 'dormant';
  delete items.body.next_cursor;
  // One difference per field, however many items carry it.
  assert.equal(compareAnswers('listUsers', page, items).differences, [
    { field: 'body.next_cursor', mock: 'present (required)', target: 'absent' },
    { field: 'body.items[].status', mock: ['active', 'deleted'], target: 'dormant' },
  ]);
});

test('the diff fingerprint is recomputed from the returned changes (sorted, canonical JSON, SHA-256)', async () => {
  const diff = await answer(`/api/v3/projects/${P}/releases/${DEMO.releases.gen2}/diff?baseline_release_id=${DEMO.releases.gen1}`);
  assert.is(diff.status, 200);
  const body = diff.body as { changes: unknown[]; semantic_diff_fingerprint: string };
  assert.ok(body.changes.length > 0);
  const wrong = copy(diff);
  const bad = createHash('sha256').update('not the changes').digest('hex');
  wrong.body.semantic_diff_fingerprint = bad;
  assert.equal(compareAnswers('diffRelease', diff, wrong).differences, [
    { field: 'body.semantic_diff_fingerprint', mock: 'SHA-256 of the canonical JSON of the sorted changes', target: 'another value' },
  ]);
  // The same changes in another order have the same fingerprint: the order of the list is not the fingerprint's.
  const shuffled = copy(diff);
  shuffled.body.changes.reverse();
  assert.equal(compareAnswers('diffRelease', diff, shuffled).differences, []);
  const notHex = copy(diff);
  notHex.body.semantic_diff_fingerprint = 'ABC';
  assert.equal(
    compareAnswers('diffRelease', diff, notHex).differences.map((d) => d.field),
    ['body.semantic_diff_fingerprint'],
  );
});

test('a 201 location header and a 503 Retry-After must be present on both sides; other bodies are "other"', () => {
  const created: Answer = { status: 201, headers: { Location: '/api/v3/projects/p/runs/r' }, body: {} };
  const none: Answer = { status: 201, headers: {}, body: {} };
  assert.equal(compareAnswers('noSuchOperation', created, none).differences, [{ field: 'headers.location', mock: 'present', target: 'absent' }]);
  assert.equal(compareAnswers('noSuchOperation', none, created).differences, [{ field: 'headers.location', mock: 'absent', target: 'present' }]);
  const busy: Answer = { status: 503, headers: { 'retry-after': '1' }, body: { detail: { reason_code: 'storage_unavailable', message: 'x' } } };
  assert.equal(compareAnswers('getRun', busy, { ...busy, headers: {} }).differences, [{ field: 'headers.retry-after', mock: 'present', target: 'absent' }]);
  assert.is(envelopeOf({ detail: 'Not Found' }), 'other');
  assert.is(envelopeOf({ detail: {} }), 'other');
  assert.is(envelopeOf('text'), 'other');
  assert.is(envelopeOf({ detail: [] }), 'validation items');
  const html: Answer = { status: 404, headers: {}, body: '<html>' };
  assert.equal(compareAnswers('getRun', { ...busy, status: 404, headers: {} }, html).differences, [
    { field: 'body.detail', mock: 'management envelope', target: 'other' },
  ]);
});

test('responseSchema finds an operation answer by status, through $refs, and nothing for an undeclared one', () => {
  const doc = openApiDocument(false);
  assert.equal(responseSchema(doc, 'getRun', 200), { $ref: '#/components/schemas/RunDetailResponseV3' });
  assert.equal(responseSchema(doc, 'getRun', 404), { $ref: '#/components/schemas/ManagementErrorV3' });
  assert.is(responseSchema(doc, 'getRun', 418), undefined);
  assert.is(responseSchema(doc, 'noSuchOperation', 200), undefined);
});

test.run();
