// The operation a fault's match.operation is compared with is the one the route table would reach: every literal segment of its path (the first, `api`, too) and its method must be the request's, so a request of another method or under another prefix has no operation, and a getRun fault does not fire on it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { operationOf } from '../../../src/control/faults/operation-of.js';
import { freshMock } from '../../helpers/app.js';
import { DEMO, bearer } from '../../helpers/demo.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const owner = bearer(DEMO.tokens.owner);

test("operationOf: the method and every literal segment must be the operation's", () => {
  assert.is(operationOf('GET', RUN), 'getRun');
  // Only GET has an operation on a run's path.
  for (const method of ['DELETE', 'PATCH', 'PUT', 'POST']) assert.is(operationOf(method, RUN), null, method);
  // The first segment counts as the others do.
  assert.is(operationOf('GET', RUN.replace('/api/', '/apx/')), null);
  assert.is(operationOf('GET', RUN.replace('/v3/', '/v4/')), null);
});

test('a getRun fault fires on GET of a run only: not on DELETE of it, nor on the same path under /apx', async () => {
  const { mock } = await freshMock();
  mock.control.addFault({ match: { operation: 'getRun' }, status: 503 });
  const status = async (method: string, path: string) => (await mock.fetch(path, { method, headers: owner })).status;
  assert.is(await status('GET', RUN), 503);
  assert.is(await status('DELETE', RUN), 405);
  assert.is(await status('GET', RUN.replace('/api/', '/apx/')), 404);
  assert.equal(
    mock.control.requests().map((e) => [e.method, e.status, e.fault?.id ?? null]),
    [
      ['GET', 503, 'flt_1'],
      ['DELETE', 405, null],
      ['GET', 404, null],
    ],
  );
});

test.run();
