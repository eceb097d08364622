// Flags from PRM_* environment variables: one rule for every flag, the command line over the environment, an empty
// variable unset, and an unknown variable or a bad value refused with exit 2, named as the user gave it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ENV_FLAGS, USAGE, envName } from '../../src/cli-flags.js';
import { runCliToExit, startCli } from '../helpers/cli.js';
import { get } from '../helpers/host-get.js';

test('env: every option of --help but --help and --version has its variable, by the one rule', () => {
  const options = USAGE.slice(0, USAGE.indexOf('Every option but'));
  const documented = [...options.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]).filter((n) => n !== 'help' && n !== 'version');
  assert.ok(documented.length >= 25, `${documented.length} options`);
  assert.equal([...ENV_FLAGS.values()].sort(), [...new Set(documented)].sort());
  for (const [variable, flag] of ENV_FLAGS) assert.is(variable, `PRM_${flag.toUpperCase().split('-').join('_')}`);
  assert.is(envName('control-token'), 'PRM_CONTROL_TOKEN');
  assert.is(ENV_FLAGS.get('PRM_HELP'), undefined);
});

test('env: values from the environment configure the server; the command line wins; an empty variable is unset', async () => {
  const cli = await startCli(['--port', '0', '--control-token', 'from-flag'], 10_000, {
    PRM_MEMORY: 'true',
    PRM_CONTROL_TOKEN: 'from-env',
    PRM_ALLOWED_HOST: 'mock, other.test',
    PRM_SIMULATION: 'off',
    PRM_SPEED: '',
  });
  assert.is((await get(cli.url, '/_mock/state', { 'X-Mock-Control-Token': 'from-env' })).status, 401);
  assert.is((await get(cli.url, '/_mock/state', { 'X-Mock-Control-Token': 'from-flag' })).status, 200);
  for (const host of ['mock:4010', 'other.test']) assert.is((await get(cli.url, '/_mock/health', { Host: host })).status, 200, host);
  assert.is((await get(cli.url, '/_mock/health', { Host: 'third.test' })).status, 421);
  const sim = await get(cli.url, '/_mock/simulation', { 'X-Mock-Control-Token': 'from-flag' });
  assert.is(sim.body.mode, 'off');
  assert.is(await cli.stop(), 0);
});

test('env: a switch takes true, false, 1 or 0 in any case; --no-control from PRM_NO_CONTROL', async () => {
  for (const [value, served] of [
    ['1', false],
    ['TRUE', false],
    ['0', true],
    ['false', true],
  ] as const) {
    const cli = await startCli(['--port', '0', '--memory'], 10_000, { PRM_NO_CONTROL: value });
    assert.is((await fetch(`${cli.url}/_mock/health`)).status, served ? 200 : 404, value);
    assert.is(await cli.stop(), 0);
  }
});

test('env: an unknown PRM_ variable, a bad switch or a bad value exits 2 naming the variable; nothing listens', async () => {
  const cases: [Record<string, string>, string][] = [
    [{ PRM_SPEEDY: '3' }, 'project-runtime-mock: unknown environment variable PRM_SPEEDY (did you mean PRM_SPEED?)\n'],
    [{ PRM_NOPE_AT_ALL: '1' }, 'project-runtime-mock: unknown environment variable PRM_NOPE_AT_ALL\n'],
    [{ PRM_MEMORY: 'yes' }, 'project-runtime-mock: PRM_MEMORY must be true or false (or 1 or 0), got yes\n'],
    [{ PRM_SPEED: 'fast' }, 'project-runtime-mock: PRM_SPEED must be a number from 0.001 to 1000000, got fast\n'],
    [{ PRM_PORT: '70000' }, 'project-runtime-mock: PRM_PORT must be an integer from 0 to 65535, got 70000\n'],
    [{ PRM_DATA: '/tmp/x.json' }, 'project-runtime-mock: --memory and PRM_DATA exclude each other\n'],
  ];
  for (const [env, line] of cases) {
    const r = await runCliToExit(['--memory'], 10_000, env);
    assert.is(r.code, 2, JSON.stringify(env));
    assert.is(r.stderr.split('\n(every option')[0].replace(/\n?$/, '\n'), line);
    assert.is(r.stdout, '');
  }
  // Two problems at once: both named, in one line.
  const both = await runCliToExit(['--memory'], 10_000, { PRM_SPEEDY: '3', PRM_MEMORY: 'maybe' });
  assert.is(both.code, 2);
  assert.match(both.stderr, 'PRM_MEMORY must be true or false (or 1 or 0), got maybe; unknown environment variable PRM_SPEEDY (did you mean PRM_SPEED?)');
  // The same value on the command line is named as the flag.
  const flag = await runCliToExit(['--memory', '--speed', 'fast']);
  assert.is(flag.code, 2);
  assert.is(flag.stderr, 'project-runtime-mock: --speed must be a number from 0.001 to 1000000, got fast\n');
});

test('env: an unknown fixture file named in PRM_FIXTURES exits 1 naming it', async () => {
  const r = await runCliToExit(['--port', '0', '--memory'], 10_000, { PRM_FIXTURES: '/nonexistent/fixture.json' });
  assert.is(r.code, 1);
  assert.match(r.stderr, '/nonexistent/fixture.json');
  assert.is(r.stdout, '');
});

test.run();
