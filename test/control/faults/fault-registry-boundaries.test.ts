// What a mock's faults keep across a clear and a bundle: ids go on after a clear, a clear gives back every byte, a bundle's rate-limit window costs nothing against the byte bound, and a delay is drawn for the match it fires on.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';

const BYTES = 1024 * 1024;
const owner = bearer(DEMO.tokens.owner);
const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;

/** A status fault on `path` whose document as the mock keeps it (method filled in) is exactly `bytes` long as JSON. */
const filling = (path: string, bytes: number) => {
  const f = { method: '*', path, status: 503, body: '' };
  return { ...f, body: 'x'.repeat(bytes - JSON.stringify(f).length) };
};

test('fault ids: a clear keeps the id counter (the bundle says next_id 3 after two faults and a clear; the next is flt_3)', async () => {
  const { http } = await freshMock();
  await http.post('/_mock/faults').send({ path: '/a', status: 500 }).expect(200);
  await http.post('/_mock/faults').send({ path: '/b', status: 500 }).expect(200);
  assert.equal((await http.delete('/_mock/faults')).body, { cleared: 2 });
  assert.equal((await http.get('/_mock/bundle')).body.faults, { next_id: 3, faults: [] });
  const next = await http.post('/_mock/faults').send({ path: '/c', status: 500 });
  assert.equal([next.status, next.body.id], [200, 'flt_3']);
});

test('fault bound by bytes: a clear gives back every byte (a fault of the whole bound is taken again after it)', async () => {
  const { http } = await freshMock();
  assert.is((await http.post('/_mock/faults').send(filling('/one', BYTES))).status, 200);
  assert.is((await http.post('/_mock/faults').send({ status: 500 })).status, 409);
  assert.equal((await http.delete('/_mock/faults')).body, { cleared: 1 });
  assert.is((await http.post('/_mock/faults').send(filling('/two', BYTES))).status, 200);
});

test('fault bound by bytes: a bundle filling the bound exactly, a rate-limit window with times in it included, is taken; one byte more is 422', async () => {
  const { http } = await freshMock({ seed: 'bundle-bytes' });
  const rate = { method: 'GET', path: RUN, rate_limit: { requests: 1000, per_ms: 60_000 } };
  const rateBytes = JSON.stringify(rate).length + 1000 * 8;
  await http.post('/_mock/faults').send(rate).expect(200);
  for (let i = 0; i < 3; i++) await http.get(RUN).set(owner).expect(200);
  await http
    .post('/_mock/faults')
    .send(filling('/fill', BYTES - rateBytes))
    .expect(200);
  const bundle = (await http.get('/_mock/bundle')).body;
  assert.is(bundle.faults.faults[0].window.length, 3, 'the window holds the three requests');
  assert.is((await http.put('/_mock/bundle').send(bundle)).status, 200, 'exactly the bound');
  bundle.faults.faults[1].body += 'x';
  const over = await http.put('/_mock/bundle').send(bundle);
  assert.is(over.status, 422);
  assert.equal(over.body.detail[0].loc, ['body', 'faults', 'faults']);
});

test('delay distributions: a fault with `after` waits the draw of the match it fires on (the same as without `after` on that match)', async () => {
  const delays = async (after: number) => {
    const { mock } = await freshMock({ seed: 'delay-by-match' });
    mock.control.addFault({ method: 'GET', path: RUN, after, delay_ms: { distribution: 'uniform', min_ms: 0, max_ms: 40 } });
    for (let i = 0; i < 2; i++) await mock.fetch(RUN, { headers: owner });
    return mock.control.requests().map((e) => e.fault?.delay_ms ?? null);
  };
  const [first, second] = await delays(0);
  assert.is.not(first, second, 'the two matches draw differently under this seed');
  assert.equal(await delays(1), [null, second]);
});

test.run();
