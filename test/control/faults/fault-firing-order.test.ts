// Which fault answers a request: the first added that matches and fires, so one that matches but does not fire (its `after` not passed, its probability missed, its rate limit letting the request through) leaves the request to the next; a fault cleared or fired out after a request looked it up does not fire for it; a method given in lowercase matches as the capitals it is kept in; and what addFault and faults() return are copies taken then.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FaultRegistry } from '../../../src/control/faults/registry.js';
import { validFault } from '../../../src/control/faults/validate.js';
import type { RequestFacts } from '../../../src/control/faults/match.js';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const owner = bearer(DEMO.tokens.owner);
const facts = (path: string): RequestFacts => ({ method: 'GET', path, query: {}, headers: {}, principal: () => null });

async function statuses(faults: object[], n: number) {
  const { mock } = await freshMock({ seed: 'firing-order' });
  for (const f of faults) mock.control.addFault({ method: 'GET', path: RUN, ...f });
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await mock.fetch(RUN, { headers: owner })).status);
  return { mock, out };
}

test('a first fault whose `after` has not passed leaves the request to the next fault', async () => {
  const { out } = await statuses([{ after: 2, status: 503 }, { status: 418 }], 4);
  assert.equal(out, [418, 418, 503, 503]);
});

test('a first fault of probability 0 leaves every request to the next fault', async () => {
  const { mock, out } = await statuses(
    [
      { probability: 0, status: 503 },
      { status: 418, times: 2 },
    ],
    3,
  );
  assert.equal(out, [418, 418, 200]);
  assert.equal(
    mock.control.faults().map((f) => [f.id, f.matched, f.hits]),
    [['flt_1', 3, 0]],
  );
});

test('a rate limit that lets a request through leaves it to the next fault; its 429s answer the rest', async () => {
  const { out } = await statuses([{ rate_limit: { requests: 2, per_ms: 60_000 } }, { status: 418 }], 4);
  assert.equal(out, [418, 418, 429, 429]);
});

test('a method given in lowercase is kept in capitals and matches the request', async () => {
  const { mock, out } = await statuses([{ method: 'get', status: 503, times: 1 }], 2);
  assert.equal(out, [503, 200]);
  const { mock: other } = await freshMock();
  assert.is(other.control.addFault({ method: 'post', path: '/x', status: 500 }).method, 'POST');
  assert.equal(mock.control.faults(), []);
});

test('a fault cleared after a request looked it up does not fire for that request', () => {
  const reg = new FaultRegistry('seed', { nowMs: () => 0 });
  reg.add(validFault({ method: 'GET', path: '/a', status: 503 }));
  const looked = reg.candidates('GET', '/a');
  assert.is(looked.length, 1);
  assert.is(reg.clear(), 1);
  assert.is(reg.fire(looked, facts('/a')), undefined);
});

test('a fault of times: 1 fires once for two requests that looked it up before either fired', () => {
  const reg = new FaultRegistry('seed', { nowMs: () => 0 });
  reg.add(validFault({ method: 'GET', path: '/a', status: 503, times: 1 }));
  const first = reg.candidates('GET', '/a');
  const second = reg.candidates('GET', '/a');
  assert.is(reg.fire(first, facts('/a'))?.status, 503);
  assert.is(reg.fire(second, facts('/a')), undefined);
  assert.equal(reg.list(), []);
});

test('addFault and faults() return copies: firing later does not change what they returned', async () => {
  const { mock } = await freshMock();
  const added = mock.control.addFault({ method: 'GET', path: RUN, status: 503, times: 3 });
  const listed = mock.control.faults();
  await mock.fetch(RUN, { headers: owner });
  assert.equal([added.remaining, added.hits, added.matched], [3, 0, 0]);
  assert.equal([listed[0].remaining, listed[0].hits, listed[0].matched], [3, 0, 0]);
  const now = mock.control.faults()[0];
  assert.equal([now.remaining, now.hits, now.matched], [2, 1, 1]);
});

test.run();
