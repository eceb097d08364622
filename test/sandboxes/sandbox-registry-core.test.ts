// The in-process sandbox registry with stand-in cores: close and delete close each core once and only after its requests in flight are answered, a create still being built holds its place against the limit, a build that fails registers nothing and frees its place, an expiry is counted once and closes its core, and a live id is never reused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../src/errors.js';
import { SandboxRegistry, type SandboxCore } from '../../src/sandboxes/registry.js';

const TTL = 10_000;
const T0 = Date.parse('2030-01-01T00:00:00Z');
/** One turn of the event loop: what the end waits after the last answer before it goes on. */
const turn = () => new Promise<void>((r) => setImmediate(r));

/** A registry on a clock the test moves, with ids a, b, c, ... and a log of what happened to the cores. */
function registry(max: number) {
  let now = T0;
  let n = 0;
  const events: string[] = [];
  const expired: number[] = [];
  const reg = new SandboxRegistry<SandboxCore>({
    now: () => now,
    ttlMs: TTL,
    max,
    ids: () => String.fromCharCode(97 + n++),
    expired: () => void expired.push(now - T0),
  });
  const core = (id: string): SandboxCore => ({ close: async () => void events.push(`close ${id}`) });
  const create = (spec: { name?: string; ttl_ms?: number } = {}) => reg.create(spec, async (id) => core(id));
  return { reg, events, expired, create, core, at: (ms: number) => (now = T0 + ms) };
}

/** The reason code an ApiError carries, or the error itself when it is something else. */
async function refusal(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err instanceof ApiError ? { reason_code: err.reason_code, status: err.status, ...err.extras } : err;
  }
  return 'not refused';
}

const limit = (max: number, retry_after: number) => ({
  reason_code: 'sandbox_limit',
  status: 429,
  message: `At most ${max} sandboxes live at once; delete one, or wait until one expires`,
  retry_after,
});
const notFound = (id: string) => ({ reason_code: 'sandbox_not_found', status: 404, affected_resource: `sandbox:${id}` });

test('close drops every sandbox: each core is closed once, and none is found or listed after', async () => {
  const r = registry(5);
  const ids = [(await r.create()).id, (await r.create()).id, (await r.create()).id];
  assert.equal(ids, ['a', 'b', 'c']);
  await r.reg.close();
  assert.equal(r.events.sort(), ['close a', 'close b', 'close c']);
  assert.is(r.reg.size, 0);
  assert.equal(r.reg.list(50).items, []);
  for (const id of ids) assert.equal(await refusal(Promise.resolve().then(() => r.reg.get(id))), notFound(id));
  // Closing again closes nothing twice; a close is not an expiry.
  await r.reg.close();
  assert.is(r.events.length, 3);
  assert.equal(r.expired, []);
});

test('close: a sandbox with a request in flight is gone at once, but its core closes only after that request is answered', async () => {
  const r = registry(5);
  await r.create();
  const held = r.reg.touch('a')!;
  held.life.enter(); // a request handed to it, as the request router does
  const closing = r.reg.close().then(() => r.events.push('closed'));
  assert.is(r.reg.touch('a'), undefined, 'no longer found from the instant of the close');
  assert.is(held.life.ended, true);
  await turn();
  await turn();
  assert.equal(r.events, [], 'its core is still open while the request is in flight');
  r.events.push('answered');
  r.reg.answered(held);
  await closing;
  assert.equal(r.events, ['answered', 'close a', 'closed']);
});

test('delete: the sandbox is gone at once; its core closes after its requests in flight are answered, and the delete resolves after that', async () => {
  const r = registry(5);
  await r.create();
  await r.create();
  const a = r.reg.touch('a')!;
  a.life.enter();
  a.life.enter();
  const deleting = r.reg.delete('a').then(() => r.events.push('deleted'));
  assert.equal(await refusal(Promise.resolve().then(() => r.reg.get('a'))), notFound('a'));
  assert.equal(await refusal(r.reg.delete('a')), notFound('a'), 'a second delete finds nothing');
  r.reg.answered(a);
  await turn();
  await turn();
  assert.equal(r.events, [], 'one request still in flight');
  r.events.push('answered');
  r.reg.answered(a);
  await deleting;
  assert.equal(r.events, ['answered', 'close a', 'deleted']);
  assert.equal(
    r.reg.list(50).items.map((e) => e.id),
    ['b'],
  );
  assert.equal(r.expired, [], 'a delete is not an expiry');
});

test('sandbox limit: a create still being built holds its place; another with room for one is refused until the first is made', async () => {
  const r = registry(1);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const building: string[] = [];
  const first = r.reg.create({ name: 'held' }, async (id) => {
    building.push(id);
    await gate;
    return r.core(id);
  });
  await turn();
  assert.equal(building, ['a'], 'the first create is under way');
  assert.is(r.reg.size, 0, 'and not registered yet');
  // Nothing is live yet to expire: the client is told to retry after the least wait, 1 s.
  assert.equal(await refusal(r.create()), limit(1, 1));
  release();
  const made = await first;
  assert.equal([made.id, made.name, r.reg.size], ['a', 'held', 1]);
  r.at(4_000);
  // Now the one made holds the place: it expires TTL after its creation, 6 s from here.
  assert.equal(await refusal(r.create()), limit(1, 6));
  assert.equal(building, ['a'], 'a refused create builds nothing');
  await r.reg.close();
});

test('a build that fails registers nothing, rejects with its own error, and frees its place for the next create', async () => {
  const r = registry(1);
  const failure = new Error('seed failed');
  assert.is(
    await refusal(
      r.reg.create({}, async () => {
        throw failure;
      }),
    ),
    failure,
  );
  assert.is(r.reg.size, 0);
  assert.equal(r.reg.list(50).items, []);
  const next = await r.create();
  assert.equal([next.id, r.reg.size], ['b', 1]);
  await r.reg.close();
  assert.equal(r.events, ['close b']);
});

test('an expiry is counted once and closes the core, whether a lookup or the sweep finds it', async () => {
  const r = registry(5);
  await r.create(); // a
  await r.create(); // b
  r.at(TTL);
  // A lookup of a sandbox past its time finds nothing and lets it go at once.
  assert.is(r.reg.touch('a'), undefined);
  await turn();
  assert.equal(r.events, ['close a']);
  assert.equal(r.expired, [TTL]);
  assert.is(r.reg.size, 1, 'only b is still held (not yet swept)');
  await r.reg.sweep();
  assert.equal(r.events, ['close a', 'close b']);
  assert.equal(r.expired, [TTL, TTL]);
  assert.is(r.reg.size, 0);
  await r.reg.sweep();
  assert.equal(r.expired, [TTL, TTL], 'nothing is counted twice');
  await r.reg.close();
});

test('an id already live is never given to a new sandbox: the next one drawn is taken', async () => {
  const drawn = ['x', 'x', 'x', 'y'];
  const reg = new SandboxRegistry<SandboxCore>({ now: () => T0, ttlMs: TTL, max: 5, ids: () => drawn.shift()!, expired: () => {} });
  const build = async () => ({ close: async () => {} });
  assert.equal([(await reg.create({}, build)).id, (await reg.create({}, build)).id], ['x', 'y']);
  assert.equal(drawn, []);
  await reg.close();
});

test.run();
