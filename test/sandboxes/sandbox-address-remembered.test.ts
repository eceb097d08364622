// Addresses remembered by target: the same answer as the parse for every path form, one object per target while it is
// remembered (with its caller's sandbox and route), targets of up to 256 characters only, and at 1,024 targets the
// memory starts again empty.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IncomingMessage } from 'node:http';
import { addressOf, pathAddresses } from '../../src/sandboxes/index.js';

const req = (url: string) => ({ url, headers: {} }) as unknown as IncomingMessage;

const URLS = [
  '/sandboxes/abc/api/v3/projects',
  '/sandboxes/abc?x=1/y',
  '/sandboxes/abc/p?q=/r',
  '/sandboxes/abc',
  '/sandboxes/abc/',
  '/sandboxes/a',
  '/sandboxes//api',
  '/sandboxes/?x',
];

test('remembered address: the same as the parse, the first time and when remembered', () => {
  const at = pathAddresses();
  for (const url of URLS) {
    assert.equal(at(url), { ...addressOf(req(url)), found: undefined, routed: undefined }, url);
    assert.equal(at(url), { ...addressOf(req(url)), found: undefined, routed: undefined }, `${url} (remembered)`);
  }
});

test('remembered address: a target is one object while remembered, with what its caller found and routed', () => {
  const at = pathAddresses<string, string>();
  const first = at(URLS[0]);
  assert.is(at(URLS[0]), first);
  assert.is.not(at(URLS[1]), first);
  first.found = 'sandbox';
  first.routed = 'route';
  assert.equal([at(URLS[0]).found, at(URLS[0]).routed], ['sandbox', 'route']);
  assert.equal([at(URLS[1]).found, at(URLS[1]).routed], [undefined, undefined]);
});

/** A target of exactly `n` characters naming sandbox `id`. */
const ofLength = (id: string, n: number) => {
  const head = `/sandboxes/${id}/`;
  return head + 'x'.repeat(n - head.length);
};

test('remembered address: 256 characters are remembered, 257 parsed each time', () => {
  const at = pathAddresses();
  const at256 = ofLength('abc', 256);
  const at257 = ofLength('abc', 257);
  assert.is(at256.length, 256);
  assert.is(at(at256), at(at256));
  assert.is.not(at(at257), at(at257));
  assert.equal(at(at257), { id: 'abc', url: at257.slice('/sandboxes/abc'.length), prefix: '/sandboxes/abc', found: undefined, routed: undefined });
});

test('remembered address: 1,024 targets are kept, the 1,025th starts the memory again', () => {
  const at = pathAddresses();
  const first = at('/sandboxes/s0/api');
  for (let i = 1; i < 1024; i++) at(`/sandboxes/s${i}/api`);
  // 1,024 remembered: the first is still the same object.
  assert.is(at('/sandboxes/s0/api'), first);
  const last = at('/sandboxes/s1023/api');
  at('/sandboxes/s1024/api'); // the 1,025th: the memory is emptied, then it alone is kept
  const again = at('/sandboxes/s0/api');
  assert.is.not(again, first);
  assert.equal(again, first);
  assert.is.not(at('/sandboxes/s1023/api'), last);
});

test.run();
