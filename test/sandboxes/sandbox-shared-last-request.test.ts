// A shared sandbox's last request, as an instance on PostgreSQL holds it, never moves back: a request whose time is
// earlier than the last request the instance already knows of (its clock behind another instance's, or its time taken
// before another instance's later report arrived) leaves it as it was, so the instance keeps its copy of the sandbox
// (and the requests that copy journalled) until the sandbox's time to live has run from its latest request.
// Only shared storage has this case: in memory and on the JSON file a sandbox lives in one process, which reads each
// request's time as it arrives and never learns of a later one from elsewhere.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../src/errors.js';
import { dropCreated, needsPostgres } from '../helpers/postgres.js';
import { apps, call, create, instances, RUN, until, wait } from '../helpers/postgres-sandboxes.js';

needsPostgres();
test.after(async () => {
  await Promise.all(apps.splice(0).map((m) => m.close().catch(() => {})));
  await dropCreated();
});

const TTL = 60_000;
const AHEAD = 50_000; // how far instance A's clock runs ahead of B's
const T0 = Date.UTC(2026, 0, 1);

/**
 * The paths `app`'s own copy of sandbox `id` journalled, or null when it holds no copy (its in-process control answers
 * only then). Read in process: a request to the sandbox would itself be a later request.
 */
function journalHeld(app: (typeof apps)[number], id: string): string[] | null {
  try {
    return app.control
      .sandboxControl(id)
      .requests()
      .map((e) => e.path);
  } catch (err) {
    if (err instanceof ApiError && err.reason_code === 'sandbox_not_found') return null;
    throw err;
  }
}

test('an earlier request time does not move the last request back: B keeps its copy until the latest request plus ttl', async () => {
  const clock = { a: T0 + AHEAD, b: T0 };
  const {
    live: [a],
    schema,
  } = await instances(1, { clock: () => clock.a });
  // B sweeps once a second (a quarter of its default time to live; the sandbox keeps the ttl it was created with).
  const {
    live: [b],
  } = await instances(1, { clock: () => clock.b, sandboxes: { ttlMs: 4_000 } }, schema);
  const sb = await create(a, { ttl_ms: TTL });
  assert.is(sb.expires_at, new Date(T0 + AHEAD + TTL).toISOString());

  // B opens the sandbox for a request at its own time, 50 s before the last request A reported.
  const read = await call(b, 'GET', `/sandboxes/${sb.id}${RUN}`);
  assert.is(read.status, 200);
  assert.equal(journalHeld(b, sb.id), [RUN]);

  // B's time reaches its own request plus ttl: had that request's time replaced the later one, B's sweep would let its
  // copy go now. It keeps it, and the request it journalled.
  clock.b = T0 + TTL;
  await wait(2_500);
  assert.equal(journalHeld(b, sb.id), [RUN], 'B let its copy go a ttl after an earlier request than the latest');
  // One moment before the latest request plus ttl: still held and live.
  clock.b = T0 + AHEAD + TTL - 1;
  await wait(2_500);
  assert.equal(journalHeld(b, sb.id), [RUN]);
  assert.is((await call(b, 'GET', `/_mock/sandboxes/${sb.id}`)).body!.expires_at, new Date(T0 + AHEAD + TTL).toISOString());
  // At the latest request plus ttl the sandbox ends, for B too.
  clock.b = T0 + AHEAD + TTL;
  assert.ok(await until(() => journalHeld(b, sb.id) === null, 10_000), 'B still holds the sandbox past its expiry');
  assert.is((await call(b, 'GET', `/_mock/sandboxes/${sb.id}`)).status, 404);
});

test.run();
