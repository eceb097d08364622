// The client observer's count of requests in flight per principal: the first principal a mock sees and every other one
// are counted apart, each from its own arrivals and departures, an unknown token by its fingerprint, and never below 0.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ClientObserver, Fingerprints, type Arrival } from '../../src/judge/index.js';
import type { ReadView } from '../../src/storage/index.js';

/** Tokens a, b and c belong to principals pa, pb and pc; any other token is unknown. */
const view = {
  get: (c: string, key: string) => (c === 'access_tokens' && 'abc'.includes(key) ? { principal_id: `p${key}` } : undefined),
} as unknown as ReadView;
const observer = () => new ClientObserver(view, new Fingerprints());

test('in flight: the first principal and a second one are counted apart, up and down', () => {
  const o = observer();
  const a1 = o.arrive('Bearer a');
  const a2 = o.arrive('Bearer a');
  const b1 = o.arrive('Bearer b');
  assert.equal([a1.inFlight, a2.inFlight, b1.inFlight], [1, 2, 1]);
  assert.equal([a1.principal, b1.principal], ['pa', 'pb']);
  o.leave(a1);
  assert.is(o.arrive('Bearer a').inFlight, 2);
  assert.is(o.arrive('Bearer b').inFlight, 2);
  o.leave(b1);
  assert.is(o.arrive('Bearer b').inFlight, 2);
  // A third principal starts at 1 whatever the others hold.
  assert.is(o.arrive('Bearer c').inFlight, 1);
});

test('in flight: every request answered brings each principal back to 0, and more leaves than arrivals stay at 0', () => {
  const o = observer();
  const held: Arrival[] = [];
  for (const t of ['a', 'b', 'a', 'b', 'a']) held.push(o.arrive(`Bearer ${t}`));
  assert.equal(
    held.map((h) => h.inFlight),
    [1, 1, 2, 2, 3],
  );
  for (const h of held) o.leave(h);
  assert.is(o.arrive('Bearer a').inFlight, 1);
  assert.is(o.arrive('Bearer b').inFlight, 1);
  const extraA = { principal: 'pa', inFlight: 1, key: 'pa' };
  const extraB = { principal: 'pb', inFlight: 1, key: 'pb' };
  for (let i = 0; i < 3; i++) {
    o.leave(extraA);
    o.leave(extraB);
  }
  assert.is(o.arrive('Bearer a').inFlight, 1);
  assert.is(o.arrive('Bearer b').inFlight, 1);
});

test('in flight: the second principal seen first is counted as first, and an unknown token by its fingerprint', () => {
  const o = observer();
  const b = o.arrive('Bearer b');
  const x1 = o.arrive('Bearer unknown');
  const x2 = o.arrive('Bearer unknown');
  const y = o.arrive('Bearer other-unknown');
  assert.equal([b.inFlight, x1.inFlight, x2.inFlight, y.inFlight], [1, 1, 2, 1]);
  assert.equal([x1.principal, x1.key === x2.key, x1.key === y.key], [null, true, false]);
  assert.ok(x1.key!.startsWith('token:'));
  o.leave(x1);
  assert.is(o.arrive('Bearer unknown').inFlight, 2);
  assert.is(o.arrive('Bearer b').inFlight, 2);
});

test('in flight: a request without a bearer token is not counted, and its leave changes no count', () => {
  const o = observer();
  const none = o.arrive(undefined);
  assert.equal(none, { principal: null, inFlight: 0, key: null });
  assert.equal(o.arrive('Basic abc').inFlight, 0);
  const a = o.arrive('Bearer a');
  o.leave(none);
  assert.is(a.inFlight, 1);
  assert.is(o.arrive('Bearer a').inFlight, 2);
});

test.run();
