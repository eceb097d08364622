// Which requests name a sandbox: only a target that starts with /sandboxes/, a header that is not blank, and a host that is one label then .localhost (not a name that merely contains it); forms that agree are one sandbox, and a conflict's message names each id given, path then header then host, each cut to 64 characters.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IncomingMessage } from 'node:http';
import { addressOf } from '../../src/sandboxes/index.js';
import { ApiError } from '../../src/errors.js';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const req = (url: string, headers: Record<string, string> = {}) => ({ url, headers }) as unknown as IncomingMessage;

/** The refusal addressOf throws for `url` and `headers` (or 'not refused'). */
function refusal(url: string, headers: Record<string, string>) {
  try {
    addressOf(req(url, headers));
  } catch (err) {
    assert.instance(err, ApiError);
    return [(err as ApiError).status, (err as ApiError).body()];
  }
  return 'not refused';
}

const conflict = (...ids: string[]) => [
  400,
  { detail: { reason_code: 'sandbox_conflict', message: `The request names different sandboxes: ${ids.join(', ')}` } },
];

const DEFAULT_MOCK: [string, Record<string, string>][] = [
  // /sandboxes/ further along the path is part of an ordinary target.
  ['/api/v3/sandboxes/abc', {}],
  ['/x/sandboxes/abc/api', {}],
  ['/_mock/requests?path=/sandboxes/abc/api', {}],
  // A blank header names nothing.
  ['/api', { 'x-mock-sandbox': '' }],
  ['/api', { 'x-mock-sandbox': '   ' }],
  // A host that contains .localhost without ending in it is not *.localhost.
  ['/api', { host: 'abc.localhost.example.com' }],
  ['/api', { host: 'abc.localhost.example.com:4010' }],
  ['/api', { host: 'abc.localhostx' }],
  ['/api', { host: 'localhost:4010' }],
];

for (const [url, headers] of DEFAULT_MOCK) {
  test(`names no sandbox: ${url} ${JSON.stringify(headers)}`, () => {
    assert.is(addressOf(req(url, headers)), null);
  });
}

test('forms that agree name one sandbox: path and host, header and host, all three', () => {
  assert.equal(addressOf(req('/sandboxes/abc/api', { host: 'abc.localhost:4010' })), { id: 'abc', url: '/api', prefix: '/sandboxes/abc' });
  assert.equal(addressOf(req('/api', { 'x-mock-sandbox': 'abc', host: 'abc.localhost' })), { id: 'abc', url: '/api', prefix: '' });
  assert.equal(addressOf(req('/sandboxes/abc?q=1', { 'x-mock-sandbox': 'abc', host: 'abc.localhost' })), {
    id: 'abc',
    url: '/?q=1',
    prefix: '/sandboxes/abc',
  });
});

test('a conflict names each id given, in the order path, header, host', () => {
  assert.equal(refusal('/api', { 'x-mock-sandbox': 'hdr', host: 'hst.localhost' }), conflict('hdr', 'hst'));
  assert.equal(refusal('/sandboxes/pth/api', { host: 'hst.localhost' }), conflict('pth', 'hst'));
  assert.equal(refusal('/sandboxes/pth/api', { 'x-mock-sandbox': 'hdr', host: 'hst.localhost' }), conflict('pth', 'hdr', 'hst'));
  // Two of three agree: still a conflict, and the agreeing id is named for each form that gave it.
  assert.equal(refusal('/sandboxes/pth/api', { 'x-mock-sandbox': 'pth', host: 'hst.localhost' }), conflict('pth', 'pth', 'hst'));
});

test('a conflict shows at most 64 characters of each id (an id of exactly 64 is shown whole)', () => {
  const path = `${'p'.repeat(63)}1`;
  const header = `${'h'.repeat(63)}2`;
  const host = `${'s'.repeat(63)}3`;
  assert.equal(refusal(`/sandboxes/${path}tail/api`, { 'x-mock-sandbox': `${header}more`, host: `${host}rest.localhost` }), conflict(path, header, host));
  assert.equal(refusal(`/sandboxes/${path}/api`, { 'x-mock-sandbox': header }), conflict(path, header));
});

test('over HTTP: a blank header and a host under another domain reach the default mock; a long conflict is cut', async () => {
  const m = await freshMock();
  const clock = { now: DEMO.now, frozen_at: DEMO.now, offset_ms: 0 };
  const blank = await m.http.get('/_mock/clock').set('X-Mock-Sandbox', '  ');
  assert.equal([blank.status, blank.body], [200, clock]);
  const run = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}`;
  const deeper = await m.http.get(run).set(bearer(DEMO.tokens.owner)).set('Host', 'abc.localhost.example.com');
  assert.equal([deeper.status, deeper.body.id], [200, DEMO.runs.waitingApproval], deeper.text);
  const path = 'a'.repeat(70);
  const header = 'b'.repeat(70);
  const res = await m.http.get(`/sandboxes/${path}/_mock/clock`).set('X-Mock-Sandbox', header);
  assert.equal([res.status, res.body], conflict('a'.repeat(64), 'b'.repeat(64)));
  await m.mock.close();
});

test.run();
