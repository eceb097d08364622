// When a sandbox's time to live starts again: from the answer, read anew when the answer comes in a later turn than the
// request's arrival, and from the arrival's reading when both fall in one turn (no time passes within a turn).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SandboxRegistry, type SandboxCore } from '../../src/sandboxes/registry.js';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';

const TTL = 10_000;
const T0 = Date.parse('2030-01-01T00:00:00Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;

function registry() {
  let now = T0;
  let reads = 0;
  const reg = new SandboxRegistry<SandboxCore>({ now: () => (reads++, now), ttlMs: TTL, max: 3, ids: () => 'a', expired: () => {} });
  return { reg, at: (ms: number) => (now = T0 + ms), reads: () => reads };
}

test('answered in the turn of its touch: the touch time stands and the clock is not read again', async () => {
  const r = registry();
  const e = await r.reg.create({}, async () => ({ close: async () => {} }));
  r.at(2_000);
  const touched = r.reg.touch('a')!;
  assert.is(touched, e);
  assert.is(touched.lastMs, T0 + 2_000);
  touched.life.enter();
  const before = r.reads();
  r.reg.answered(touched, true);
  assert.equal([r.reads() - before, e.lastMs, e.life.inFlight], [0, T0 + 2_000, 0]);
});

test('answered in a later turn: the time to live starts again from the answer, read then', async () => {
  const r = registry();
  const e = await r.reg.create({}, async () => ({ close: async () => {} }));
  r.at(2_000);
  r.reg.touch('a')!.life.enter();
  r.at(7_500);
  r.reg.answered(e);
  assert.equal([e.lastMs, e.life.inFlight], [T0 + 7_500, 0]);
  // Its boundary: found 1 ms before the time to live from that answer runs out, gone at it.
  r.at(7_500 + TTL - 1);
  assert.is(r.reg.touch('a'), e);
  r.at(7_500 + TTL - 1 + TTL);
  assert.is(r.reg.touch('a'), undefined);
});

test('a GET answered at once in a sandbox (the fast path) restarts its time to live from that request', async () => {
  let now = T0;
  const m = await freshMock({ clock: () => now, sandboxes: { max: 2, ttlMs: TTL } });
  const { id } = (await m.http.post('/_mock/sandboxes').send({}).expect(201)).body as { id: string };
  now = T0 + 4_000;
  const res = await m.http.get(`/sandboxes/${id}${RUN}`).set(bearer(DEMO.tokens.owner));
  assert.equal([res.status, res.body.id], [200, DEMO.runs.failedApi]);
  assert.is((await m.http.get(`/_mock/sandboxes/${id}`)).body.expires_at, at(4_000 + TTL));
  // A refused GET (no token) is a request to the sandbox too.
  now = T0 + 9_000;
  assert.is((await m.http.get(`/sandboxes/${id}${RUN}`)).status, 401);
  assert.is((await m.http.get(`/_mock/sandboxes/${id}`)).body.expires_at, at(9_000 + TTL));
});

test.run();
