// The fault registry's snapshot and restore: remaining counts and hits travel with the faults, and ids continue.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const owner = bearer(DEMO.tokens.owner);

test('snapshot: the faults with their remaining counts; restore brings them back into another mock', async () => {
  const a = await freshMock();
  a.mock.control.addFault({ method: 'GET', path: RUN, status: 503, times: 3 });
  a.mock.control.addFault({ method: 'POST', path: '/api/**', delay_ms: 5 });
  assert.is((await a.mock.fetch(RUN, { headers: owner })).status, 503);
  const snap = a.mock.control.faultRegistry.snapshot();
  assert.equal(JSON.parse(JSON.stringify(snap)), snap, 'plain JSON');
  assert.is(snap.next_id, 3);
  assert.equal(
    snap.faults.map((f) => [f.id, f.remaining, f.hits]),
    [
      ['flt_1', 2, 1],
      ['flt_2', null, 0],
    ],
  );

  const b = await freshMock();
  b.mock.control.addFault({ method: 'GET', path: '/other', status: 500 });
  b.mock.control.faultRegistry.restore(snap);
  assert.equal(b.mock.control.faults(), a.mock.control.faults());
  assert.is((await b.mock.fetch(RUN, { headers: owner })).status, 503);
  assert.is((await b.mock.fetch(RUN, { headers: owner })).status, 503);
  assert.is((await b.mock.fetch(RUN, { headers: owner })).status, 200, 'the remaining count came along: 2 left, not 3');
  assert.is(b.mock.control.addFault({ method: 'GET', path: '/x', status: 500 }).id, 'flt_3');
  // The snapshot is a copy: using the restored faults did not change it.
  assert.is(snap.faults[0].remaining, 2);
});

test.run();
