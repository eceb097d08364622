// The flat route table finds exactly what @koa/router finds for the same routers: route, parameters, allowed methods.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import Router from '@koa/router';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { bodyReader } from '../../src/pipeline/endpoint.js';
import { CONTROL_ROUTES, V3_ROUTES } from '../../src/routes/index.js';
import { routeTable } from '../../src/routes/table.js';
import { ENDPOINTS, path } from '../helpers/generators.js';
import { propertyRuns } from '../runner/config.mjs';

const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
const routers = [...V3_ROUTES, ...CONTROL_ROUTES].map((m) => m(bodyReader(1024), 1024));
const table = routeTable(routers);
// The previous assembly: every module's routes declared on one @koa/router router.
const nested = new Router();
for (const r of routers) for (const l of r.stack) nested.register(l.path, [...l.methods], [...l.stack]);

/** What @koa/router decides for a request: the first layer with the method, its params; else the methods the path allows. */
function koaRouter(method: string, p: string) {
  const m = nested.match(p, method);
  const layer = m.pathAndMethod[0];
  if (layer) return { path: layer.path as string, params: layer.params(p, layer.captures(p), {}) };
  const allowed: string[] = [];
  for (const l of m.path) for (const x of l.methods) if (!allowed.includes(x)) allowed.push(x);
  return { allowed };
}

const ours = (method: string, p: string) => {
  const found = table.lookup(method, p);
  return 'handler' in found ? { path: found.path, params: { ...found.params } } : found;
};

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'get'];
const TEMPLATES = [...ENDPOINTS.map(([, , t]) => t), ...routers.flatMap((r) => r.stack.map((l) => String(l.path).replace(/:(\w+)/g, '{$1}')))];
/** A path from a template, then reshaped: case changed, a trailing slash or two, a segment dropped or doubled. */
const reshaped = fc
  .tuple(fc.constantFrom(...TEMPLATES), fc.nat(), fc.constantFrom('none', 'upper', 'slash', 'slashes', 'drop', 'empty', 'extra', 'kelvin'))
  .chain(([t, i, how]) =>
    (/\{/.test(t)
      ? path(
          t.replace(/\{(\w+)\}/g, (_, n) =>
            ['project_id', 'run_id', 'approval_id', 'user_id', 'release_id', 'connection_name', 'binding_id'].includes(n) ? `{${n}}` : 'x',
          ),
        )
      : fc.constant(t)
    ).map((p) => {
      const parts = p.split('/');
      const k = 1 + (i % (parts.length - 1));
      if (how === 'upper') parts[k] = parts[k].toUpperCase();
      if (how === 'slash') return `${p}/`;
      if (how === 'slashes') return `${p}//`;
      if (how === 'drop') parts.splice(k, 1);
      if (how === 'empty') parts[k] = '';
      if (how === 'extra') parts.splice(k, 0, 'runs');
      if (how === 'kelvin') parts[k] = parts[k].replace(/k/g, '\u212A'); // KELVIN SIGN: lowercases to 'k', but /i does not fold it
      return parts.join('/');
    }),
  );

test('route table: same route, parameters and allowed methods as @koa/router, for every generated path and method', () => {
  fc.assert(
    fc.property(reshaped, fc.constantFrom(...METHODS), (p, m) => {
      assert.equal(ours(m, p), koaRouter(m, p), `${m} ${p}`);
    }),
    { numRuns: propertyRuns() * 25 },
  );
});

test('route table: examples', () => {
  const run = '/api/v3/projects/p%2Fq/runs/r%zz';
  assert.equal(ours('GET', run), { path: '/api/v3/projects/:project_id/runs/:run_id', params: { project_id: 'p/q', run_id: 'r%zz' } });
  assert.equal(ours('HEAD', '/API/V3/projects/a/runs/b/'), { path: '/api/v3/projects/:project_id/runs/:run_id', params: { project_id: 'a', run_id: 'b' } });
  assert.equal(ours('DELETE', '/api/v3/projects/a/runs/b'), { allowed: ['HEAD', 'GET'] });
  assert.equal(ours('GET', '/api/v3/projects/a/runs/b//'), { allowed: [] });
});

test('route table: 405 with Allow, 200 for OPTIONS, 501 for unknown methods, over the app', async () => {
  const p = '/api/v3/projects/a/runs/b';
  const del = await mock.fetch(p, { method: 'DELETE' });
  assert.is(del.status, 405);
  assert.is(del.headers.get('allow'), 'HEAD, GET');
  assert.is(((await del.json()) as { detail: { reason_code: string } }).detail.reason_code, 'method_not_allowed');
  const options = await mock.fetch(p, { method: 'OPTIONS' });
  assert.is(options.status, 200);
  assert.is(options.headers.get('allow'), 'HEAD, GET');
  const purge = await mock.inject({ method: 'PURGE' as 'GET', url: p });
  assert.is(purge.statusCode, 405); // the router answers 501; the error renderer maps it to method_not_allowed
  assert.is(purge.json().detail.reason_code, 'method_not_allowed');
  const missing = await mock.fetch('/api/v3/nothing');
  assert.is(missing.status, 404);
  assert.is(((await missing.json()) as { detail: { reason_code: string } }).detail.reason_code, 'route_not_found');
});

test.run();
