// GET /_mock/requests.har: the journal as HAR 1.2, valid against har-schema, redacted, filtered as the journal is, counting what left it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { Har } from 'har-format';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const require = createRequire(import.meta.url);
const schemas = require('har-schema') as Record<string, { $id: string }>;
// har-schema is draft-06 and uses two keywords of its own (`optional`, `min`): strict mode off.
const ajv = new Ajv.default({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
for (const s of Object.values(schemas)) ajv.addSchema(s);
const validHar = ajv.getSchema('har.json#')!;

const P = DEMO.projects.support;
const RUN = DEMO.runs.failedApi;

async function session() {
  const t = await freshMock();
  await t.http.get(`/api/v3/projects/${P}/runs/${RUN}?expand=steps`).set(bearer(DEMO.tokens.owner));
  await t.http.post('/api/v3/auth/token').send({ grant_type: 'refresh_token', refresh_token: 'stolen-refresh-token' });
  await t.http.post('/_mock/faults').send({ method: 'GET', path: '/api/v3/projects/*/jobs', status: 503, body: { detail: 'down' }, times: 1 });
  await t.http.get(`/api/v3/projects/${P}/jobs`).set(bearer(DEMO.tokens.owner));
  await t.http.get(`/api/v3/projects/${P}/runs/00000000-0000-4000-8000-000000000000`).set(bearer(DEMO.tokens.owner));
  return t;
}

test('har: a HAR 1.2 document that har-schema accepts, one entry per journal entry in order', async () => {
  const { mock, http } = await session();
  const res = await http.get('/_mock/requests.har');
  assert.is(res.status, 200);
  assert.match(res.headers['content-disposition'], 'requests.har');
  const har = res.body as Har & { log: { _journal: { entries: number; left: number } } };
  assert.ok(validHar(har), JSON.stringify(validHar.errors));
  assert.not.ok(validHar({ log: { ...har.log, entries: [{ ...har.log.entries[0], timings: {} }] } }), 'the validator refuses an entry without timings');
  assert.is(har.log.version, '1.2');
  assert.is(har.log.creator.name, 'project-runtime-mock');
  const journal = mock.control.requests();
  assert.equal(
    har.log.entries.map((e) => (e as unknown as { _journal_id: number })._journal_id),
    journal.map((e) => e.id),
  );
  assert.equal(
    har.log.entries.map((e) => [e.request.method, new URL(e.request.url).pathname, e.response.status]),
    journal.map((e) => [e.method, e.path, e.status]),
  );
  const [get, token, fault, missing] = har.log.entries;
  assert.equal(get.request.queryString, [{ name: 'expand', value: 'steps' }]);
  assert.match(get.request.url, `/api/v3/projects/${P}/runs/${RUN}?expand=steps`);
  assert.is(get.startedDateTime, DEMO.now);
  assert.equal(JSON.parse(get.response.content.text!), journal[0].response.body);
  assert.is(get.response.statusText, 'OK');
  assert.is(token.request.postData!.mimeType, 'application/json');
  assert.is(fault.response.status, 503);
  assert.match(fault.comment!, 'answered by fault flt_1');
  assert.is(missing.response.statusText, 'Not Found');
  assert.equal(har.log._journal, { entries: 4, left: 0 });
});

test('har: redacted as the journal is (headers, body fields)', async () => {
  const { http } = await session();
  const text = (await http.get('/_mock/requests.har')).text;
  for (const secret of [DEMO.tokens.owner, 'stolen-refresh-token']) assert.not.ok(text.includes(secret), secret);
  const har = JSON.parse(text) as Har;
  assert.equal(
    har.log.entries[0].request.headers.find((h) => h.name === 'authorization'),
    { name: 'authorization', value: '[redacted]' },
  );
  assert.equal(JSON.parse(har.log.entries[1].request.postData!.text!), { grant_type: 'refresh_token', refresh_token: '[redacted]' });
});

test('har: takes the journal filters (status class, path glob, method, after, limit)', async () => {
  const { http } = await session();
  const ids = async (q: string) =>
    ((await http.get(`/_mock/requests.har?${q}`)).body as Har).log.entries.map((e) => (e as unknown as { _journal_id: number })._journal_id);
  assert.equal(await ids('status=4xx'), [2, 4]);
  assert.equal(await ids('status=503'), [3]);
  assert.equal(await ids('path=/api/v3/projects/*/runs/*'), [1, 4]);
  assert.equal(await ids('method=POST'), [2]);
  assert.equal(await ids('after=2'), [3, 4]);
  assert.equal(await ids('limit=1'), [4]);
  const bad = await http.get('/_mock/requests.har?status=abc');
  assert.is(bad.status, 422);
  assert.equal(bad.body.detail[0].loc, ['query', 'status']);
});

test('har: says how many entries had left the bounded journal', async () => {
  const { http } = await freshMock({ journal: { entries: 2 } });
  for (let i = 0; i < 5; i++) await http.get(`/api/v3/projects/${P}/runs/${RUN}`).set(bearer(DEMO.tokens.owner));
  const har = (await http.get('/_mock/requests.har')).body as Har & { log: { _journal: { entries: number; left: number } } };
  assert.equal(har.log._journal, { entries: 2, left: 3 });
  assert.match(har.log.comment!, '3 had left the bounded journal');
  assert.ok(validHar(har));
});

test.run();
