// The sandbox bound at its edges on the injected real-time clock: the limit, one past it (429 with the seconds until
// the first one expires), the limit when none is configured (1,000), a sandbox expired to the millisecond but not yet
// swept (its place is free), and a request that restarts the time to live.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';

const TTL = 10_000;
const T0 = Date.parse('2030-01-01T00:00:00Z');

async function bounded(max: number) {
  let now = T0;
  const m = await freshMock({ clock: () => now, sandboxes: { max, ttlMs: TTL } });
  return { ...m, at: (ms: number) => (now = T0 + ms) };
}

const limitBody = (max: number) => ({
  detail: { reason_code: 'sandbox_limit', message: `At most ${max} sandboxes live at once; delete one, or wait until one expires`, next_action: 'retry_later' },
});

test('sandbox limit: the 2nd of 2 is created, the 3rd is 429 with Retry-After until the oldest expires', async () => {
  const m = await bounded(2);
  const a = (await m.http.post('/_mock/sandboxes').send({}).expect(201)).body;
  m.at(2_500);
  await m.http.post('/_mock/sandboxes').send({}).expect(201);
  m.at(3_000);
  const refused = await m.http.post('/_mock/sandboxes').send({});
  assert.is(refused.status, 429);
  assert.equal(refused.body, limitBody(2));
  // The first expires at 10,000 ms: 7 s from 3,000.
  assert.is(refused.headers['retry-after'], '7');
  // 6,500 ms left is 7 s (rounded up).
  m.at(3_500);
  assert.is((await m.http.post('/_mock/sandboxes').send({})).headers['retry-after'], '7');
  m.at(9_001);
  assert.is((await m.http.post('/_mock/sandboxes').send({})).headers['retry-after'], '1');
  // Nothing of the refused creates was kept.
  assert.is((await m.http.get('/_mock/sandboxes')).body.items.length, 2);
  assert.is((await m.http.get(`/_mock/sandboxes/${a.id}`)).status, 200);
});

test('sandbox limit: with none configured, 1,000 are created and the 1,001st is 429, told to wait the default hour', async () => {
  const m = await freshMock({ clock: () => T0 });
  // 999 in process (the cheap way), the 1,000th and the one past it over HTTP.
  for (let i = 1; i < 1000; i++) await m.mock.control.createSandbox({});
  const last = await m.http.post('/_mock/sandboxes').send({ name: 'the 1000th' });
  assert.equal([last.status, last.body.name], [201, 'the 1000th']);
  const refused = await m.http.post('/_mock/sandboxes').send({});
  assert.equal([refused.status, refused.body, refused.headers['retry-after']], [429, limitBody(1000), String(60 * 60)]);
  // A place freed is taken again, and only one.
  await m.mock.control.deleteSandbox(last.body.id);
  assert.is((await m.http.post('/_mock/sandboxes').send({})).status, 201);
  assert.is((await m.http.post('/_mock/sandboxes').send({})).status, 429);
  await m.mock.close();
});

test('sandbox limit: a sandbox expired to the millisecond, not yet swept, frees its place; one ms before, it does not', async () => {
  const m = await bounded(1);
  const a = (await m.http.post('/_mock/sandboxes').send({}).expect(201)).body;
  m.at(TTL - 1);
  assert.is((await m.http.post('/_mock/sandboxes').send({})).status, 429);
  m.at(TTL);
  const b = await m.http.post('/_mock/sandboxes').send({});
  assert.is(b.status, 201);
  assert.is.not(b.body.id, a.id);
  assert.equal((await m.http.get(`/_mock/sandboxes/${a.id}`)).body.detail.reason_code, 'sandbox_not_found');
  assert.equal(
    (await m.http.get('/_mock/sandboxes')).body.items.map((s: { id: string }) => s.id),
    [b.body.id],
  );
});

test('sandbox expiry: a request restarts the time to live; expired means 404 at exactly ttl after the last request', async () => {
  const m = await bounded(5);
  const a = (await m.http.post('/_mock/sandboxes').send({}).expect(201)).body;
  assert.is(a.expires_at, new Date(T0 + TTL).toISOString());
  m.at(TTL - 1);
  await m.http.get(`/sandboxes/${a.id}/_mock/clock`).expect(200);
  assert.is((await m.http.get(`/_mock/sandboxes/${a.id}`)).body.expires_at, new Date(T0 + TTL - 1 + TTL).toISOString());
  m.at(2 * TTL - 2);
  assert.is((await m.http.get(`/sandboxes/${a.id}/_mock/clock`)).status, 200);
  m.at(3 * TTL - 2);
  const gone = await m.http.get(`/sandboxes/${a.id}/_mock/clock`);
  assert.equal([gone.status, gone.body.detail.reason_code], [404, 'sandbox_not_found']);
});

test('sandbox limit: a create that gives its own ttl_ms expires by it, not by the server default', async () => {
  const m = await bounded(1);
  await m.http.post('/_mock/sandboxes').send({ ttl_ms: 1_000 }).expect(201);
  m.at(999);
  assert.is((await m.http.post('/_mock/sandboxes').send({})).status, 429);
  m.at(1_000);
  assert.is((await m.http.post('/_mock/sandboxes').send({})).status, 201);
});

test.run();
