// An Authorization header read once per text: each reader's own rule (authentication's token, the client report's
// token, the slip's shape) on headers at each rule's edges, one object per header while remembered, headers of up to
// 1,024 characters, and 256 at most.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { authorizationReader } from '../../src/bearer.js';

test('each rule reads the header as its reader always has', () => {
  const at = authorizationReader();
  // header, the token authentication takes, the token the report fingerprints, Bearer-shaped once trimmed
  const cases: [string, string | null, string | null, boolean][] = [
    ['Bearer abc', 'abc', 'abc', true],
    ['bearer abc', 'abc', 'abc', true],
    ['BEARER   abc', 'abc', 'abc', true],
    ['Bearer abc  ', 'abc', null, true],
    ['Bearer\tabc', null, 'abc', true],
    ['  Bearer abc', null, null, true],
    ['Bearer a b', null, null, false],
    ['Bearer ', null, null, false],
    ['Bearer', null, null, false],
    ['abc', null, null, false],
    ['Basic YWJj', null, null, false],
    ['', null, null, false],
  ];
  for (const [header, token, reported, bearerShaped] of cases) {
    assert.equal({ ...at(header) }, { token, reported, bearerShaped }, JSON.stringify(header));
    assert.equal({ ...at(header) }, { token, reported, bearerShaped }, `${JSON.stringify(header)} (remembered)`);
  }
});

test('a remembered header is one frozen object; headers of 1,024 characters are remembered, of 1,025 read each time', () => {
  const at = authorizationReader();
  const first = at('Bearer t1');
  assert.is(at('Bearer t1'), first);
  assert.ok(Object.isFrozen(first));
  const of = (n: number) => 'Bearer ' + 'x'.repeat(n - 7);
  assert.is(at(of(1024)), at(of(1024)));
  assert.is.not(at(of(1025)), at(of(1025)));
  assert.is(at(of(1025)).token, 'x'.repeat(1018));
});

test('256 headers are kept; the 257th empties the memory, and every header still reads right', () => {
  const at = authorizationReader();
  const first = at('Bearer t0');
  for (let i = 1; i < 256; i++) at(`Bearer t${i}`);
  assert.is(at('Bearer t0'), first, 'the 256th kept the first');
  at('Bearer t256');
  const again = at('Bearer t0');
  assert.is.not(again, first, 'the 257th emptied the memory');
  assert.equal(again, first);
});

test.run();
