// The fault bound of one mock: 1,000 faults and 1 MiB in all (a rate limit adding 8 bytes per request it counts).
// At the bound an add is taken; one past it is 409 `fault_limit` and changes nothing; room comes back after a clear,
// a reset, or a fault that fired out. A sandbox has a bound of its own; a bundle past the bound is refused whole.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';

const COUNT = 1000;
const BYTES = 1024 * 1024;
const LIMIT_BODY = {
  detail: {
    reason_code: 'fault_limit',
    message: `A mock holds at most ${COUNT} faults of ${BYTES} bytes in all; clear some first (DELETE /_mock/faults)`,
  },
};
const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;

/** A status fault's document as the mock keeps it (method and path filled in): what the byte bound counts. */
const statusFault = (path: string, body?: string) => ({ method: '*', path, status: 503, ...(body === undefined ? {} : { body }) });
/** The body text that makes `statusFault(path, body)` exactly `bytes` long as JSON. */
const bodyFilling = (path: string, bytes: number) => 'x'.repeat(bytes - JSON.stringify(statusFault(path, '')).length);

test('fault bound by count: the 1,000th is taken, the 1,001st is 409 fault_limit and changes nothing', async () => {
  const { mock, http } = await freshMock();
  for (let i = 1; i < COUNT; i++) mock.control.addFault({ path: `/never/${i}`, status: 500 });
  const last = await http.post('/_mock/faults').send({ path: '/never/last', status: 500 });
  assert.equal([last.status, last.body.id], [200, `flt_${COUNT}`]);
  const before = (await http.get('/_mock/faults')).body;
  const refused = await http.post('/_mock/faults').send({ path: '/never/one-more', status: 500 });
  assert.is(refused.status, 409);
  assert.equal(refused.body, LIMIT_BODY);
  assert.equal((await http.get('/_mock/faults')).body, before, 'nothing changed');
  // The refused add took no id: after a clear the next fault gets the one it would have had.
  assert.equal((await http.delete('/_mock/faults')).body, { cleared: COUNT });
  const again = await http.post('/_mock/faults').send({ path: '/never/again', status: 500 });
  assert.equal([again.status, again.body.id], [200, `flt_${COUNT + 1}`]);
});

test('fault bound by bytes: a fault that fills the bound exactly is taken, one byte past it is 409', async () => {
  const { http } = await freshMock();
  // A rate limit counts its document and 8 bytes per request its window may hold.
  const rate = { method: '*', path: '/rl/**', rate_limit: { requests: 100_000, per_ms: 1000 } };
  const rateBytes = JSON.stringify(rate).length + 100_000 * 8;
  assert.is((await http.post('/_mock/faults').send(rate)).status, 200);
  const left = BYTES - rateBytes;
  const over = await http.post('/_mock/faults').send(statusFault('/big', bodyFilling('/big', left + 1)));
  assert.is(over.status, 409);
  assert.equal(over.body, LIMIT_BODY);
  assert.is((await http.get('/_mock/faults')).body.items.length, 1, 'nothing added');
  const exact = await http.post('/_mock/faults').send(statusFault('/big', bodyFilling('/big', left)));
  assert.is(exact.status, 200);
  // Full to the byte: even the smallest fault is refused.
  const smallest = await http.post('/_mock/faults').send({ status: 500 });
  assert.equal([smallest.status, smallest.body], [409, LIMIT_BODY]);
});

test('fault bound: a fault that fired out gives its room back, and reset empties the registry', async () => {
  const { mock, http } = await freshMock();
  for (let i = 1; i < COUNT; i++) mock.control.addFault({ path: `/never/${i}`, status: 500 });
  assert.is((await http.post('/_mock/faults').send({ method: 'GET', path: RUN, status: 503, times: 1 })).status, 200);
  assert.is((await http.post('/_mock/faults').send({ status: 500 })).status, 409);
  assert.is((await http.get(RUN).set(bearer(DEMO.tokens.owner))).status, 503);
  const room = await http.post('/_mock/faults').send({ path: '/never/room', status: 500 });
  assert.equal([room.status, room.body.id], [200, `flt_${COUNT + 1}`]);
  assert.is((await http.post('/_mock/faults').send({ status: 500 })).status, 409);
  await http.post('/_mock/reset').expect(200);
  assert.equal((await http.get('/_mock/faults')).body, { items: [] });
  assert.is((await http.post('/_mock/faults').send({ path: '/after-reset', status: 500 })).status, 200);
});

test('fault bound by bytes: a fault that fired out gives its bytes back', async () => {
  const { http } = await freshMock();
  // One fault of exactly the bound that fires once, on the next GET of a run.
  const filling = { ...statusFault(RUN, ''), method: 'GET', times: 1 };
  filling.body = 'x'.repeat(BYTES - JSON.stringify(filling).length);
  assert.is((await http.post('/_mock/faults').send(filling)).status, 200);
  assert.is((await http.post('/_mock/faults').send({ status: 500 })).status, 409);
  assert.is((await http.get(RUN).set(bearer(DEMO.tokens.owner))).status, 503);
  assert.equal((await http.get('/_mock/faults')).body, { items: [] });
  const again = { ...filling, path: '/again' };
  again.body = 'x'.repeat(BYTES - JSON.stringify({ ...again, body: '' }).length);
  assert.is((await http.post('/_mock/faults').send(again)).status, 200);
});

test('fault bound: each sandbox has its own, and a full default mock does not stop a sandbox', async () => {
  const { mock, http } = await freshMock();
  for (let i = 0; i < COUNT; i++) mock.control.addFault({ path: `/never/${i}`, status: 500 });
  assert.is((await http.post('/_mock/faults').send({ status: 500 })).status, 409);
  const sb = (await http.post('/_mock/sandboxes').send({}).expect(201)).body;
  const inSandbox = await http.post(`/sandboxes/${sb.id}/_mock/faults`).send({ status: 500 });
  assert.equal([inSandbox.status, inSandbox.body.id], [200, 'flt_1']);
});

test('fault bound: a bundle holding more faults than the bound is a 422 at faults.faults, and nothing changes', async () => {
  const { mock, http } = await freshMock({ seed: 'fault-bound' });
  mock.control.addFault({ path: '/kept', status: 500 });
  const bundle = (await http.get('/_mock/bundle')).body;
  const one = bundle.faults.faults[0];
  bundle.faults = { next_id: COUNT + 2, faults: Array.from({ length: COUNT + 1 }, (_, i) => ({ ...one, id: `flt_${i + 1}`, path: `/f/${i}` })) };
  const before = (await http.get('/_mock/faults')).body;
  const refused = await http.put('/_mock/bundle').send(bundle);
  assert.is(refused.status, 422);
  assert.equal(refused.body.detail, [
    {
      type: 'value_error',
      loc: ['body', 'faults', 'faults'],
      msg: `Value error, A mock holds at most ${COUNT} faults of ${BYTES} bytes in all`,
      input: COUNT + 1,
      // FastAPI shows the ValueError itself as an empty object.
      ctx: { error: {} },
    },
  ]);
  assert.equal((await http.get('/_mock/faults')).body, before);
  // At the bound it is taken.
  bundle.faults.faults.pop();
  assert.is((await http.put('/_mock/bundle').send(bundle)).status, 200);
  assert.is((await http.get('/_mock/faults')).body.items.length, COUNT);
});

test.run();
