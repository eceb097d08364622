// How a request names its sandbox: the id runs from /sandboxes/ to the next '/' or '?', the rest is the target it is
// served as, and a header or host naming another sandbox is a conflict.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IncomingMessage } from 'node:http';
import { addressOf } from '../../src/sandboxes/index.js';
import { ApiError } from '../../src/errors.js';

const req = (url: string, headers: Record<string, string> = {}) => ({ url, headers }) as unknown as IncomingMessage;

const CASES: [string, Record<string, string>, ReturnType<typeof addressOf>][] = [
  ['/sandboxes/abc/api/v3/projects', {}, { id: 'abc', url: '/api/v3/projects', prefix: '/sandboxes/abc' }],
  ['/sandboxes/abc?x=1/y', {}, { id: 'abc', url: '/?x=1/y', prefix: '/sandboxes/abc' }],
  ['/sandboxes/abc/p?q=/r', {}, { id: 'abc', url: '/p?q=/r', prefix: '/sandboxes/abc' }],
  ['/sandboxes/abc', {}, { id: 'abc', url: '/', prefix: '/sandboxes/abc' }],
  ['/sandboxes/abc/', {}, { id: 'abc', url: '/', prefix: '/sandboxes/abc' }],
  ['/sandboxes/a', {}, { id: 'a', url: '/', prefix: '/sandboxes/a' }],
  ['/sandboxes//api', {}, { id: '', url: '/api', prefix: '/sandboxes/' }],
  ['/sandboxes/?x', {}, { id: '', url: '/?x', prefix: '/sandboxes/' }],
  ['/api/v3/projects', {}, null],
  ['/sandboxesabc/api', {}, null],
  ['/api', { 'x-mock-sandbox': ' abc ' }, { id: 'abc', url: '/api', prefix: '' }],
  ['/api', { host: 'abc.localhost:8080' }, { id: 'abc', url: '/api', prefix: '' }],
  ['/api', { host: 'ABC.LOCALHOST:8080' }, { id: 'abc', url: '/api', prefix: '' }],
  ['/api', { host: 'abc.LocalHost.' }, { id: 'abc', url: '/api', prefix: '' }],
  ['/api', { host: 'a.b.localhost' }, null],
  // An empty label names no sandbox: the default mock.
  ['/api', { host: '.localhost' }, null],
  ['/api', { host: '.localhost:4010' }, null],
  ['/sandboxes/abc/api', { 'x-mock-sandbox': 'abc', host: 'abc.localhost' }, { id: 'abc', url: '/api', prefix: '/sandboxes/abc' }],
];

for (const [url, headers, expected] of CASES) {
  test(`sandbox address: ${url} ${JSON.stringify(headers)}`, () => {
    assert.equal(addressOf(req(url, headers)), expected);
  });
}

for (const headers of [{ 'x-mock-sandbox': 'abd' }, { host: 'abd.localhost' }] as Record<string, string>[]) {
  test(`sandbox address: /sandboxes/abc with ${JSON.stringify(headers)} is a conflict`, () => {
    const err = (() => {
      try {
        addressOf(req('/sandboxes/abc/api', headers));
      } catch (e) {
        return e;
      }
    })();
    assert.instance(err, ApiError);
    assert.is((err as ApiError).reason_code, 'sandbox_conflict');
  });
}

test.run();
