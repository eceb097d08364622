// A refused fault document is a 422 whose items each name the field, say what is wrong and carry the value given at that field (p99_ms's own value, not the median's); a body needs a status even beside a rate_limit (a 429 has its own body); and every problem found is an item, in the order of the fields, nothing added.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../../helpers/app.js';

const item = (loc: (string | number)[], msg: string, input: unknown) => ({
  type: 'value_error',
  loc: ['body', ...loc],
  msg: `Value error, ${msg}`,
  input,
  ctx: { error: {} },
});

async function refused(doc: object) {
  const { http } = await freshMock();
  const res = await http.post('/_mock/faults').send(doc);
  assert.is(res.status, 422, JSON.stringify(res.body));
  assert.equal((await http.get('/_mock/faults')).body, { items: [] }, 'nothing added');
  return res.body.detail;
}

test('delay_ms: the item of a p99_ms under the median carries p99_ms, that of a max_ms under min_ms carries max_ms', async () => {
  assert.equal(await refused({ path: '/x', delay_ms: { distribution: 'lognormal', median_ms: 40, p99_ms: 39 } }), [
    item(['delay_ms', 'p99_ms'], 'p99_ms must not be less than median_ms', 39),
  ]);
  assert.equal(await refused({ path: '/x', delay_ms: { distribution: 'uniform', min_ms: 10, max_ms: 9 } }), [
    item(['delay_ms', 'max_ms'], 'max_ms must not be less than min_ms', 9),
  ]);
});

test('body: a body beside a rate_limit and no status is refused at body (the 429 answers its own)', async () => {
  assert.equal(await refused({ path: '/x', rate_limit: { requests: 1, per_ms: 1000 }, body: { detail: 'slow down' } }), [
    item(['body'], 'A fault body needs a status', { detail: 'slow down' }),
  ]);
  // Headers beside a rate_limit are taken: they are added to its 429.
  const { http } = await freshMock();
  const ok = await http.post('/_mock/faults').send({ path: '/x', rate_limit: { requests: 1, per_ms: 1000 }, headers: { 'X-Why': 'quota' } });
  assert.is(ok.status, 200, JSON.stringify(ok.body));
});

test('every problem of a document is an item, in the order of its fields', async () => {
  assert.equal(await refused({ path: '/x', body: 'late', bytes_per_s: 10, delay_ms: { distribution: 'uniform', min_ms: 5, max_ms: 4 } }), [
    item(['body'], 'A fault body needs a status', 'late'),
    item(['bytes_per_s'], 'bytes_per_s goes with transport slow_body', 10),
    item(['delay_ms', 'max_ms'], 'max_ms must not be less than min_ms', 4),
  ]);
  assert.equal(await refused({ path: '/x', rate_limit: { requests: 1, per_ms: 10 }, after: 1, probability: 0.5 }), [
    item(['after'], 'after does not apply to a rate_limit (every matching request counts)', 1),
    item(['probability'], 'probability does not apply to a rate_limit (every matching request counts)', 0.5),
  ]);
});

test.run();
