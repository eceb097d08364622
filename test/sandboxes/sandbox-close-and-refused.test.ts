// What a server lets go of: closing it drops and closes every sandbox (a request in flight is answered 404 first, never 2xx), and a create whose simulation is refused after its mock was built closes that mock and leaves no sandbox behind.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, type TestMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { UNKNOWN_BINDING_422, UNKNOWN_BINDING_CREATE, sandboxesOpened } from '../helpers/sandbox-refused.js';
import { ApiError } from '../../src/errors.js';

const P = DEMO.projects.support;
const OWNER = bearer(DEMO.tokens.owner);
const BUDGET = `/api/v3/projects/${P}/budget`;
const turn = () => new Promise<void>((r) => setImmediate(r));

const opened = (m: TestMock) => sandboxesOpened(m.mock);

const gone = (id: string) => ({
  detail: { reason_code: 'sandbox_not_found', message: 'No such sandbox: never created, deleted, or expired.', affected_resource: `sandbox:${id}` },
});

test('closing the server closes every sandbox: a write held in flight answers 404 and stores nothing, then the close resolves', async () => {
  const m = await freshMock();
  const [a, b] = [await m.mock.control.createSandbox({}), await m.mock.control.createSandbox({})];
  const controlA = m.mock.control.sandboxControl(a.id);
  controlA.addFault({ method: 'PUT', path: BUDGET, delay_ms: 60_000, times: 1 });
  const before = controlA.exportState().budgets;
  const order: string[] = [];
  const held = m.mock
    .fetch(`/sandboxes/${a.id}${BUDGET}`, {
      method: 'PUT',
      headers: { ...OWNER, 'content-type': 'application/json' },
      body: JSON.stringify({ project_daily_usd: 77 }),
    })
    .then(async (res) => (order.push('held answered'), { status: res.status, body: await res.json() }));
  // In flight once its fault has fired (the delay is then under way).
  while (controlA.faults().length > 0) await turn();
  assert.equal(await opened(m), [{ '': 2 }, { '': 2 }]);
  await m.mock.close().then(() => order.push('closed'));
  assert.equal(await held, { status: 404, body: gone(a.id) });
  assert.equal(order, ['held answered', 'closed']);
  assert.equal(controlA.exportState().budgets, before, 'the held write stored nothing');
  assert.equal(await opened(m), [{ '': 0 }, { '': 2 }], 'both sandboxes were closed');
  assert.equal(await m.mock.control.sandboxes(), { items: [], next_cursor: null });
  for (const id of [a.id, b.id]) {
    try {
      m.mock.control.sandboxControl(id);
      assert.unreachable(`${id} is still found`);
    } catch (err) {
      assert.instance(err, ApiError);
      assert.equal((err as ApiError).body(), gone(id));
    }
  }
});

test('a create whose simulation is refused after its mock was built: 422, that mock closed, no sandbox, and its place free', async () => {
  const m = await freshMock({ sandboxes: { max: 1 } });
  const res = await m.http.post('/_mock/sandboxes').send(UNKNOWN_BINDING_CREATE);
  assert.equal([res.status, res.body], [422, UNKNOWN_BINDING_422]);
  assert.equal(await opened(m), [{ '': 0 }, { '': 1 }], 'built once, and closed');
  assert.equal((await m.http.get('/_mock/sandboxes')).body, { items: [], next_cursor: null });
  // The one place the server allows is free: the next create is made.
  const made = await m.http.post('/_mock/sandboxes').send({ name: 'after' });
  assert.equal([made.status, made.body.name], [201, 'after']);
  assert.equal(await opened(m), [{ '': 1 }, { '': 2 }]);
  await m.mock.close();
});

test.run();
