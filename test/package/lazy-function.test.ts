// The bundles' lazy http-assert (scripts/lazy-function.ts): the facade has the real module's shape (names, arities), each
// call answers or throws as the real one does, the real module is required at the first call only, and ctx.assert on a
// mock built from the bundle still throws the HTTP error it names.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { functionFacadeSource, LAZY_FUNCTIONS } from '../../scripts/lazy-function.js';

type Fn = ((...args: unknown[]) => unknown) & Record<string, (...args: unknown[]) => unknown>;
const require = createRequire(import.meta.url);
// The copy koa uses (the one the bundle holds).
const path = createRequire(require.resolve('koa')).resolve('http-assert');
const real = require(path) as Fn;

/** The facade, with a count of how often it required the real module. */
function facade(): { fn: Fn; loads: () => number } {
  let loads = 0;
  const module = { exports: {} as Fn };
  const load = (p: string) => {
    loads++;
    return require(p);
  };
  new Function('require', 'module', functionFacadeSource(path))(load, module);
  return { fn: module.exports, loads: () => loads };
}

/** What a call does: its value, or the thrown error's own fields. */
function outcome(call: () => unknown): unknown {
  try {
    return { value: call() };
  } catch (err) {
    const e = err as Error & { status?: number; expose?: boolean; extra?: unknown };
    return { thrown: [e.constructor.name, e.name, e.message, e.status, e.expose, e.extra] };
  }
}

test('http-assert is the one module deferred so, and its facade has its shape', () => {
  assert.equal(LAZY_FUNCTIONS, ['http-assert']);
  const { fn, loads } = facade();
  assert.is(loads(), 0, 'building the facade requires nothing');
  const shape = (f: Fn) => [f.name, f.length, Object.entries(f).map(([k, v]) => [k, v.name, v.length])];
  assert.equal(shape(fn), shape(real));
  assert.is(Object.keys(real).length, 8);
});

test('each call of the facade answers or throws as the real module does, requiring it once', () => {
  const { fn, loads } = facade();
  const cases: [string | null, unknown[]][] = [
    [null, [true, 400, 'fine']],
    [null, [0, 401, 'no', { extra: 1 }]],
    [null, [false]],
    ['fail', [418, 'teapot']],
    ['equal', [1, '1', 400]],
    ['equal', [1, 2, 409, 'differ']],
    ['notEqual', [1, 1, 422]],
    ['ok', ['', 403, 'forbidden', { expose: false }]],
    ['strictEqual', [1, '1', 400, 'strict']],
    ['notStrictEqual', [2, 2]],
    ['deepEqual', [{ a: [1] }, { a: [1] }, 400]],
    ['deepEqual', [{ a: [1] }, { a: [2] }, 400, 'deep']],
    ['notDeepEqual', [{ a: 1 }, { a: 1 }, 500, 'same']],
  ];
  for (const [method, args] of cases) {
    const call = (f: Fn) => () => (method === null ? f(...args) : f[method](...args));
    assert.equal(outcome(call(fn)), outcome(call(real)), `${method ?? 'assert'}(${JSON.stringify(args)})`);
  }
  assert.is(loads(), 1, 'the real module is required at the first call, then kept');
});

test('the built bundle (its koa file) holds the facade, and ctx.assert on its mock throws the HTTP error it names', async () => {
  const bundle = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
  // koa and its helpers are in the file the bundles require at their first use of koa.
  const koa = fileURLToPath(new URL('../../dist/koa.cjs', import.meta.url));
  assert.match(readFileSync(koa, 'utf8'), /exports\["notDeepEqual"\] = function ?\(p0, p1, p2, p3, p4\)/);
  const { createApp } = (await import(bundle)) as typeof import('../../src/index.js');
  const mock = await createApp({ storage: 'memory' });
  // The error it throws is caught here: the mock's own error renderer answers any error not its own as a 500.
  mock.app.use(async (ctx, next) => {
    if (ctx.path !== '/teapot') return next();
    try {
      const check: (value: unknown, status: number, message: string) => void = ctx.assert;
      check(ctx.get('x-ok') === 'yes', 418, 'short and stout');
      ctx.body = 'no error';
    } catch (err) {
      const e = err as Error & { status: number; expose: boolean };
      ctx.body = { name: e.name, status: e.status, message: e.message, expose: e.expose };
    }
  });
  // The listener asked for after the middleware was added runs it (mock.callback()).
  const server = createServer(mock.callback()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/teapot`);
    assert.equal(await res.json(), { name: 'ImATeapotError', status: 418, message: 'short and stout', expose: true });
  } finally {
    server.close();
    await mock.close();
  }
});

test.run();
