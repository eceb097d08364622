// Sandboxes from code: the in-process recipe (examples/sandboxes-in-process.ts) runs, and the typed client that
// control.createSandbox resolves with has every v3 and control method of the root client, all addressed to the sandbox.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, demoFixture, type MockApp } from 'project-runtime-mock';
import { createClient, type MockClient } from 'project-runtime-mock/client';
import { DEMO } from '../helpers/demo.js';

const P = DEMO.projects.support;
const methods = (o: object) =>
  Object.entries(o)
    .filter(([, v]) => typeof v === 'function')
    .map(([k]) => k)
    .sort();

let mock: MockApp;
let root: MockClient;
test.before(async () => {
  mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  root = createClient({ baseUrl: 'http://localhost', token: DEMO.tokens.owner, fetch: mock.fetch });
});
test.after(() => mock.close());

test('the in-process recipe runs: mock.control.createSandbox, mock.fetch by base_url and by header, the typed client bound', async () => {
  const { seen } = await import('../../examples/sandboxes-in-process.js');
  assert.equal(seen.sandboxes, ['typed', 'in-process'], 'newest first');
  assert.is(seen.first.base_url, `http://localhost/sandboxes/${seen.first.id}`);
  assert.is(seen.second.base_url, `http://localhost/sandboxes/${seen.second.id}`);
  assert.match(seen.first.id, /^[a-z0-9]{20}$/);
  assert.is.not(seen.first.id, seen.second.id);
});

test('the bound client has the same v3 and control methods as the root client (and a `sandbox`: what the create answered)', async () => {
  const sb = await root.control.createSandbox({ name: 'bound' });
  const v3 = methods(root);
  assert.ok(v3.includes('cancelRun') && v3.includes('getApproval') && v3.includes('with'), v3.join(' '));
  assert.equal(methods(sb), v3);
  assert.equal(methods(sb.control), methods(root.control));
  assert.ok(methods(root.control).length >= 40, `${methods(root.control).length} control methods`);
  assert.equal(Object.keys(sb).sort(), [...Object.keys(root), 'sandbox'].sort());
  assert.equal(sb.sandbox, (await root.control.sandbox(sb.sandbox.id)) as unknown);
  await root.control.deleteSandbox(sb.sandbox.id);
});

test('every way into the bound client reaches the sandbox: v3, control, `api`, and `with(other credentials)`', async () => {
  const sb = await root.control.createSandbox({ name: 'ways', clock: { now: '2031-05-05T05:05:05Z' } });
  assert.is((await sb.cancelRun(P, DEMO.runs.waitingApproval)).data?.status, 'cancelled');
  assert.is((await sb.control.clock()).now, '2031-05-05T05:05:05.000Z');
  const viaApi = await sb.api.GET('/api/v3/projects/{project_id}/runs/{run_id}', { params: { path: { project_id: P, run_id: DEMO.runs.waitingApproval } } });
  assert.is(viaApi.data?.status, 'cancelled');
  const viewer = sb.with({ token: DEMO.tokens.viewer });
  assert.is((await viewer.getRun(P, DEMO.runs.waitingApproval)).data?.status, 'cancelled');
  assert.is((await viewer.control.clock()).now, '2031-05-05T05:05:05.000Z');
  // The root client and the default mock saw none of it.
  assert.is((await root.getRun(P, DEMO.runs.waitingApproval)).data?.status, 'waiting_approval');
  assert.is((await root.control.clock()).now, DEMO.now);
  assert.equal(
    (await sb.control.requests({ path: '/api/v3/**' })).map((e) => e.operation),
    ['cancelRun', 'getRun', 'getRun'],
  );
  await root.control.deleteSandbox(sb.sandbox.id);
});

test.run();
