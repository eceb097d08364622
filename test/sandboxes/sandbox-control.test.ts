// Sandbox control: what a create takes (fixtures, snapshot, seed, clock, simulation, ttl_ms) and refuses, list pages,
// delete, time to live, the live bound, named snapshots, the shared journal budget and the control guard.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, type TestMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const P = DEMO.projects.support;
const OWNER = bearer(DEMO.tokens.owner);
const HOUR = 60 * 60 * 1000;

async function create(m: TestMock, body: object = {}) {
  const res = await m.http.post('/_mock/sandboxes').send(body);
  assert.is(res.status, 201, res.text);
  return res.body as { id: string; expires_at: string; ttl_ms: number };
}

/** A fixture of one workspace, one owner and one project (nothing of the demo). */
const TINY = {
  now: '2040-02-02T00:00:00Z',
  workspaces: [{ id: '11111111-1111-4111-8111-111111111111', name: 'tiny' }],
  principals: [
    {
      id: '22222222-2222-4222-8222-222222222222',
      display_name: 'Tiny Owner',
      memberships: [{ workspace_id: '11111111-1111-4111-8111-111111111111', role: 'owner' }],
    },
  ],
  projects: [
    {
      id: '33333333-3333-4333-8333-333333333333',
      workspace_id: '11111111-1111-4111-8111-111111111111',
      slug: 'tiny',
      name: 'Tiny',
      created_at: '2040-01-01T00:00:00Z',
      updated_at: '2040-01-01T00:00:00Z',
    },
  ],
};

test('fixtures: the sandbox holds that document only; the default mock keeps the demo', async () => {
  const m = await freshMock();
  const sb = await create(m, { fixtures: TINY });
  const S = `/sandboxes/${sb.id}`;
  assert.is((await m.http.get(`${S}/_mock/clock`)).body.now, '2040-02-02T00:00:00.000Z');
  const projects = (await m.http.get(`${S}/_mock/projects`)).body.items.map((p: { id: string }) => p.id);
  assert.equal(projects, ['33333333-3333-4333-8333-333333333333']);
  assert.is((await m.http.get(`${S}/api/v3/projects/${P}/jobs`).set(OWNER)).status, 401, 'the demo token is unknown there');
  assert.is((await m.http.get(`/api/v3/projects/${P}/jobs`).set(OWNER)).status, 200);
  // Reset inside the sandbox returns to its own fixtures.
  await m.http.post(`${S}/_mock/clock`).send({ now: '2041-01-01T00:00:00Z' }).expect(200);
  await m.http.post(`${S}/_mock/reset`).expect(200);
  assert.is((await m.http.get(`${S}/_mock/clock`)).body.now, '2040-02-02T00:00:00.000Z');
});

test('refusals of a create are 422 with loc (nothing is created): unknown keys, both fixtures and snapshot, a bad fixture, bad types', async () => {
  const m = await freshMock();
  const cases: [object, unknown[]][] = [
    [{ nmae: 'x' }, [{ type: 'extra_forbidden', loc: ['body', 'nmae'], msg: 'Extra inputs are not permitted', input: 'x', ctx: { did_you_mean: 'name' } }]],
    [
      { clock: { now: '2030-01-01T00:00:00Z', frozen: true } },
      [{ type: 'extra_forbidden', loc: ['body', 'clock', 'frozen'], msg: 'Extra inputs are not permitted', input: true }],
    ],
    [
      { simulation: { mode: 'fast' } },
      [
        {
          type: 'enum',
          loc: ['body', 'simulation', 'mode'],
          msg: "Input should be 'auto', 'step' or 'off'",
          input: 'fast',
          ctx: { expected: "'auto', 'step' or 'off'" },
        },
      ],
    ],
    [{ ttl_ms: 0 }, [{ type: 'greater_than_equal', loc: ['body', 'ttl_ms'], msg: 'Input should be greater than or equal to 1', input: 0, ctx: { ge: 1 } }]],
    [
      { fixtures: TINY, snapshot: 'base' },
      [
        {
          type: 'value_error',
          loc: ['body'],
          msg: 'Value error, Give fixtures or snapshot, not both',
          input: { fixtures: TINY, snapshot: 'base' },
          ctx: { error: {} },
        },
      ],
    ],
  ];
  for (const [body, detail] of cases) {
    const res = await m.http.post('/_mock/sandboxes').send(body);
    assert.equal([res.status, res.body.detail], [422, detail], JSON.stringify(body));
  }
  const badFixture = await m.http.post('/_mock/sandboxes').send({ fixtures: { ...TINY, projects: [{ ...TINY.projects[0], workspace_id: 'nope' }] } });
  assert.is(badFixture.status, 422);
  assert.equal(badFixture.body.detail[0].loc.slice(0, 4), ['body', 'fixtures', 'projects', 0]);
  const unknownSnapshot = await m.http.post('/_mock/sandboxes').send({ snapshot: 'nope' });
  assert.equal([unknownSnapshot.status, unknownSnapshot.body.detail.reason_code], [404, 'snapshot_not_found']);
  assert.equal((await m.http.get('/_mock/sandboxes')).body, { items: [], next_cursor: null });
});

test('seed, clock and simulation at create: seeded ids repeat across sandboxes, the clock is frozen there, the mode is set', async () => {
  const m = await freshMock();
  const a = await create(m, { seed: 'w', clock: { now: '2030-03-03T03:03:03Z' }, simulation: { mode: 'step' } });
  const b = await create(m, { seed: 'w' });
  const runOf = async (id: string) => (await m.http.post(`/sandboxes/${id}/_mock/projects/${P}/runs`).send({})).body.id;
  assert.is(await runOf(a.id), await runOf(b.id), 'one seed, one sequence of ids');
  assert.is.not(await runOf(a.id), await runOf((await create(m)).id));
  assert.equal((await m.http.get(`/sandboxes/${a.id}/_mock/clock`)).body, {
    now: '2030-03-03T03:03:03.000Z',
    frozen_at: '2030-03-03T03:03:03.000Z',
    offset_ms: 0,
  });
  assert.is((await m.http.get(`/sandboxes/${a.id}/_mock/simulation`)).body.mode, 'step');
  assert.is((await m.http.get(`/sandboxes/${b.id}/_mock/simulation`)).body.mode, 'off');
});

test('list: newest first, in pages of limit with next_cursor; get one; delete drops it (then 404 everywhere)', async () => {
  const m = await freshMock();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await create(m, { name: `s${i}` })).id);
  const first = await m.http.get('/_mock/sandboxes?limit=2');
  assert.equal(
    first.body.items.map((s: { name: string }) => s.name),
    ['s4', 's3'],
  );
  const second = await m.http.get(`/_mock/sandboxes?limit=2&cursor=${first.body.next_cursor}`);
  assert.equal(
    second.body.items.map((s: { name: string }) => s.name),
    ['s2', 's1'],
  );
  const third = await m.http.get(`/_mock/sandboxes?limit=2&cursor=${second.body.next_cursor}`);
  assert.equal([third.body.items.map((s: { name: string }) => s.name), third.body.next_cursor], [['s0'], null]);
  assert.is((await m.http.get('/_mock/sandboxes?cursor=forged')).status, 422);
  const one = await m.http.get(`/_mock/sandboxes/${ids[1]}`);
  assert.equal([one.status, one.body.id, one.body.name], [200, ids[1], 's1']);
  const del = await m.http.delete(`/_mock/sandboxes/${ids[1]}`);
  assert.equal([del.status, del.body], [200, { deleted: true, id: ids[1] }]);
  for (const res of [
    await m.http.get(`/_mock/sandboxes/${ids[1]}`),
    await m.http.delete(`/_mock/sandboxes/${ids[1]}`),
    await m.http.get(`/sandboxes/${ids[1]}/_mock/clock`),
  ]) {
    assert.equal([res.status, res.body.detail.reason_code], [404, 'sandbox_not_found']);
  }
  assert.is((await m.http.get('/_mock/sandboxes')).body.items.length, 4);
  // Sandboxes do not nest: inside one, the sandbox routes are not there.
  const nested = await m.http.post(`/sandboxes/${ids[0]}/_mock/sandboxes`).send({});
  assert.equal([nested.status, nested.body.detail.reason_code], [404, 'route_not_found']);
});

test('time to live: a sandbox goes ttl_ms after its last request (each request restarts it), by real time', async () => {
  let now = 1_000_000;
  const m = await freshMock({ clock: () => now, sandboxes: { ttlMs: 10_000 } });
  const a = await create(m);
  const b = await create(m, { ttl_ms: 30_000 });
  assert.is(a.ttl_ms, 10_000);
  now += 9_999;
  assert.is((await m.http.get(`/sandboxes/${a.id}/_mock/clock`)).status, 200);
  assert.is((await m.http.get(`/_mock/sandboxes/${a.id}`)).body.expires_at, new Date(now + 10_000).toISOString());
  now += 9_999;
  assert.is((await m.http.get(`/sandboxes/${a.id}/_mock/clock`)).status, 200, 'the request before restarted it');
  now += 10_000;
  assert.is((await m.http.get(`/sandboxes/${a.id}/_mock/clock`)).status, 404);
  assert.is((await m.http.get(`/sandboxes/${b.id}/_mock/clock`)).status, 200, 'its own ttl_ms of 30 s');
  assert.equal(
    (await m.http.get('/_mock/sandboxes')).body.items.map((s: { id: string }) => s.id),
    [b.id],
  );
});

test('at most max live: a create past it is 429 sandbox_limit with Retry-After (seconds until one expires); nothing else changes', async () => {
  let now = 0;
  const m = await freshMock({ clock: () => now, sandboxes: { max: 2, ttlMs: 60_000 } });
  const a = await create(m);
  now += 15_500;
  await create(m);
  const refused = await m.http.post('/_mock/sandboxes').send({});
  assert.equal(
    [refused.status, refused.headers['retry-after'], refused.body.detail.reason_code, refused.body.detail.next_action],
    [429, '45', 'sandbox_limit', 'retry_later'],
  );
  assert.is((await m.http.get(`/sandboxes/${a.id}/api/v3/projects/${P}/jobs`).set(OWNER)).status, 200);
  assert.is((await m.http.get('/_mock/sandboxes')).body.items.length, 2);
  await m.http.delete(`/_mock/sandboxes/${a.id}`).expect(200);
  await create(m);
});

test('named snapshots: save, list, restore (state, clock, simulation queue), delete; at the root and inside a sandbox, apart', async () => {
  const m = await freshMock();
  const sb = await create(m);
  for (const prefix of ['', `/sandboxes/${sb.id}`]) {
    const saved = await m.http.post(`${prefix}/_mock/snapshots`).send({ name: 'start' });
    assert.equal([saved.status, saved.body.name, saved.body.created_at], [201, 'start', DEMO.now]);
    assert.ok(saved.body.bytes > 100_000 && saved.body.bytes < 200_000, String(saved.body.bytes));
    await m.http.post(`${prefix}/_mock/clock`).send({ advance_ms: HOUR }).expect(200);
    await m.http.post(`${prefix}/_mock/projects/${P}/runs`).send({}).expect(200);
    const restored = await m.http.post(`${prefix}/_mock/snapshots/start/restore`);
    assert.equal([restored.status, restored.body.restored, restored.body.snapshot.name, restored.body.now], [200, true, 'start', DEMO.now]);
    assert.is(m.mock.control.exportState().runs.length, 22);
    assert.equal(
      (await m.http.get(`${prefix}/_mock/snapshots`)).body.items.map((s: { name: string }) => s.name),
      ['start'],
    );
  }
  assert.is(m.mock.control.sandboxControl(sb.id).exportState().runs.length, 22);
  await m.http.delete('/_mock/snapshots/start').expect(200);
  assert.equal((await m.http.get('/_mock/snapshots')).body.items, []);
  assert.is((await m.http.get(`/sandboxes/${sb.id}/_mock/snapshots`)).body.items.length, 1, "a sandbox's snapshots are its own");
  for (const res of [await m.http.post('/_mock/snapshots/start/restore'), await m.http.delete('/_mock/snapshots/start')]) {
    assert.equal([res.status, res.body.detail.reason_code], [404, 'snapshot_not_found']);
  }
  const bad = await m.http.post('/_mock/snapshots').send({ name: 'a/b', extra: 1 });
  assert.equal(
    bad.body.detail.map((i: { type: string; loc: unknown[] }) => [i.type, i.loc]),
    [
      ['string_pattern_mismatch', ['body', 'name']],
      ['extra_forbidden', ['body', 'extra']],
    ],
  );
});

test('a sandbox starts from a snapshot saved at the default mock, and later changes there do not reach it', async () => {
  const m = await freshMock();
  await m.http.post('/_mock/clock').send({ now: '2032-02-02T00:00:00Z' }).expect(200);
  await m.http.post('/_mock/snapshots').send({ name: 'feb' }).expect(201);
  await m.http.post('/_mock/clock').send({ now: '2033-03-03T00:00:00Z' }).expect(200);
  const sb = await create(m, { snapshot: 'feb' });
  assert.is((await m.http.get(`/sandboxes/${sb.id}/_mock/clock`)).body.now, '2032-02-02T00:00:00.000Z');
  await m.http.post(`/sandboxes/${sb.id}/_mock/clock`).send({ advance_ms: 1 }).expect(200);
  await m.http.post(`/sandboxes/${sb.id}/_mock/reset`).expect(200);
  assert.is((await m.http.get(`/sandboxes/${sb.id}/_mock/clock`)).body.now, '2032-02-02T00:00:00.000Z', 'reset returns to the snapshot');
});

test('snapshots are bounded per mock: the 33rd is 409 snapshot_limit, a save under a held name replaces it', async () => {
  const m = await freshMock();
  for (let i = 0; i < 32; i++)
    await m.http
      .post('/_mock/snapshots')
      .send({ name: `s${i}` })
      .expect(201);
  await m.http.post('/_mock/snapshots').send({ name: 's5' }).expect(201);
  const refused = await m.http.post('/_mock/snapshots').send({ name: 'one-more' });
  assert.equal([refused.status, refused.body.detail.reason_code], [409, 'snapshot_limit']);
  assert.is((await m.http.get('/_mock/snapshots')).body.items.length, 32);
});

test('the journal byte budget is for every mock together: past it the oldest entries of all go, and a dropped sandbox gives its share back', async () => {
  const m = await freshMock({ journal: { bytes: 20_000 } });
  const a = await create(m);
  const b = await create(m);
  const read = (prefix: string) => m.http.get(`${prefix}/api/v3/projects/${P}/jobs`).set(OWNER).expect(200);
  for (let i = 0; i < 10; i++) await read(`/sandboxes/${a.id}`);
  const count = async (prefix: string) => (await m.http.get(`${prefix}/_mock/requests?summary=true`)).body.items.length;
  const heldByA = await count(`/sandboxes/${a.id}`);
  assert.ok(heldByA > 2 && heldByA < 10, String(heldByA));
  for (let i = 0; i < 10; i++) await read(`/sandboxes/${b.id}`);
  // B's entries pushed A's out: together they hold what the budget holds, no more.
  assert.ok((await count(`/sandboxes/${a.id}`)) < heldByA);
  assert.ok((await count(`/sandboxes/${b.id}`)) + (await count(`/sandboxes/${a.id}`)) <= heldByA + 1);
  await m.http.delete(`/_mock/sandboxes/${b.id}`).expect(200);
  for (let i = 0; i < 10; i++) await read(`/sandboxes/${a.id}`);
  assert.is(await count(`/sandboxes/${a.id}`), heldByA, 'the share of the dropped sandbox is free again');
});

test('the control guard covers sandbox control routes: Host, token; {id}.localhost is loopback', async () => {
  const m = await freshMock({ controlToken: 'tok' });
  const res = await m.http.post('/_mock/sandboxes').set('X-Mock-Control-Token', 'tok').send({});
  const id = res.body.id;
  assert.is((await m.http.get(`/sandboxes/${id}/_mock/clock`)).status, 401);
  assert.is((await m.http.get(`/sandboxes/${id}/_mock/clock`).set('X-Mock-Control-Token', 'tok').set('Host', 'evil.example')).status, 421);
  assert.is((await m.http.get('/_mock/clock').set('X-Mock-Control-Token', 'tok').set('Host', `${id}.localhost:4010`)).status, 200);
  assert.is((await m.http.post('/_mock/sandboxes').send({})).status, 401);
});

test('in process: mock.control manages sandboxes, mock.fetch reaches one by its base_url or the header', async () => {
  const m = await freshMock();
  const sb = await m.mock.control.createSandbox({ name: 'in-process', clock: { now: '2035-01-01T00:00:00Z' } });
  assert.is(sb.base_url, `http://localhost/sandboxes/${sb.id}`);
  const viaUrl = await m.mock.fetch(`${sb.base_url}/_mock/clock`);
  assert.is(((await viaUrl.json()) as { now: string }).now, '2035-01-01T00:00:00.000Z');
  const viaHeader = await m.mock.fetch('/_mock/clock', { headers: { 'X-Mock-Sandbox': sb.id } });
  assert.is(((await viaHeader.json()) as { now: string }).now, '2035-01-01T00:00:00.000Z');
  assert.is(m.mock.control.sandboxControl(sb.id).now(), '2035-01-01T00:00:00.000Z');
  assert.equal(
    (await m.mock.control.sandboxes()).items.map((s) => s.name),
    ['in-process'],
  );
  await m.mock.control.deleteSandbox(sb.id);
  assert.is((await m.mock.fetch(`${sb.base_url}/_mock/clock`)).status, 404);
  await m.mock.close();
});

test.run();
