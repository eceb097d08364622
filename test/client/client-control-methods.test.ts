// The typed client's control methods: one for every operation of the document (and in docs/client.md), the control token,
// in process over mock.fetch, and createSandbox's bound client.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../src/app.js';
import { createClient, ControlError, OPERATIONS } from 'project-runtime-mock/client';
import { startCli } from '../helpers/cli.js';
import { cliClient } from '../helpers/client.js';
import { DEMO } from '../helpers/demo.js';
import { demoFixture } from '../../src/fixtures.js';

const P = DEMO.projects.support;
const mock = cliClient(test);

test('the client has a method for every v3 and control operation of the document', () => {
  const v3 = Object.keys(OPERATIONS).filter((id) => !id.startsWith('control'));
  assert.is(v3.length, 20);
  for (const id of v3) assert.type((mock.client as unknown as Record<string, unknown>)[id], 'function', id);
  // Control methods are named like the in-process MockControl's; each control operation maps to one.
  const byOperation: Record<string, string> = {
    controlHealth: 'health',
    controlReset: 'reset',
    controlLoadFixtures: 'loadFixtures',
    controlGetState: 'exportState',
    controlPutState: 'importState',
    controlListRequests: 'requests',
    controlClearRequests: 'clearRequests',
    controlCoverage: 'coverage',
    controlGetClock: 'clock',
    controlSetClock: 'setClock',
    controlListFaults: 'faults',
    controlAddFault: 'addFault',
    controlClearFaults: 'clearFaults',
    controlGetDesiredState: 'getDesiredState',
    controlApplyDesiredState: 'applyDesiredState',
    controlCompileRelease: 'compileRelease',
    controlCreateRun: 'createRun',
    controlTransitionRun: 'transitionRun',
    controlMintCode: 'mintAuthorizationCode',
    controlGetSimulation: 'simulation',
    controlSetSimulation: 'setSimulation',
    controlStepSimulation: 'stepSimulation',
    controlRunSimulation: 'runSimulation',
    controlSetBehaviours: 'setBehaviours',
    controlGetRequest: 'journalEntry',
    controlListProjects: 'projects',
    controlGetProject: 'projectOverview',
    controlListRuns: 'runs',
    controlGetRun: 'run',
    controlGetBundle: 'exportBundle',
    controlPutBundle: 'importBundle',
    controlRequestsHar: 'har',
    controlClientReport: 'clientReport',
    controlExportTest: 'exportTest',
    controlDrift: 'drift',
    controlTimeline: 'timeline',
    controlCoverageNext: 'coverageNext',
    controlVerify: 'verify',
    controlVerifySequence: 'verifySequence',
    controlVerifyOnly: 'verifyOnly',
    controlListApprovals: 'approvals',
    controlListUsers: 'users',
    controlListJobs: 'jobs',
    controlListReleases: 'releases',
    controlCreateSandbox: 'createSandbox',
    controlListSandboxes: 'sandboxes',
    controlGetSandbox: 'sandbox',
    controlDeleteSandbox: 'deleteSandbox',
    controlSaveSnapshot: 'saveSnapshot',
    controlListSnapshots: 'snapshots',
    controlRestoreSnapshot: 'restoreSnapshot',
    controlDeleteSnapshot: 'deleteSnapshot',
  };
  const control = Object.keys(OPERATIONS).filter((id) => id.startsWith('control'));
  assert.equal(
    control.filter((id) => !byOperation[id]),
    [],
    'a control operation without a client method',
  );
  for (const id of control) assert.type((mock.client.control as unknown as Record<string, unknown>)[byOperation[id]], 'function', id);
});

test('a mock with a control token: the client sends it on /_mock only, and a client without it is refused', async () => {
  const guarded = await startCli(['--memory', '--port', '0', '--control-token', 'ct-secret']);
  try {
    const withToken = createClient({ baseUrl: guarded.url, token: DEMO.tokens.owner, controlToken: 'ct-secret' });
    assert.equal(await withToken.control.health(), { status: 'ok', now: DEMO.now });
    assert.is((await withToken.listUsers(P, { limit: 1 })).response.status, 200);
    const journal = await withToken.control.requests({ path: '/api/v3/**' });
    const headers = (journal[0] as { request?: { headers?: Record<string, unknown> } }).request?.headers ?? {};
    assert.not.ok('x-mock-control-token' in headers, 'the control token is not sent to v3');
    try {
      await createClient({ baseUrl: guarded.url }).control.reset();
      assert.unreachable('no token: refused');
    } catch (err) {
      assert.instance(err, ControlError);
      assert.is((err as ControlError).status, 401);
    }
  } finally {
    await guarded.stop();
  }
});

test('in process: the client over mock.fetch, no socket', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const inProcess = createClient({ baseUrl: 'http://localhost', token: DEMO.tokens.owner, fetch: mock.fetch });
  assert.is((await inProcess.getRun(P, DEMO.runs.failedApi)).data?.id, DEMO.runs.failedApi);
  assert.equal(await inProcess.control.health(), { status: 'ok', now: DEMO.now });
  await mock.close();
});

test('createSandbox resolves with a client bound to the new sandbox: its writes, clock and journal are its own', async () => {
  const sb = await mock.client.control.createSandbox({ name: 'typed', clock: { now: '2031-01-01T00:00:00Z' } });
  assert.match(sb.sandbox.base_url, new RegExp(`/sandboxes/${sb.sandbox.id}$`));
  assert.is((await sb.control.clock()).now, '2031-01-01T00:00:00.000Z');
  assert.is((await mock.client.control.clock()).now, DEMO.now);
  const cancelled = await sb.cancelRun(P, DEMO.runs.waitingApproval);
  assert.is(cancelled.data?.status, 'cancelled');
  assert.is((await mock.client.getRun(P, DEMO.runs.waitingApproval)).data?.status, 'waiting_approval');
  assert.equal(
    (await sb.control.requests()).map((e) => e.operation),
    ['cancelRun'],
  );
  await sb.control.saveSnapshot('one');
  assert.equal(
    (await sb.control.snapshots()).map((s) => s.name),
    ['one'],
  );
  assert.equal(await mock.client.control.snapshots(), []);
  assert.equal(
    (await mock.client.control.sandboxes()).items.map((s) => s.id),
    [sb.sandbox.id],
  );
  assert.equal(await mock.client.control.deleteSandbox(sb.sandbox.id), { deleted: true, id: sb.sandbox.id });
  const gone = await sb.control.clock().catch((e: ControlError) => e);
  assert.equal(
    [(gone as ControlError).status, ((gone as ControlError).body as { detail: { reason_code: string } }).detail.reason_code],
    [404, 'sandbox_not_found'],
  );
});

test('docs/client.md lists every v3 and control method of the client', () => {
  const page = readFileSync(fileURLToPath(new URL('../../docs/client.md', import.meta.url)), 'utf8');
  const v3 = [...page.matchAll(/^\| \d+ \| `(\w+)` \|/gm)].map((m) => m[1]);
  assert.equal(
    v3.sort(),
    Object.keys(OPERATIONS)
      .filter((id) => !id.startsWith('control'))
      .sort(),
  );
  const control = [...page.matchAll(/^\| `(\w+)\([^`]*\)` \| `(?:GET|POST|PUT|DELETE) \/_mock/gm)].map((m) => m[1]);
  assert.equal(control.sort(), Object.keys(mock.client.control).sort());
});

test.run();
