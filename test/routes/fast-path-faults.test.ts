// Faults choose alike on both paths: the fast path passes the route table's operation to the fault lookup, the whole
// chain asks operationOf; both must name the same operation for every path, and the same fault must win every request.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { bodyReader } from '../../src/pipeline/endpoint.js';
import { V3_ROUTES } from '../../src/routes/index.js';
import { routeTable } from '../../src/routes/table.js';
import { OPERATIONS } from '../../src/control/operations.js';
import { operationOf } from '../../src/control/faults/operation-of.js';
import { DEMO } from '../helpers/demo.js';
import { path } from '../helpers/generators.js';
import { propertyRuns } from '../runner/config.mjs';

const table = routeTable(V3_ROUTES.map((m) => m(bodyReader(1024), 1024)));

/** The operation the route table finds: its route's pattern and method looked up among the declared operations. */
function routedOperation(method: string, p: string): string | null {
  const found = table.lookup(method, p);
  if (!('handler' in found)) return null;
  const m = method.toUpperCase();
  return OPERATIONS.find((o) => o.method === m && o.path.replace(/\{(\w+)\}/g, ':$1') === found.path)?.operation ?? null;
}

const RESHAPES = ['none', 'upper', 'lower', 'slash', 'slashes', 'empty', 'drop', 'kelvin'] as const;
const reshaped = fc.tuple(fc.constantFrom(...OPERATIONS.map((o) => o.path)), fc.nat(), fc.constantFrom(...RESHAPES)).chain(([t, i, how]) =>
  path(t).map((p) => {
    const parts = p.split('/');
    const k = 1 + (i % (parts.length - 1));
    if (how === 'upper') parts[k] = parts[k].toUpperCase();
    if (how === 'lower') parts[k] = parts[k].toLowerCase();
    if (how === 'slash') return `${p}/`;
    if (how === 'slashes') return `${p}//`;
    if (how === 'empty') parts[k] = '';
    if (how === 'drop') parts.splice(k, 1);
    if (how === 'kelvin') parts[k] = parts[k].replace(/k/g, '\u212A'); // lowercases to 'k' in Unicode, never in routing
    return parts.join('/');
  }),
);

test('operationOf names the operation the route table routes to, for every declared path reshaped and every method', () => {
  fc.assert(
    fc.property(reshaped, fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'get', 'post'), (p, m) => {
      assert.is(operationOf(m, p), routedOperation(m, p), `${m} ${p}`);
    }),
    { numRuns: propertyRuns() * 25 },
  );
});

test('operationOf: examples at the edges of the rule', () => {
  const run = `/api/v3/projects/p/runs/r`;
  assert.is(operationOf('GET', run), 'getRun');
  assert.is(operationOf('GET', `${run}/`), 'getRun');
  assert.is(operationOf('GET', `${run}//`), null);
  assert.is(operationOf('get', '/API/V3/Projects/p/RUNS/r'), 'getRun');
  assert.is(operationOf('POST', '/api/v3/auth/token'), 'exchangeToken');
  assert.is(operationOf('POST', '/api/v3/auth/to\u212Aen'), null); // Unicode case folding would make it 'token'
  assert.is(routedOperation('POST', '/api/v3/auth/to\u212Aen'), null);
  assert.is(operationOf('GET', '/api/v3/projects//runs/r'), null);
});

const P = `/api/v3/projects/${DEMO.projects.support}`;
const RUN = `${P}/runs/${DEMO.runs.waitingApproval}`;
const R = DEMO.runs.waitingApproval;
/**
 * Fault sets, each in order of addition, with reads and the status of the fault that must win each (written out by
 * hand: the first match wins; 200 is none). A `**` glob is a candidate for every read of its method, so globs of that
 * kind have a set of their own: in the first, a read no glob could match reaches the fault lookup on the fast path.
 */
const CASES: { faults: { status: number; [k: string]: unknown }[]; reads: [string, number][] }[] = [
  {
    faults: [
      { match: { operation: 'getRun' }, status: 501 },
      { method: '*', path: '/api/v3/projects/*/approvals', status: 502 },
      { method: 'get', path: '/api/v3/projects/*/users/*', status: 504 },
      { method: 'GET', path: '/api/v3/projects/*/runs/*', status: 505 },
      { match: { operation: 'listJobs' }, status: 507 },
      { method: 'GET', path: '/api/v3/projects/*/Jobs', status: 508 },
    ],
    reads: [
      [RUN, 501], // getRun by operation, added before the glob for the same route
      [`${RUN}/`, 501], // one trailing slash: still getRun, and no glob (it wants exactly two segments after projects/*)
      [`${P}/Runs/${R}`, 501], // routed ignoring case: getRun, and no glob (its 'runs' is compared exactly)
      [`/API/V3/projects/${DEMO.projects.support}/RUNS/${R}`, 501],
      [`${RUN}?runtime_mode=live`, 501],
      [`${RUN}//`, 404], // two trailing slashes: no route, no operation (404 is the mock's own answer)
      [`${P}/approvals`, 502], // the `*` method
      [`${P}/approvals?status=pending`, 502],
      [`${P}/approvals/`, 200], // the glob has no trailing slash
      [`${P}/approvals/${DEMO.approvals.pendingWaiting}`, 200],
      [`${P}/users/${DEMO.principals.owner}`, 504], // a method given in lower case
      [`${P}/users`, 200],
      [`${P}/jobs`, 507], // by operation
      [`${P}/Jobs`, 507], // routed ignoring case to listJobs; the glob matches too, but was added later
      [`${P}/JOBS`, 507],
      [`${P}/releases`, 200],
      [`${P}/releases/${DEMO.releases.gen4Candidate}/diff`, 200],
    ],
  },
  {
    faults: [
      { method: 'POST', path: '/api/v3/**', status: 500 },
      { method: '*', path: '/api/v3/**/diff', status: 503 },
      { method: 'GET', path: '/api/v3/projects/**', status: 506 },
    ],
    reads: [
      [`${P}/releases/${DEMO.releases.gen4Candidate}/diff`, 503],
      [RUN, 506],
      [`/api/v3/PROJECTS/${DEMO.projects.support}/runs/${R}`, 200], // routed, but globs compare exactly
      [`/api/v3/auth/token`, 405], // POST only: the POST glob does not apply to a GET
    ],
  },
];

const listen = (listener: RequestListener): Promise<Server> =>
  new Promise((resolve) => {
    const server = createServer(listener);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });

test('tables of faults and reads: the fast path server and the whole chain answer each read with the same fault', async () => {
  for (const { faults, reads } of CASES) {
    const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
    const ids = faults.map((f) => mock.control.addFault(f as never).id);
    const fast = await listen(mock.callback());
    const full = await listen(mock.app.callback());
    const get = async (server: Server, p: string) => {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}${p}`, { headers: { authorization: `Bearer ${DEMO.tokens.owner}` } });
      await res.arrayBuffer();
      return { status: res.status, fault: res.headers.get('x-mock-fault') };
    };
    try {
      for (const [p, status] of reads) {
        const i = faults.findIndex((f) => f.status === status);
        const expected = { status, fault: i < 0 ? null : ids[i] };
        assert.equal(await get(fast, p), expected, `GET ${p} through the fast path's server`);
        assert.equal(await get(full, p), expected, `GET ${p} through the whole chain`);
      }
    } finally {
      fast.close();
      full.close();
      await mock.close();
    }
  }
});

test.run();
