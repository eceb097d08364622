// How the sandbox router answers what goes wrong: a lookup's ApiError as it is, its SandboxGone as 404, any other lookup failure as 503 storage_unavailable with Retry-After 1 (storage that cannot be read); a request in flight at the end keeps a success but turns a 4xx/5xx or a throw into 404; a live sandbox's own failures pass through, each request counted out once; and a part of the create body validates under ["body", key, ...].
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Koa, { type Context } from 'koa';
import request from 'supertest';
import { SandboxLife } from '../../src/sandboxes/life.js';
import { handOver, within, type Served } from '../../src/sandboxes/request-router.js';
import { SandboxGone } from '../../src/storage/index.js';
import { ApiError, ValidationError } from '../../src/errors.js';

const NOT_FOUND = {
  detail: { reason_code: 'sandbox_not_found', message: 'No such sandbox: never created, deleted, or expired.', affected_resource: 'sandbox:sb_one' },
};
const UNAVAILABLE = {
  detail: {
    reason_code: 'storage_unavailable',
    message: 'The change could not be stored, so it was not made. Try again later.',
    next_action: 'retry_later',
  },
};

/**
 * A server whose sandbox `sb_one` is what `find` gives; `inner` answers its requests. An error that leaves the router
 * is caught by an outer middleware and shown as 500 `{caught}`, to tell it from an answer the router made.
 */
function server(find: (s: Served) => Served | Promise<Served>, inner: (ctx: Context) => unknown = (ctx) => (ctx.body = { ok: true })) {
  const life = new SandboxLife();
  const served: Served = { core: {} as Served['core'], life };
  const answered: string[] = [];
  const app = new Koa();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      ctx.status = 500;
      ctx.body = { caught: (err as Error).message };
    }
  });
  app.use(
    (ctx, next) =>
      handOver(
        ctx,
        next,
        () => find(served),
        (s) => (answered.push(ctx.url), s.life.leave()),
      ) as Promise<void>,
  );
  app.use(async (ctx) => {
    await inner(ctx);
  });
  return { http: request(app.callback()), life, answered };
}

const get = (s: ReturnType<typeof server>) => s.http.get('/sandboxes/sb_one/api/v3/x');

/** A lookup failing with `made()` both ways it can: thrown at once, and as a later rejection. */
const failingBothWays = (made: () => Error) => [
  () => {
    throw made();
  },
  async () => Promise.reject(made()),
];

test('a lookup that throws an ApiError is answered with it, in the management envelope', async () => {
  for (const lookup of failingBothWays(() => new ApiError('sandbox_limit', { message: 'full' }))) {
    const s = server(lookup);
    const res = await get(s);
    assert.equal([res.status, res.body], [429, { detail: { reason_code: 'sandbox_limit', message: 'full', next_action: 'retry_later' } }]);
    assert.equal(s.answered, [], 'never handed to the sandbox');
  }
});

test('a lookup that finds the sandbox gone (SandboxGone) answers 404 sandbox_not_found, at once or later', async () => {
  for (const lookup of failingBothWays(() => new SandboxGone('sb_one'))) {
    const s = server(lookup);
    const res = await get(s);
    assert.equal([res.status, res.body], [404, NOT_FOUND]);
    assert.is(res.headers['retry-after'], undefined);
    assert.equal(s.answered, []);
  }
});

test('any other lookup failure is 503 storage_unavailable with Retry-After: 1, at once or later', async () => {
  for (const lookup of failingBothWays(() => new Error('connection refused'))) {
    const s = server(lookup);
    const res = await get(s);
    assert.equal([res.status, res.body], [503, UNAVAILABLE]);
    assert.is(res.headers['retry-after'], '1');
    assert.equal(s.answered, []);
  }
});

/** Answers with `status` (and a body of its own) once the test lets it, after the sandbox's end has come. */
function heldThenAnswers(answer: (ctx: Context) => void) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let reached!: () => void;
  const arrived = new Promise<void>((r) => (reached = r));
  const inner = async (ctx: Context) => {
    reached();
    await held;
    answer(ctx);
  };
  return { inner, arrived, release };
}

for (const [status, kept] of [
  [200, true],
  [201, true],
  [204, true],
  [400, false],
  [404, false],
  [409, false],
  [500, false],
] as [number, boolean][]) {
  test(`a request in flight at the end that answers ${status}: ${kept ? 'kept as it is' : '404 sandbox_not_found'}`, async () => {
    const body = status === 204 ? undefined : { own: status };
    const hold = heldThenAnswers((ctx) => {
      ctx.status = status;
      if (body) ctx.body = body;
    });
    const s = server(async (x) => x, hold.inner);
    const pending = get(s).then((r) => r);
    await hold.arrived;
    assert.is(s.life.inFlight, 1);
    let ended = false;
    const end = s.life.end().then(() => (ended = true));
    hold.release();
    const res = await pending;
    if (kept) assert.equal([res.status, status === 204 ? undefined : res.body], [status, body]);
    else assert.equal([res.status, res.body], [404, NOT_FOUND]);
    await end;
    assert.is(ended, true);
    assert.equal(s.answered, ['/api/v3/x'], 'counted out once');
    assert.is(s.life.inFlight, 0);
  });
}

for (const startedWith of [undefined, 200]) {
  test(`a request in flight at the end that throws (status ${startedWith ?? 'unset'} so far) answers 404; the error goes no further`, async () => {
    const hold = heldThenAnswers((ctx) => {
      if (startedWith) {
        ctx.status = startedWith;
        ctx.body = { partial: true };
      }
      throw new Error('cut short');
    });
    const s = server(async (x) => x, hold.inner);
    const pending = get(s).then((r) => r);
    await hold.arrived;
    const end = s.life.end();
    hold.release();
    const res = await pending;
    assert.equal([res.status, res.body], [404, NOT_FOUND]);
    await end;
    assert.equal(s.answered, ['/api/v3/x']);
    assert.is(s.life.inFlight, 0);
  });
}

test('a live sandbox: its 4xx is its own answer, and its thrown error goes on to the outer handler, counted out once', async () => {
  const refused = server(
    async (x) => x,
    (ctx) => {
      ctx.status = 409;
      ctx.body = { own: 409 };
    },
  );
  const res = await get(refused);
  assert.equal([res.status, res.body], [409, { own: 409 }]);
  assert.equal(refused.answered, ['/api/v3/x']);
  for (const find of [(x: Served) => x, async (x: Served) => x]) {
    const failing = server(find, () => {
      throw new Error('boom');
    });
    const thrown = await get(failing);
    assert.equal([thrown.status, thrown.body], [500, { caught: 'boom' }]);
    assert.equal(failing.answered, ['/api/v3/x']);
    assert.is(failing.life.inFlight, 0);
  }
});

test('within: a part of the create body validates under ["body", key, ...], sync or async; other errors pass as they are', async () => {
  const items = [{ loc: ['body', 'mode'], msg: 'Input should be a valid string', type: 'string_type', input: 1 }];
  for (const fn of [
    () => {
      throw new ValidationError(items);
    },
    async () => Promise.reject(new ValidationError(items)),
  ]) {
    try {
      await within('simulation', fn);
      assert.unreachable('refused');
    } catch (err) {
      assert.instance(err, ValidationError);
      assert.equal(
        (err as ValidationError).items.map((i) => [i.loc, i.type]),
        [[['body', 'simulation', 'mode'], 'string_type']],
      );
    }
  }
  const other = new ApiError('snapshot_not_found');
  for (const fn of [
    () => {
      throw other;
    },
    async () => Promise.reject(other),
  ]) {
    try {
      await within('simulation', fn);
      assert.unreachable('refused');
    } catch (err) {
      assert.is(err, other);
    }
  }
  assert.is(await within('fixtures', async () => 7), 7);
});

test.run();
