// Rules of an instance's copy of a shared sandbox (PostgreSQL): a request's answer is its last request (a slow answer
// keeps the sandbox alive a time to live from when it was answered, not from when it arrived); a copy whose sandbox
// the storage no longer finds is let go by the request that found it gone, not only by the next sweep; a copy idle
// here while another instance kept the sandbox alive is served again as it is (its journal kept), not opened anew;
// a sweep reports the last requests served here before it expires anything, so it never ends what it kept alive; a copy
// with a request in flight is never idle; one timer reports a copy's requests in flight, however many there are; and
// requests that find no copy here at once share the one they open.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dropCreated, needsPostgres } from '../helpers/postgres.js';
import { apps, call, create, holds, instances, RUN, until, wait } from '../helpers/postgres-sandboxes.js';

needsPostgres();
test.after(async () => {
  await Promise.all(apps.splice(0).map((m) => m.close().catch(() => {})));
  await dropCreated();
});

const TTL = 60_000;
const T0 = Date.UTC(2026, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();

/** Instances A and B on one clock; B sweeps once a second (a quarter of its default time to live: a sandbox keeps its own). */
async function sweepingEverySecond() {
  const clock = { now: T0 };
  const {
    live: [a],
    schema,
  } = await instances(1, { clock: () => clock.now });
  const {
    live: [b],
  } = await instances(1, { clock: () => clock.now, sandboxes: { ttlMs: 4_000 } }, schema);
  return { clock, a, b };
}

test('a slow answer is the last request: the sandbox expires a time to live after it was answered', async () => {
  const clock = { now: T0 };
  const {
    live: [a],
  } = await instances(1, { clock: () => clock.now });
  const sb = await create(a, { ttl_ms: TTL });
  assert.is(sb.expires_at, iso(T0 + TTL));
  const fault = await call(a, 'POST', `/sandboxes/${sb.id}/_mock/faults`, { match: { operation: 'getRun' }, delay_ms: 400 });
  assert.equal([fault.status, fault.body!.delay_ms], [200, 400]);
  const read = call(a, 'GET', `/sandboxes/${sb.id}${RUN}`);
  await wait(100);
  clock.now = T0 + 1_000; // it arrived at T0 and is answered at T0 + 1 s
  assert.is((await read).status, 200);
  const info = await call(a, 'GET', `/_mock/sandboxes/${sb.id}`);
  assert.is(info.body!.expires_at, iso(T0 + 1_000 + TTL));
});

test('a copy whose sandbox expired is let go by the request that finds it gone', async () => {
  const clock = { now: T0 };
  const {
    live: [a, b],
  } = await instances(2, { clock: () => clock.now });
  const sb = await create(a, { ttl_ms: TTL });
  assert.is((await call(b, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 200);
  assert.ok(holds(b, sb.id), 'B opened a copy to serve the read');
  // Past its time to live everywhere: no sweep runs within the test (every minute, at the default time to live).
  clock.now = T0 + TTL;
  const gone = await call(b, 'GET', `/sandboxes/${sb.id}${RUN}`);
  assert.equal([gone.status, gone.body!.detail.reason_code], [404, 'sandbox_not_found']);
  assert.not.ok(holds(b, sb.id), 'B still holds a copy of a sandbox it answered 404 for');
});

test('a copy idle here while another instance kept the sandbox alive is served again with its journal', async () => {
  const clock = { now: T0 };
  const {
    live: [a, b],
  } = await instances(2, { clock: () => clock.now });
  const sb = await create(a, { ttl_ms: TTL });
  const journal = () =>
    b.control
      .sandboxControl(sb.id)
      .requests()
      .map((e) => e.path);
  assert.is((await call(b, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 200);
  assert.equal(journal(), [RUN]);
  // A serves it half a time to live later, and reports that request to the storage (B reads it there).
  clock.now = T0 + TTL / 2;
  assert.is((await call(a, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 200);
  assert.ok(await until(async () => (await call(b, 'GET', `/_mock/sandboxes/${sb.id}`)).body!.expires_at === iso(T0 + TTL / 2 + TTL)));
  // B's copy has been idle for a time to live; the storage says the sandbox lives on: B serves it from the same copy.
  clock.now = T0 + TTL;
  assert.is((await call(b, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 200);
  assert.equal(journal(), [RUN, RUN]);
});

test('a sweep reports the requests served here before it expires anything: a sandbox read here lives on', async () => {
  const { clock, a, b } = await sweepingEverySecond();
  const sb = await create(a, { ttl_ms: TTL });
  // Read through B 1 s later: too soon to report it at once (B reports a sandbox's last request every 5 s at most).
  clock.now = T0 + 1_000;
  assert.is((await call(b, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 200);
  // Past the created time plus ttl, before the read plus ttl: B's next sweeps report the read, then find nothing expired.
  clock.now = T0 + TTL + 500;
  await wait(2_500);
  const info = await call(b, 'GET', `/_mock/sandboxes/${sb.id}`);
  assert.equal([info.status, info.body!.expires_at], [200, iso(T0 + 1_000 + TTL)]);
  assert.ok(holds(b, sb.id));
});

test('a copy with a request in flight is not idle: a sweep keeps it (and its journal) however late the clock reads', async () => {
  const { clock, a, b } = await sweepingEverySecond();
  const sb = await create(a, { ttl_ms: TTL });
  const journal = () =>
    b.control
      .sandboxControl(sb.id)
      .requests()
      .map((e) => `${e.method} ${e.path} ${e.status}`);
  assert.is((await call(b, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 200);
  const fault = await call(b, 'POST', `/sandboxes/${sb.id}/_mock/faults`, { match: { operation: 'getRun' }, delay_ms: 2_500, times: 1 });
  assert.is(fault.status, 200);
  // Held 2.5 s on B: B's sweeps run while it is in flight; its report of requests in flight (every 5 s) does not.
  const held = call(b, 'GET', `/sandboxes/${sb.id}${RUN}`);
  await wait(100);
  // Half a time to live later A serves the sandbox and reports it; half a time to live after that, the sandbox lives on
  // through A, and B's copy would be idle but for the read in flight.
  clock.now = T0 + TTL / 2;
  assert.is((await call(a, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 200);
  clock.now = T0 + TTL + 1_000;
  await wait(1_500);
  assert.ok(holds(b, sb.id), 'B let go of a copy with a request in flight');
  assert.is((await held).status, 200);
  assert.is((await call(b, 'GET', `/sandboxes/${sb.id}${RUN}`)).status, 200);
  const read = `GET ${RUN} 200`;
  assert.equal(journal(), [read, read, read]);
});

test('one timer reports the requests in flight of a copy, however many there are', async () => {
  const clock = { now: T0 };
  const {
    live: [a],
  } = await instances(1, { clock: () => clock.now });
  const ttl = 43_210; // reported every 4,321 ms while requests are in flight: a period no other timer has
  const sb = await create(a, { ttl_ms: ttl });
  const started: number[] = [];
  const real = globalThis.setInterval;
  globalThis.setInterval = ((fn: () => void, ms?: number) => (started.push(ms ?? 0), real(fn, ms))) as typeof setInterval;
  try {
    // Six requests of the sandbox within one period, five of them in flight together.
    const fault = await call(a, 'POST', `/sandboxes/${sb.id}/_mock/faults`, { match: { operation: 'getRun' }, delay_ms: 300 });
    assert.is(fault.status, 200);
    const reads = await Promise.all(Array.from({ length: 5 }, () => call(a, 'GET', `/sandboxes/${sb.id}${RUN}`)));
    assert.equal(
      reads.map((r) => r.status),
      [200, 200, 200, 200, 200],
    );
  } finally {
    globalThis.setInterval = real;
  }
  assert.equal(
    started.filter((ms) => ms === ttl / 10),
    [ttl / 10],
  );
});

test('requests that find no copy here at once share the one copy they open: its journal has every one', async () => {
  const {
    live: [a, b],
  } = await instances(2);
  const sb = await create(a);
  const reads = await Promise.all(Array.from({ length: 6 }, () => call(b, 'GET', `/sandboxes/${sb.id}${RUN}`)));
  assert.equal(
    reads.map((r) => r.status),
    [200, 200, 200, 200, 200, 200],
  );
  const journal = b.control.sandboxControl(sb.id).requests();
  assert.equal(
    journal.map((e) => `${e.method} ${e.path} ${e.status}`),
    Array(6).fill(`GET ${RUN} 200`),
  );
});

test.run();
