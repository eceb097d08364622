// project-runtime-mock/testcontainers against podman's Docker-compatible service: the container starts from the image,
// answers at its base URL, and its typed client reads v3, makes a sandbox and carries the control token.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUNTIME_MOCK_IMAGE, RuntimeMockContainer } from 'project-runtime-mock/testcontainers';
import { PODMAN, buildImage } from '../../scripts/container-image.js';
import { needs } from '../helpers/needs.js';
import { ROOT } from '../helpers/cli.js';
import { DEMO } from '../helpers/demo.js';

const P = DEMO.projects.support;
const onPath = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const tools = ['podman', 'runc', 'mmdebstrap'].filter((t) => !onPath(t));
const available = needs('podman', tools.length === 0, `install ${tools.join(', ')} (Debian packages; .ci/run installs them)`);

const built = available ? await buildImage() : undefined;
const dir = mkdtempSync(join(tmpdir(), 'prm-podman-'));
const socket = join(dir, 'podman.sock');
let service: ChildProcess | undefined;

test.before(async () => {
  if (!available) return;
  // podman's Docker-compatible API on a socket of this run; Ryuk (the reaper container) is off, as podman needs.
  service = spawn(PODMAN[0], [...PODMAN.slice(1), 'system', 'service', '--time=0', `unix://${socket}`], { stdio: 'ignore' });
  for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 50));
  process.env.DOCKER_HOST = `unix://${socket}`;
  process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
});

test.after(() => {
  service?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

test('testcontainers: the image built here is the one RuntimeMockContainer starts by default', () => {
  assert.is(built?.tag, RUNTIME_MOCK_IMAGE);
});

test('testcontainers: start() gives a base URL and a typed client (v3 read, sandbox, control token); stop() ends it', async () => {
  const mock = await new RuntimeMockContainer().withControlToken('tc-token').withEnvironment({ PRM_MEMORY: 'true' }).withAllowedHosts('mock').start();
  try {
    // The engine's host as Testcontainers sees it: localhost, or the gateway when this process runs in a container.
    assert.match(mock.baseUrl, /^http:\/\/[\w.:[\]-]+:\d+$/, mock.baseUrl);
    const client = mock.client({ token: DEMO.tokens.operator });
    const run = await client.getRun(P, DEMO.runs.waitingApproval);
    assert.is(run.data?.status, 'waiting_approval');
    assert.equal(await client.control.health(), { status: 'ok', now: DEMO.now });
    // The control token is sent for it: without it the surface refuses.
    assert.is((await fetch(`${mock.baseUrl}/_mock/state`)).status, 401);
    const sandbox = await client.control.createSandbox({ name: 'tc' });
    assert.is((await sandbox.cancelRun(P, DEMO.runs.waitingApproval)).data?.status, 'cancelled');
    assert.is((await client.getRun(P, DEMO.runs.waitingApproval)).data?.status, 'waiting_approval');
  } finally {
    await mock.stop();
  }
});

test('testcontainers: the recipe the docs show (examples/testcontainers.test.mjs) passes under node --test', () => {
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', 'examples/testcontainers.test.mjs'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: process.env,
  });
  assert.is(r.status, 0, `${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /pass 1\b/);
  assert.match(r.stdout, /mock at http:\/\/[\w.:[\]-]+:\d+/);
});

test.run();
