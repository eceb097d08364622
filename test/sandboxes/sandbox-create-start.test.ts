// What a sandbox starts from and how the list pages: a create's clock freezes there with no offset whatever its base's clock was, a simulation with only a speed still sets it, a snapshot's settings come with it, and a list without a limit pages by 50, each item's base_url on the origin the list was asked at.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { demoFixture } from '../../src/fixtures.js';

test('a create with clock starts frozen there with offset 0, also from a snapshot of a running clock that was advanced', async () => {
  // The server's clock runs (its fixture has no `now`), moved a day ahead: an offset of 86,400,000 ms.
  const { now: _now, ...running } = demoFixture() as Record<string, unknown>;
  const m = await freshMock({ fixtures: running as never });
  const advanced = await m.http.post('/_mock/clock').send({ advance_ms: 86_400_000 });
  assert.equal([advanced.body.frozen_at, advanced.body.offset_ms], [null, 86_400_000], advanced.text);
  await m.http.post('/_mock/snapshots').send({ name: 'ahead' }).expect(201);
  const at = '2031-05-05T05:05:05Z';
  const expected = { now: '2031-05-05T05:05:05.000Z', frozen_at: '2031-05-05T05:05:05.000Z', offset_ms: 0 };
  for (const body of [{ snapshot: 'ahead', clock: { now: at } }, { clock: { now: at } }]) {
    const sb = await m.mock.control.createSandbox(body);
    const clock = await m.http.get(`/sandboxes/${sb.id}/_mock/clock`);
    assert.equal([clock.status, clock.body], [200, expected], JSON.stringify(body));
  }
  await m.mock.close();
});

test('a create with a simulation of only a speed (or only traffic) sets it; the mode stays off', async () => {
  const m = await freshMock();
  const fast = await m.mock.control.createSandbox({ simulation: { speed: 4 } });
  const sim = (await m.http.get(`/sandboxes/${fast.id}/_mock/simulation`)).body;
  assert.equal([sim.mode, sim.speed], ['off', 4]);
  assert.is((await m.http.get('/_mock/simulation')).body.speed, 1, 'the default mock keeps its speed');
  const plain = await m.mock.control.createSandbox({});
  assert.is((await m.http.get(`/sandboxes/${plain.id}/_mock/simulation`)).body.speed, 1);
  await m.mock.close();
});

test('a sandbox from a snapshot holds the snapshot settings (admin key and broker secret), as one from the base does', async () => {
  const m = await freshMock();
  await m.http.post('/_mock/snapshots').send({ name: 'keys' }).expect(201);
  const keysOf = async (id: string) => {
    const state = await m.http.get(`/sandboxes/${id}/_mock/state`);
    assert.is(state.status, 200, state.text);
    return Object.keys(state.body.settings ?? {}).sort();
  };
  const fromSnapshot = await m.mock.control.createSandbox({ snapshot: 'keys' });
  const fromBase = await m.mock.control.createSandbox({});
  assert.equal(await keysOf(fromBase.id), ['admin_key', 'broker_secret']);
  assert.equal(await keysOf(fromSnapshot.id), ['admin_key', 'broker_secret']);
  await m.mock.close();
});

test('a list without a limit pages by 50 (51 sandboxes: 50 then 1, newest first), base_url on the asking origin', async () => {
  const m = await freshMock();
  const ids: string[] = [];
  for (let i = 0; i < 51; i++) ids.push((await m.mock.control.createSandbox({ name: `n${i}` })).id);
  const first = await m.http.get('/_mock/sandboxes');
  assert.is(first.status, 200);
  assert.is(first.body.items.length, 50);
  assert.type(first.body.next_cursor, 'string');
  const second = await m.http.get('/_mock/sandboxes').query({ cursor: first.body.next_cursor });
  assert.is(second.body.items.length, 1);
  assert.is(second.body.next_cursor, null);
  const listed = [...first.body.items, ...second.body.items].map((s: { id: string }) => s.id);
  assert.equal(listed, [...ids].reverse());
  const inProcess = await m.mock.control.sandboxes();
  assert.is(inProcess.items.length, 50);
  // Each listed base_url is the origin the list was asked at, as a create's and a get's are.
  const atHost = await m.http.get('/_mock/sandboxes').query({ limit: 2 }).set('Host', 'localhost:4321');
  assert.equal(
    atHost.body.items.map((s: { base_url: string }) => s.base_url),
    [ids[50], ids[49]].map((id) => `http://localhost:4321/sandboxes/${id}`),
  );
  const one = await m.http.get(`/_mock/sandboxes/${ids[0]}`).set('Host', 'localhost:4321');
  assert.is(one.body.base_url, `http://localhost:4321/sandboxes/${ids[0]}`);
  await m.mock.close();
});

test.run();
