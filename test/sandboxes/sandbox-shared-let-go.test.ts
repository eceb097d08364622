// A shared sandbox (PostgreSQL) as an instance lets its copy go: on a delete from another instance, on the instance's close, and on a create refused after its mock was built; requests in flight are answered first, then the copy's mock closes (its journal and its place in the metrics go with it), and a refused create leaves no row.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { MockApp } from '../../src/app.js';
import { ApiError } from '../../src/errors.js';
import { dropCreated, needsPostgres } from '../helpers/postgres.js';
import { UNKNOWN_BINDING_422, UNKNOWN_BINDING_CREATE, sandboxesOpened } from '../helpers/sandbox-refused.js';
import { apps, call, create, instances, P, rows } from '../helpers/postgres-sandboxes.js';

needsPostgres();
test.after(async () => {
  await Promise.all(apps.splice(0).map((m) => m.close().catch(() => {})));
  await dropCreated();
});

const BUDGET = `/api/v3/projects/${P}/budget`;
const turn = () => new Promise<void>((r) => setImmediate(r));
const gone = (id: string) => ({
  detail: { reason_code: 'sandbox_not_found', message: 'No such sandbox: never created, deleted, or expired.', affected_resource: `sandbox:${id}` },
});

/** Sandboxes this instance has open, and has opened in all. */
const opened = sandboxesOpened;

/** A budget PUT to sandbox `id` through `app`, held by a delay fault until the sandbox ends; resolves once it is in flight. */
async function heldWrite(app: MockApp, id: string) {
  const control = app.control.sandboxControl(id);
  control.addFault({ method: 'PUT', path: BUDGET, delay_ms: 60_000, times: 1 });
  const order: string[] = [];
  const answer = call(app, 'PUT', `/sandboxes/${id}${BUDGET}`, { project_daily_usd: 77 }).then((r) => (order.push('held answered'), r));
  // In flight once its fault has fired (the delay is then under way).
  while (control.faults().length > 0) await turn();
  return { control, answer, order };
}

/** The 404 an in-process control gives once the instance holds no copy of the sandbox. */
function notHeld(app: MockApp, id: string): unknown {
  try {
    app.control.sandboxControl(id);
    return 'still held';
  } catch (err) {
    return err instanceof ApiError ? err.body() : err;
  }
}

test('a delete through another instance while a write is held: the write answers 404 first, then the holder closes its copy, journal and all', async () => {
  const {
    live: [a, b],
  } = await instances(2);
  const sb = await create(a);
  const held = await heldWrite(a, sb.id);
  assert.equal(await opened(a), [{ '': 1 }, { '': 1 }]);
  const del = await call(b, 'DELETE', `/_mock/sandboxes/${sb.id}`);
  held.order.push('deleted');
  assert.equal([del.status, del.body], [200, { deleted: true, id: sb.id }]);
  const answer = await held.answer;
  assert.equal([answer.status, answer.body], [404, gone(sb.id)]);
  assert.equal(held.order, ['held answered', 'deleted']);
  // The holder's copy closed after the held write was answered: nothing it journalled is kept.
  assert.equal(held.control.requests(), []);
  assert.equal(await opened(a), [{ '': 0 }, { '': 1 }]);
  assert.equal(notHeld(a, sb.id), gone(sb.id));
});

test('an instance that closes lets its copies go: a held write answers 404 before the close resolves, and no copy is held after', async () => {
  const {
    live: [a, b],
  } = await instances(2);
  const sb = await create(a);
  const held = await heldWrite(a, sb.id);
  await a.close();
  held.order.push('closed');
  const answer = await held.answer;
  assert.equal([answer.status, answer.body], [404, gone(sb.id)]);
  assert.equal(held.order, ['held answered', 'closed']);
  assert.equal(held.control.requests(), []);
  assert.equal(notHeld(a, sb.id), gone(sb.id));
  // The sandbox lives on in the storage, for the other instances.
  assert.is((await call(b, 'GET', `/sandboxes/${sb.id}/_mock/clock`)).status, 200);
});

test('a create whose simulation is refused after its mock was built: 422, no row, that mock closed, and the place free', async () => {
  const {
    live: [a],
    schema,
  } = await instances(1, { sandboxes: { max: 1 } });
  const res = await call(a, 'POST', '/_mock/sandboxes', UNKNOWN_BINDING_CREATE);
  assert.equal([res.status, res.body], [422, UNKNOWN_BINDING_422]);
  assert.is(await rows(schema, 'prm_sandboxes'), 0);
  assert.equal(await opened(a), [{ '': 0 }, { '': 1 }], 'built once, and closed');
  const made = await create(a, { name: 'after' });
  assert.is(made.name, 'after');
  assert.is(await rows(schema, 'prm_sandboxes'), 1);
});

test.run();
