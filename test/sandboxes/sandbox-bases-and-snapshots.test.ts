// Sandboxes on different bases: one from what the server started with, one from a snapshot, one from the same name
// saved again. Field lookups (the approvals of a project) answer from each sandbox's own base and writes, never from
// another base's index; a snapshot saved again under a name is what the next sandbox starts from.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);

test("sandboxes on three bases: lookups by project answer from each one's base; a name saved again starts the next sandbox", async () => {
  const m = await freshMock();
  const approvals = async (prefix: string) =>
    ((await m.http.get(`${prefix}/api/v3/projects/${P}/approvals?limit=100`).set(owner).expect(200)).body.items as { id: string }[]).map((a) => a.id).sort();
  const waitingRun = async (prefix: string) => {
    const run = (await m.http.post(`${prefix}/_mock/projects/${P}/runs`).send({ status: 'waiting_approval' }).expect(200)).body;
    return run;
  };
  const base = await approvals('');
  await waitingRun('');
  const once = await approvals('');
  assert.is(once.length, base.length + 1);
  await m.http.post('/_mock/snapshots').send({ name: 's' }).expect(201);

  const fromSnapshot = (await m.http.post('/_mock/sandboxes').send({ snapshot: 's' }).expect(201)).body.id;
  const fromStart = (await m.http.post('/_mock/sandboxes').send({}).expect(201)).body.id;
  assert.equal(await approvals(`/sandboxes/${fromSnapshot}`), once);
  assert.equal(await approvals(`/sandboxes/${fromStart}`), base);

  // The same name saved again: the next sandbox starts from the new save; the one made before keeps the old.
  await waitingRun('');
  const twice = await approvals('');
  assert.is(twice.length, base.length + 2);
  await m.http.post('/_mock/snapshots').send({ name: 's' }).expect(201);
  const fromResave = (await m.http.post('/_mock/sandboxes').send({ snapshot: 's' }).expect(201)).body.id;
  assert.equal(await approvals(`/sandboxes/${fromResave}`), twice);
  assert.equal(await approvals(`/sandboxes/${fromSnapshot}`), once);

  // A write in one sandbox shows in its own lookups only.
  await waitingRun(`/sandboxes/${fromSnapshot}`);
  const written = await approvals(`/sandboxes/${fromSnapshot}`);
  assert.is(written.length, base.length + 2);
  assert.equal(await approvals(`/sandboxes/${fromResave}`), twice);
  assert.equal(await approvals(`/sandboxes/${fromStart}`), base);
  assert.equal(await approvals(''), twice);
  // The new approval in the first sandbox is its own, not the one the default mock made.
  assert.equal(written.filter((id) => !once.includes(id)).length, 1);
  assert.not.ok(twice.includes(written.find((id) => !once.includes(id))!));
});

test('a snapshot saved again under a name: its restore puts back the newer state', async () => {
  const m = await freshMock();
  await m.http.post('/_mock/clock').send({ now: '2031-01-01T00:00:00.000Z' }).expect(200);
  await m.http.post('/_mock/snapshots').send({ name: 'n' }).expect(201);
  await m.http.post('/_mock/clock').send({ now: '2032-01-01T00:00:00.000Z' }).expect(200);
  await m.http.post('/_mock/snapshots').send({ name: 'n' }).expect(201);
  assert.is((await m.http.get('/_mock/snapshots')).body.items.length, 1);
  await m.http.post('/_mock/clock').send({ now: '2033-01-01T00:00:00.000Z' }).expect(200);
  await m.http.post('/_mock/snapshots/n/restore').expect(200);
  assert.is((await m.http.get('/_mock/clock')).body.now, '2032-01-01T00:00:00.000Z');
  const sb = (await m.http.post('/_mock/sandboxes').send({ snapshot: 'n' }).expect(201)).body.id;
  assert.is((await m.http.get(`/sandboxes/${sb}/_mock/clock`)).body.now, '2032-01-01T00:00:00.000Z');
});

test.run();
