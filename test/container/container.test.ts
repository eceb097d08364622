// The container image under podman, built here without a registry: health, a v3 read, a sandbox per worker made from
// the host, host names and the token on a network, data kept across a restart, a non-root process, a clean stop, and
// a bad flag, variable or fixture refused naming it; and the pytest plugin starting the image for its workers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createClient } from 'project-runtime-mock/client';
import { PODMAN, buildImage, podman } from '../../scripts/container-image.js';
import { runToExit, startContainer, type RunOptions } from '../../scripts/container-run.js';
import { needs } from '../helpers/needs.js';
import { DEMO } from '../helpers/demo.js';
import { get } from '../helpers/host-get.js';
import { PYTHON, hasPytest, pytest, pytestFailure, recordDir, records } from '../helpers/pytest.js';

const P = DEMO.projects.support;
const RUN = DEMO.runs.waitingApproval;
const onPath = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const tools = ['podman', 'runc', 'mmdebstrap'].filter((t) => !onPath(t));
const available = needs('podman', tools.length === 0, `install ${tools.join(', ')} (Debian packages; .ci/run installs them)`);

// Building takes longer than one test may: it runs while the file loads (a failure fails the file).
const built = available ? await buildImage() : undefined;
const withPytest =
  available &&
  needs('python3-pytest and python3-pytest-xdist', existsSync(PYTHON) && (await hasPytest()), 'apt-get install python3-pytest python3-pytest-xdist');
const image = built?.tag ?? '';
const names = new Set<string>();
/** A container name of this run (removed at the end, with its volume). */
const unique = (what: string) => {
  const name = `prm-test-${what}-${process.pid}`;
  names.add(name);
  return name;
};

test.after(() => {
  if (!available) return;
  for (const name of names) {
    podman(['rm', '--force', '--ignore', name]);
    podman(['volume', 'rm', '--force', name]);
    podman(['network', 'rm', '--force', name]);
  }
  if (built) console.log(`image: base ${Math.round(built.baseMs)} ms, staging ${Math.round(built.stageMs)} ms, build ${Math.round(built.buildMs)} ms`);
});

test('container: health, a v3 read with a demo token, the health check, a non-root server', async () => {
  const c = await startContainer(image, { name: unique('basic') });
  assert.equal(await (await fetch(`${c.url}/_mock/health`)).json(), { status: 'ok', now: DEMO.now });
  const run = await fetch(`${c.url}/api/v3/projects/${P}/runs/${RUN}`, { headers: { Authorization: `Bearer ${DEMO.tokens.operator}` } });
  assert.is(run.status, 200);
  assert.equal(((await run.json()) as { id: string; status: string }).id, RUN);
  assert.is((await fetch(`${c.url}/api/v3/projects/${P}/runs/${RUN}`)).status, 401);
  // The image's HEALTHCHECK, run on demand: exit 0 (podman throws otherwise) and "healthy".
  podman(['healthcheck', 'run', c.name]);
  assert.is(podman(['inspect', c.name, '--format', '{{.State.Health.Status}}']).trim(), 'healthy');
  // The server (PID 1) runs as the image's own user, never root; /data is its, and the state lives there.
  const status = podman(['exec', c.name, 'cat', '/proc/1/status']);
  assert.equal(/^Uid:\s+(\d+)\s+(\d+)/m.exec(status)?.slice(1), ['10001', '10001']);
  assert.is(podman(['exec', c.name, 'id', '-un']).trim(), 'mock');
  assert.is(podman(['exec', c.name, 'stat', '-c', '%U %a', '/data/.data/db.json']).trim(), 'mock 644');
  // The package's files are root's: the server cannot change itself.
  assert.is(spawnSync(PODMAN[0], [...PODMAN.slice(1), 'exec', c.name, 'touch', '/opt/project-runtime-mock/dist/cli.js']).status, 1);
  // Without a control token it warns once, naming the variable the image sets.
  assert.match(c.logs().stderr, 'warning: PRM_HOST 0.0.0.0 serves the /_mock control surface');
  const stopped = c.stop();
  assert.is(stopped.exitCode, 0);
  assert.ok(stopped.ms < 2_000, `podman stop took ${Math.round(stopped.ms)} ms`);
});

test('container: a sandbox per worker, made from the host, each with its own state', async () => {
  const c = await startContainer(image, { name: unique('sandboxes'), env: { PRM_MEMORY: 'true' } });
  const root = createClient({ baseUrl: c.url, token: DEMO.tokens.owner });
  const workers = await Promise.all(
    Array.from({ length: 4 }, async (_, i) => {
      const sb = await root.control.createSandbox({ name: `worker-${i}` });
      assert.is((await sb.setBudget(P, { project_daily_usd: 10 + i })).response.status, 200);
      return { i, sb };
    }),
  );
  for (const { i, sb } of workers) {
    const overview = (await sb.control.projectOverview(P)).budget as { limits: { project_daily_usd: number } };
    assert.is(overview.limits.project_daily_usd, 10 + i);
  }
  const base = (await root.control.projectOverview(P)).budget as { limits: { project_daily_usd: number } };
  assert.ok(![10, 11, 12, 13].includes(base.limits.project_daily_usd), 'the shared state saw no sandbox write');
  assert.is(c.stop().exitCode, 0);
});

test('container: state on the /data volume outlives the container; every acknowledged write kept by a stop', async () => {
  const name = unique('volume');
  const c = await startContainer(image, { name, volume: name });
  const client = createClient({ baseUrl: c.url, token: DEMO.tokens.operator });
  assert.is((await client.cancelRun(P, RUN)).data?.status, 'cancelled');
  // Writes acknowledged just before the stop: all of them are there after it.
  const budgets = await Promise.all(
    Array.from({ length: 20 }, (_, i) => createClient({ baseUrl: c.url, token: DEMO.tokens.owner }).setBudget(P, { project_daily_usd: 100 + i })),
  );
  assert.ok(budgets.every((b) => b.response.status === 200));
  const last = (await createClient({ baseUrl: c.url, token: DEMO.tokens.owner }).control.projectOverview(P)).budget as {
    limits: { project_daily_usd: number };
  };
  const stopped = c.stop();
  assert.is(stopped.exitCode, 0);
  assert.ok(stopped.ms < 2_000, `podman stop took ${Math.round(stopped.ms)} ms`);
  // A new container on the same volume reads the same state.
  podman(['rm', name]);
  const again = await startContainer(image, { name, volume: name });
  const after = createClient({ baseUrl: again.url, token: DEMO.tokens.operator });
  assert.is((await after.getRun(P, RUN)).data?.status, 'cancelled');
  const budget = (await createClient({ baseUrl: again.url, token: DEMO.tokens.owner }).control.projectOverview(P)).budget as typeof last;
  assert.equal(budget.limits, last.limits);
  assert.is(again.stop().exitCode, 0);
});

test('container: other containers reach it as http://mock:4010 with PRM_ALLOWED_HOST and PRM_CONTROL_TOKEN', async () => {
  const net = unique('net');
  podman(['network', 'create', net]);
  const c = await startContainer(image, {
    name: unique('mock'),
    network: net,
    alias: 'mock',
    env: { PRM_ALLOWED_HOST: 'mock', PRM_CONTROL_TOKEN: 'ci-token' },
  });
  const probe = (headers: Record<string, string>) =>
    podman([
      'run',
      '--rm',
      '--network',
      net,
      '--entrypoint',
      'node',
      image,
      '-e',
      `fetch('http://mock:4010/_mock/state', { headers: ${JSON.stringify(headers)} }).then((r) => console.log(r.status))`,
    ]).trim();
  assert.is(probe({ 'X-Mock-Control-Token': 'ci-token' }), '200');
  assert.is(probe({}), '401');
  // From the host: loopback is allowed, a name not listed is refused.
  assert.is((await get(c.url, '/_mock/health', { Host: 'mock:4010' })).status, 200);
  assert.is((await get(c.url, '/_mock/health', { Host: 'other:4010' })).status, 421);
  // With a token no warning is printed.
  assert.not.match(c.logs().stderr, 'warning');
  assert.is(c.stop().exitCode, 0);
});

test('container: an unknown flag, variable or fixture, or a bad value, exits non-zero naming it', () => {
  const cases: [RunOptions, number, string][] = [
    [{ args: ['--speedy', '3'] }, 2, "project-runtime-mock: Unknown option '--speedy'"],
    [{ env: { PRM_SPEEDY: '3' } }, 2, 'project-runtime-mock: unknown environment variable PRM_SPEEDY (did you mean PRM_SPEED?)'],
    [{ env: { PRM_SPEED: 'fast' } }, 2, 'project-runtime-mock: PRM_SPEED must be a number from 0.001 to 1000000, got fast'],
    [{ env: { PRM_MEMORY: 'yes' } }, 2, 'project-runtime-mock: PRM_MEMORY must be true or false (or 1 or 0), got yes'],
    [{ env: { PRM_FIXTURES: '/data/missing.json' } }, 1, 'project-runtime-mock: '],
  ];
  for (const [options, code, line] of cases) {
    const r = runToExit(image, options);
    assert.is(r.code, code, JSON.stringify(options));
    assert.ok(r.stderr.startsWith(line), r.stderr);
    if (options.env?.PRM_FIXTURES) assert.match(r.stderr, '/data/missing.json');
    assert.is(r.stdout, '');
  }
});

// The pytest plugin's start mode container: one container of the image for every xdist worker, removed after the run.
if (withPytest)
  test('container: the pytest plugin starts the image once for 4 xdist workers (start mode container), each test its own sandbox, and removes it', async () => {
    const dir = recordDir();
    const done = await pytest(
      [
        '--runtime-mock-start',
        'container',
        '--runtime-mock-engine',
        PODMAN.join(' '),
        '--runtime-mock-image',
        image,
        '-n',
        '4',
        'tests/test_sandbox_isolation.py',
      ],
      { RUNTIME_MOCK_RECORD: dir },
    );
    assert.is(done.code, 0, pytestFailure(done));
    assert.match(done.out, /^=+ 25 passed in [\d.]+s =+$/m);
    const seen = records(dir);
    assert.is(seen.length, 25);
    assert.is(new Set(seen.map((r) => r.sandbox)).size, 25);
    assert.equal([...new Set(seen.map((r) => r.worker))].sort(), ['gw0', 'gw1', 'gw2', 'gw3']);
    // One server, the container's published loopback port, gone after the run (stopped and removed).
    const servers = [...new Set(seen.map((r) => r.server))];
    assert.is(servers.length, 1, servers.join(', '));
    const port = /^http:\/\/127\.0\.0\.1:(\d+)$/.exec(servers[0])?.[1];
    assert.ok(port, servers[0]);
    assert.not.match(podman(['ps', '--all', '--format', '{{.Ports}}']), `127.0.0.1:${port}->4010/tcp`);
    assert.ok(
      await fetch(`${servers[0]}/_mock/health`).then(
        () => false,
        () => true,
      ),
      `${servers[0]} still answers after the run`,
    );
  });

test.run();
