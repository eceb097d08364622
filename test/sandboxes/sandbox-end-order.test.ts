// A sandbox's end as its requests and its storage see it: the end waits for the requests in flight, an ended sandbox's
// storage stores nothing, and a request whose sandbox ended while it was being looked up answers 404, never 2xx.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Koa from 'koa';
import request from 'supertest';
import { LiveAdapter, SandboxLife } from '../../src/sandboxes/life.js';
import { handOver, type Served } from '../../src/sandboxes/request-router.js';
import { SandboxGone, type ChangeSetAdapter } from '../../src/storage/index.js';

const turn = () => new Promise<void>((r) => setImmediate(r));

test('the end resolves only once every request in flight at its instant has been answered', async () => {
  const life = new SandboxLife();
  life.enter();
  life.enter();
  let ended = false;
  const end = life.end().then(() => (ended = true));
  assert.is(life.ended, true, 'the end is one instant: it has come at once');
  await turn();
  assert.is(ended, false, 'two requests still in flight');
  life.leave();
  await turn();
  assert.is(ended, false, 'one request still in flight');
  life.leave();
  await end;
  assert.is(ended, true);
  assert.is(life.inFlight, 0);
});

test('the end of a sandbox with nothing in flight resolves at once, and a second end is the same end', async () => {
  const life = new SandboxLife();
  const first = life.end();
  assert.is(life.end(), first);
  await first;
});

/** An inner adapter that records what reached it. */
function recording() {
  const reached: string[] = [];
  const inner = {
    read: async () => null,
    write: async () => void reached.push('write'),
    appendChangeSets: () => void reached.push('append'),
  } as unknown as ChangeSetAdapter;
  return { inner, reached };
}

test('an ended sandbox stores nothing: a whole write and an append are both refused with SandboxGone', async () => {
  const { inner, reached } = recording();
  const life = new SandboxLife();
  const adapter = new LiveAdapter(inner, life, 'sb_one');
  await adapter.write({} as never);
  await adapter.appendChangeSets([], {} as never);
  assert.equal(reached, ['write', 'append'], 'a live sandbox stores');
  await life.end();
  let thrown: unknown;
  await adapter.write({} as never).catch((err: unknown) => (thrown = err));
  assert.instance(thrown, SandboxGone);
  assert.throws(
    () => adapter.appendChangeSets([], {} as never),
    (err: unknown) => err instanceof SandboxGone,
  );
  assert.equal(reached, ['write', 'append'], 'nothing reached the storage after the end');
});

/** A server whose only sandbox, `sb_one`, is looked up asynchronously (as a shared one is) and answers 200 `{ok}`. */
function server(lookup: (s: Served) => Promise<Served>) {
  const life = new SandboxLife();
  const served: Served = { core: {} as Served['core'], life };
  const answered: string[] = [];
  const app = new Koa();
  // As the registry does: an answered request leaves its sandbox's life.
  const done = (url: string, s: Served) => (answered.push(url), s.life.leave());
  app.use(
    (ctx, next) =>
      handOver(
        ctx,
        next,
        () => lookup(served),
        (s) => done(ctx.url, s),
      ) as Promise<void>,
  );
  app.use((ctx) => {
    ctx.body = { ok: true, url: ctx.url };
  });
  return { app, life, answered };
}

test('a request whose sandbox ends while it is looked up answers 404 sandbox_not_found, not 2xx', async () => {
  const { app, life } = server(async (s) => {
    await life.end();
    return s;
  });
  const res = await request(app.callback()).get('/sandboxes/sb_one/api/v3/x');
  assert.is(res.status, 404);
  assert.equal(res.body, {
    detail: { reason_code: 'sandbox_not_found', message: 'No such sandbox: never created, deleted, or expired.', affected_resource: 'sandbox:sb_one' },
  });
  assert.is(life.inFlight, 0, 'never counted as in flight');
});

test('a request whose sandbox is live when found is answered by it, without the prefix, and counted out', async () => {
  const { app, life, answered } = server(async (s) => s);
  const res = await request(app.callback()).get('/sandboxes/sb_one/api/v3/x?q=1');
  assert.is(res.status, 200);
  assert.equal(res.body, { ok: true, url: '/api/v3/x?q=1' });
  assert.equal(answered, ['/api/v3/x?q=1']);
  assert.is(life.inFlight, 0);
});

test.run();
