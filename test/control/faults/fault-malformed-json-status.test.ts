// transport "malformed_json" always answers 200 with Content-Type application/json, whatever the handler answered: a request the handler refuses (404 for a run that does not exist) gets a 200 whose body is the first half of the handler's 404 body, and the journal records that 200.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';

const MISSING = `/api/v3/projects/${DEMO.projects.support}/runs/00000000-0000-4000-8000-000000000000`;
const owner = bearer(DEMO.tokens.owner);

test('malformed_json over a 404: a 200 application/json carrying the first half of the 404 body', async () => {
  const { mock } = await freshMock();
  const refused = await mock.fetch(MISSING, { headers: owner });
  assert.is(refused.status, 404);
  const real = await refused.text();
  mock.control.clearRequests();
  mock.control.addFault({ method: 'GET', path: MISSING, transport: 'malformed_json' });
  const res = await mock.fetch(MISSING, { headers: owner });
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^application\/json/);
  const text = await res.text();
  assert.is(text, real.slice(0, Math.floor(real.length / 2)));
  assert.throws(() => JSON.parse(text));
  assert.equal(
    mock.control.requests().map((e) => [e.status, e.fault]),
    [[200, { id: 'flt_1', transport: 'malformed_json' }]],
  );
});

test.run();
