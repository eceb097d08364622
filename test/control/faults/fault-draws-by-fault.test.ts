// Probability and delay draws are keyed by the fault and its match number: two faults of the same probability or the same delay distribution, matched as often, draw independently (they do not fire on the same matches or wait the same), and one fault's draws do not depend on another being there.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';

const P = DEMO.projects.support;
const A = `/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}`;
const B = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;
const owner = bearer(DEMO.tokens.owner);
const TIMES = 40;

/** A seeded mock with one fault per path (`faultOn` in order), each path requested TIMES times in turn: what each answered. */
async function run(faultOn: string[], fault: object) {
  const { mock } = await freshMock({ seed: 'draws-by-fault' });
  for (const path of faultOn) mock.control.addFault({ method: 'GET', path, ...fault });
  for (let i = 0; i < TIMES; i++) for (const path of [A, B]) await mock.fetch(path, { headers: owner });
  const byPath = (path: string) => mock.control.requests().filter((e) => e.path === path);
  return { mock, byPath };
}

test('probability: two faults of probability 0.5 fire on different matches, and each fires on its own as with the other there', async () => {
  const { byPath } = await run([A, B], { probability: 0.5, status: 503 });
  const fired = (path: string) => byPath(path).map((e) => e.status === 503);
  const a = fired(A);
  const b = fired(B);
  assert.is(a.length, TIMES);
  assert.ok(a.some(Boolean) && !a.every(Boolean), 'some fire, some do not');
  assert.not.equal(a, b, 'flt_1 and flt_2 draw apart');
  // flt_2 alone on B (no fault on A): B's second fault would be flt_1, so add one on another path first.
  const alone = await run(['/elsewhere', B], { probability: 0.5, status: 503 });
  assert.equal(
    alone.byPath(B).map((e) => e.status === 503),
    b,
  );
});

test('delay distributions: two faults of the same uniform delay wait differently on the same match numbers', async () => {
  const { byPath } = await run([A, B], { delay_ms: { distribution: 'uniform', min_ms: 0, max_ms: 20 } });
  const waited = (path: string) => byPath(path).map((e) => e.fault?.delay_ms);
  assert.is(waited(A).length, TIMES);
  assert.not.equal(waited(A), waited(B));
});

test.run();
