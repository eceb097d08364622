// The Python client and pytest plugin (python/), run by Debian's /usr/bin/python3 with its pytest and pytest-xdist: the
// client's unit tests against a real server, tests that would collide on a shared mock passing with 4 xdist workers on
// one server (given by RUNTIME_MOCK_URL, or started by the plugin once for every worker and stopped after), the start
// modes, the failures a user meets (no server, a failed verify), and the pytest11 entry point of an installed copy.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT, startCli } from '../helpers/cli.js';
import { needs } from '../helpers/needs.js';
import { PY, PYTHON, pytest, pytestFailure, records, run } from '../helpers/pytest.js';
import { parse } from 'yaml';

const work = mkdtempSync(join(tmpdir(), 'prm-python-'));

function recordDir(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  return dir;
}

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/_mock/health`);
    return false;
  } catch {
    return true;
  }
}

const available = needs(
  'python3-pytest and python3-pytest-xdist',
  existsSync(PYTHON) && (await run(PYTHON, ['-c', 'import pytest, xdist, venv, setuptools, wheel'])).code === 0,
  'apt-get install python3-pytest python3-pytest-xdist python3-venv python3-setuptools python3-wheel',
);

const hasMypy = available && needs('python3-mypy', (await run(PYTHON, ['-c', 'import mypy'])).code === 0, 'apt-get install python3-mypy');

if (available) {
  test('the client against a real server, and 25 colliding tests with 4 xdist workers on RUNTIME_MOCK_URL: each test its own sandbox, each deleted after', async () => {
    const cli = await startCli(['--port', '0', '--memory'], 30_000);
    const dir = recordDir('given');
    try {
      const done = await pytest(['-n', '4', 'tests'], { RUNTIME_MOCK_URL: cli.url, RUNTIME_MOCK_RECORD: dir });
      assert.is(done.code, 0, pytestFailure(done));
      assert.match(done.out, /\b38 passed\b/);
      const seen = records(dir);
      assert.is(seen.length, 25);
      assert.equal([...new Set(seen.map((r) => r.server))], [cli.url]);
      assert.is(new Set(seen.map((r) => r.sandbox)).size, 25);
      assert.equal([...new Set(seen.map((r) => r.worker))].sort(), ['gw0', 'gw1', 'gw2', 'gw3']);
      // Every sandbox was deleted after its test; the server given is left running.
      const left = (await (await fetch(`${cli.url}/_mock/sandboxes`)).json()) as { items: unknown[] };
      assert.equal(left.items, []);
    } finally {
      await cli.stop();
    }
  });

  test('without RUNTIME_MOCK_URL the plugin starts one server (the CLI on PATH) for all 4 workers, and stops it after the run', async () => {
    const bin = join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'project-runtime-mock'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(join(bin, 'project-runtime-mock'), 0o755);
    const dir = recordDir('started');
    const done = await pytest(['-n', '4', 'tests/test_sandbox_isolation.py'], { PATH: `${bin}:${process.env.PATH}`, RUNTIME_MOCK_RECORD: dir });
    assert.is(done.code, 0, pytestFailure(done));
    assert.match(done.out, /\b25 passed\b/);
    const seen = records(dir);
    const servers = [...new Set(seen.map((r) => r.server))];
    assert.is(servers.length, 1, `one server: ${servers.join(', ')}`);
    assert.match(servers[0], /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal([...new Set(seen.map((r) => r.worker))].sort(), ['gw0', 'gw1', 'gw2', 'gw3']);
    assert.ok(await refused(servers[0]), `${servers[0]} still answers after the run`);
  });

  test('start mode npx runs the package installed in the project (here: this repository)', async () => {
    const dir = recordDir('npx');
    // npm's own cache of npx runs is shared by every process on the machine, and two npx runs of one package at once
    // can leave it half written (ENOENT on its package.json): this run has a cache of its own.
    const cache = mkdtempSync(join(tmpdir(), 'prm-npx-cache-'));
    // Here the package is the repository itself, which npx installs from its folder: without ignore-scripts that runs its
    // prepare script, a build that rewrites dist/ under every other suite running meanwhile.
    const done = await pytest(['--runtime-mock-start', 'npx', 'tests/test_sandbox_isolation.py'], {
      RUNTIME_MOCK_RECORD: dir,
      npm_config_cache: cache,
      npm_config_ignore_scripts: 'true',
    });
    rmSync(cache, { recursive: true, force: true });
    assert.is(done.code, 0, pytestFailure(done));
    const servers = [...new Set(records(dir).map((r) => r.server))];
    assert.is(servers.length, 1);
    assert.ok(await refused(servers[0]), 'stopped after the run');
  });

  test('a sandbox fixture with no server reachable fails the test naming the URL it tried', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const done = await pytest(['tests/cases/no_server.py'], { RUNTIME_MOCK_URL: url });
    assert.is(done.code, 1, done.out);
    assert.match(done.out, `runtime_mock_sandbox: no mock server answered at ${url} ([Errno 111] Connection refused); start one`);
    assert.match(done.out, /1 error in/);
    const cli = await pytest(['--runtime-mock-start', 'cli', 'tests/cases/no_server.py'], { PATH: '/usr/bin:/bin' });
    assert.match(cli.out, 'runtime_mock: could not start a mock server (start mode cli): start mode cli: no project-runtime-mock on PATH');
    const bad = await pytest(['--runtime-mock-start', 'kubernetes', 'tests/cases/no_server.py']);
    assert.is(bad.code, 4, bad.out);
    assert.match(bad.out, "runtime_mock_start: 'kubernetes' is not one of auto, cli, npx, container");
  });

  test('a failed verify reads as in JavaScript: the expectation, then the closest requests and why each missed', async () => {
    const cli = await startCli(['--port', '0', '--memory'], 30_000);
    try {
      const done = await pytest(['tests/cases/failing_verify.py'], { RUNTIME_MOCK_URL: cli.url });
      assert.is(done.code, 1, done.out);
      const run = '/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/runs/391206e3-21b8-4eae-b109-2fe71e9c7b14';
      assert.match(
        done.out,
        [
          '>       runtime_mock_sandbox.verify(operation="cancelRun", body={"reason": "go"}, count={"exactly": 1})',
          'E       project_runtime_mock.client.VerificationError: Expected exactly 1 request matching {"operation":"cancelRun","body":{"reason":"go"}}, but 0 matched among 1 journaled request.',
          'E       Closest requests:',
          `E         #1 POST ${run}/cancel -> 200: body.reason expected "go", got "stop"`,
          '',
          'tests/cases/failing_verify.py:8: VerificationError',
        ].join('\n'),
      );
    } finally {
      await cli.stop();
    }
  });

  test("installed (a venv on the system packages, Debian's pip and setuptools, no index): the pytest11 entry point loads the plugin", async () => {
    const venv = join(work, 'venv');
    const src = join(work, 'src');
    cpSync(PY, src, { recursive: true, filter: (p) => !/__pycache__|\.egg-info|\/build$/.test(p) }); // pip builds in the tree it is given
    let done = await run(PYTHON, ['-m', 'venv', '--system-site-packages', '--without-pip', venv]);
    assert.is(done.code, 0, done.out);
    done = await run(join(venv, 'bin/python'), [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--no-compile',
      '--disable-pip-version-check',
      '--no-build-isolation',
      '--no-index',
      '--no-deps',
      src,
    ]);
    assert.is(done.code, 0, done.out);
    const typed = await run(join(venv, 'bin/python'), [
      '-c',
      'import importlib.resources as r; print(r.files("project_runtime_mock").joinpath("py.typed").is_file())',
    ]);
    assert.is(typed.out.trim(), 'True');
    const where = await run(join(venv, 'bin/python'), ['-c', 'import project_runtime_mock as m; print(m.__file__)'], {}, work);
    assert.ok(where.out.startsWith(join(venv, 'lib')), where.out);
    const cli = await startCli(['--port', '0', '--memory'], 30_000);
    try {
      // No -p and no PYTHONPATH: the plugin comes from the entry point; run from elsewhere so the source tree is not on the path.
      done = await run(
        join(venv, 'bin/python'),
        ['-m', 'pytest', '-p', 'no:cacheprovider', join(PY, 'tests/test_client.py')],
        { RUNTIME_MOCK_URL: cli.url },
        work,
      );
      assert.is(done.code, 0, done.out.slice(-3000));
      assert.match(done.out, /\b10 passed\b/);
      const help = await run(join(venv, 'bin/python'), ['-m', 'pytest', '--help'], {}, work);
      assert.match(help.out, '--runtime-mock-start=RUNTIME_MOCK_START');
    } finally {
      await cli.stop();
    }
  });

  if (hasMypy)
    test('the type hints hold: mypy --strict finds nothing in the package', async () => {
      const done = await run(PYTHON, ['-m', 'mypy', '--strict', `--cache-dir=${join(work, 'mypy')}`, 'src/project_runtime_mock']);
      assert.is(done.code, 0, done.out);
      assert.match(done.out, /^Success: no issues found in 4 source files$/m);
    });

  test('docs/other-languages.md names every option the plugin adds, with its ini setting', async () => {
    const help = await pytest(['--help']);
    const options = [...help.out.matchAll(/--runtime-mock-[a-z-]+/g)].map((m) => m[0]);
    assert.is(new Set(options).size, 7, help.out);
    const page = readFileSync(join(ROOT, 'docs/other-languages.md'), 'utf8');
    for (const option of new Set(options)) {
      const ini = option.slice(2).replaceAll('-', '_');
      assert.match(page, `| \`${ini}\` | \`${option}\` |`, option);
    }
  });
}

test('the CI workflow recipe: the image as a service on 4010, RUNTIME_MOCK_URL, pytest -n 4, and a health command that tells up from down', async () => {
  const text = readFileSync(join(ROOT, 'examples/ci/github-actions.yml'), 'utf8');
  const flow = parse(text) as {
    jobs: { pytest: { services: { mock: { image: string; ports: string[]; options: string } }; env: Record<string, string>; steps: { run?: string }[] } };
  };
  const job = flow.jobs.pytest;
  assert.equal(job.services.mock.ports, ['4010:4010']);
  assert.match(job.services.mock.image, /project-runtime-mock:0\.1\.0$/);
  assert.is(job.env.RUNTIME_MOCK_URL, 'http://localhost:4010');
  assert.equal(job.steps.map((s) => s.run).filter(Boolean), [
    'pip install pytest pytest-xdist "project-runtime-mock @ git+https://github.com/your-org/project-runtime-mock.git#subdirectory=python"',
    'pytest -n 4',
  ]);
  const health = /--health-cmd "((?:[^"\\]|\\.)*)"/.exec(job.services.mock.options)?.[1].replaceAll('\\"', '"');
  assert.ok(health?.includes('http://127.0.0.1:4010/_mock/health'), job.services.mock.options);
  const cli = await startCli(['--port', '0', '--memory'], 30_000);
  const check = () => run('sh', ['-c', health!.replace('http://127.0.0.1:4010', cli.url)], {}, ROOT);
  try {
    assert.is((await check()).code, 0, 'healthy while the server runs');
  } finally {
    await cli.stop();
  }
  assert.is((await check()).code, 1, 'unhealthy once it stopped');
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test.run();
