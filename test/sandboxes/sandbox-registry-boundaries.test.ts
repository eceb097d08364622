// The in-process sandbox registry at its edges on the injected real-time clock: concurrent creates at the limit, an empty name, an expired sandbox not yet swept, Retry-After from the last request, a request in flight past the time to live, and how an address is read (no path after the id, a query right after it, forms that disagree).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const TTL = 10_000;
const T0 = Date.parse('2030-01-01T00:00:00Z');
const OWNER = bearer(DEMO.tokens.owner);
const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;
const at = (ms: number) => new Date(T0 + ms).toISOString();

async function bounded(max: number) {
  let now = T0;
  const m = await freshMock({ clock: () => now, sandboxes: { max, ttlMs: TTL } });
  const create = async (body: object = {}) => (await m.http.post('/_mock/sandboxes').send(body).expect(201)).body as { id: string; name: string | null };
  return { ...m, create, at: (ms: number) => (now = T0 + ms) };
}

test('sandbox limit: of two creates at once with room for one, exactly one is made', async () => {
  const m = await bounded(1);
  const statuses = (await Promise.all([0, 1].map(() => m.http.post('/_mock/sandboxes').send({})))).map((r) => r.status);
  assert.equal(statuses.sort(), [201, 429]);
  assert.is((await m.http.get('/_mock/sandboxes')).body.items.length, 1);
});

test('sandbox name: an empty name is kept as given, not taken for none', async () => {
  const m = await bounded(2);
  assert.is((await m.create({ name: '' })).name, '');
  assert.is((await m.create()).name, null);
});

test('sandbox list: a sandbox whose time to live ran out is not listed, though not swept yet', async () => {
  const m = await bounded(2);
  const a = await m.create();
  m.at(TTL - 1);
  assert.equal(
    (await m.http.get('/_mock/sandboxes')).body.items.map((s: { id: string }) => s.id),
    [a.id],
  );
  m.at(TTL);
  assert.equal((await m.http.get('/_mock/sandboxes')).body, { items: [], next_cursor: null });
});

test('sandbox limit: Retry-After counts from the last request to the soonest-expiring sandbox, not from its creation', async () => {
  const m = await bounded(1);
  const a = await m.create();
  m.at(5_000);
  await m.http.get(`/sandboxes/${a.id}/_mock/clock`).expect(200);
  m.at(6_000);
  const refused = await m.http.post('/_mock/sandboxes').send({});
  // It expires at 5,000 + 10,000 ms: 9 s from 6,000.
  assert.equal([refused.status, refused.headers['retry-after']], [429, '9']);
});

test('a request in flight past the time to live: the sandbox is still found and listed, its ttl restarted at arrival; a create waits at least 1 s', async () => {
  const m = await bounded(1);
  const a = await m.create();
  await m.http.post(`/sandboxes/${a.id}/_mock/faults`).send({ method: 'GET', path: RUN, delay_ms: 400, times: 1 }).expect(200);
  m.at(1_000);
  const pending = m.http
    .get(`/sandboxes/${a.id}${RUN}`)
    .set(OWNER)
    .then((r) => r);
  await new Promise((r) => setTimeout(r, 150));
  m.at(TTL + 3_000);
  const info = await m.http.get(`/_mock/sandboxes/${a.id}`);
  assert.equal([info.status, info.body.expires_at], [200, at(1_000 + TTL)], 'its time to live restarted when the request arrived');
  assert.equal(
    (await m.http.get('/_mock/sandboxes')).body.items.map((s: { id: string }) => s.id),
    [a.id],
  );
  const refused = await m.http.post('/_mock/sandboxes').send({});
  assert.equal([refused.status, refused.headers['retry-after']], [429, '1'], 'past its time, held by the request: at least 1 s');
  assert.is((await pending).status, 200);
  assert.is((await m.http.get(`/_mock/sandboxes/${a.id}`)).body.expires_at, at(TTL + 3_000 + TTL), 'and again from the answer');
});

test('sandbox address: the prefix alone, and a query right after the id, reach the sandbox as its "/" does', async () => {
  const m = await bounded(1);
  const a = await m.create();
  const slash = await m.http.get(`/sandboxes/${a.id}/`);
  assert.is.not(slash.body?.detail?.reason_code, 'sandbox_not_found');
  for (const url of [`/sandboxes/${a.id}`, `/sandboxes/${a.id}?x=1`]) {
    const res = await m.http.get(url);
    assert.equal([res.status, res.body], [slash.status, slash.body], url);
  }
});

test('sandbox address: forms that disagree are 400 naming each id (the first 64 characters), path first, then header, then host', async () => {
  const m = await bounded(1);
  const a = await m.create();
  const long = 'x'.repeat(70);
  const conflict = (names: string) => ({ detail: { reason_code: 'sandbox_conflict', message: `The request names different sandboxes: ${names}` } });
  const res = await m.http.get(`/sandboxes/${a.id}/_mock/clock`).set('X-Mock-Sandbox', long).set('Host', 'other.localhost');
  assert.equal([res.status, res.body], [400, conflict(`${a.id}, ${'x'.repeat(64)}, other`)]);
  const hostOnly = await m.http.get(`/sandboxes/${a.id}/_mock/clock`).set('Host', 'other.localhost:4010');
  assert.equal([hostOnly.status, hostOnly.body], [400, conflict(`${a.id}, other`)]);
});

test.run();
