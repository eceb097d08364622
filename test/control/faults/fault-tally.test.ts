// The server counts the faults all its mocks hold in one tally, and a GET looks a fault up only while it is above 0: the
// tally must equal the faults held after every change (add, exhaustion, clear, restore, a refused restore, a sandbox's
// end), or a fault in one mock would be skipped because another's went.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FaultRegistry, FaultTally, type FaultState } from '../../../src/control/index.js';
import type { FaultBody } from '../../../src/schemas/index.js';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';

const owner = bearer(DEMO.tokens.owner);
const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const clock = { nowMs: () => 0 };
const fault = (path: string, times?: number) => ({ method: 'GET', path, status: 503, ...(times ? { times } : {}) }) as FaultBody;
const held = (...registries: FaultRegistry[]) => registries.reduce((n, r) => n + r.list().length, 0);

test('fault tally: two registries on one tally; it equals the faults both hold after adds, clears and restores', () => {
  const tally = new FaultTally();
  const a = new FaultRegistry('a', clock, undefined, tally);
  const b = new FaultRegistry('b', clock, undefined, tally);
  assert.is(tally.held, 0);
  a.add(fault('/a1'));
  a.add(fault('/a2'));
  b.add(fault('/b1'));
  assert.equal([tally.held, held(a, b)], [3, 3]);
  const two: FaultState = a.snapshot();
  b.restore(two);
  assert.equal([tally.held, held(a, b)], [4, 4]);
  assert.is(a.clear(), 2);
  assert.equal([tally.held, held(a, b)], [2, 2]);
  assert.is(a.clear(), 0);
  assert.is(tally.held, 2);
  b.restore({ next_id: 1, faults: [] });
  assert.equal([tally.held, held(a, b)], [0, 0]);
});

test('fault tally: a refused restore leaves it as it was, and a registry standing alone counts in a tally of its own', () => {
  const tally = new FaultTally();
  const a = new FaultRegistry('a', clock, { count: 2, bytes: 1 << 20 }, tally);
  a.add(fault('/kept'));
  const three = { next_id: 4, faults: [1, 2, 3].map((i) => ({ ...a.snapshot().faults[0], id: `flt_${i}`, path: `/f/${i}` })) };
  assert.throws(() => a.restore(three));
  assert.equal([tally.held, a.list().map((f) => f.path)], [1, ['/kept']]);
  const alone = new FaultRegistry('alone', clock);
  alone.add(fault('/x'));
  assert.is(tally.held, 1);
});

test('fault tally: a fault used up in one sandbox leaves the fault of another firing, and the root answering', async () => {
  const { http } = await freshMock();
  const one = (await http.post('/_mock/sandboxes').send({}).expect(201)).body.id as string;
  const other = (await http.post('/_mock/sandboxes').send({}).expect(201)).body.id as string;
  await http.post(`/sandboxes/${one}/_mock/faults`).send(fault(RUN, 1)).expect(200);
  await http.post(`/sandboxes/${other}/_mock/faults`).send(fault(RUN)).expect(200);
  const status = async (prefix: string) => (await http.get(prefix + RUN).set(owner)).status;
  assert.equal([await status(`/sandboxes/${one}`), await status(`/sandboxes/${one}`)], [503, 200]);
  assert.equal([await status(`/sandboxes/${other}`), await status(`/sandboxes/${other}`), await status('')], [503, 503, 200]);
  // The other sandbox ends with its fault: a fault added at the root afterwards fires, and clearing it ends it.
  await http.delete(`/_mock/sandboxes/${other}`).expect(200);
  await http.post('/_mock/faults').send(fault(RUN)).expect(200);
  assert.equal([await status(''), await status(`/sandboxes/${one}`)], [503, 200]);
  assert.equal((await http.delete('/_mock/faults')).body, { cleared: 1 });
  assert.is(await status(''), 200);
});

test.run();
