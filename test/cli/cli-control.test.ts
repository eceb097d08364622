// The built CLI's control-surface flags: --control-token, --allowed-host, and the one-line warning for an open non-loopback bind.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { networkInterfaces } from 'node:os';
import { runCliToExit, startCli } from '../helpers/cli.js';
import { get } from '../helpers/host-get.js';

const WARNING = /^project-runtime-mock: warning: --host 0\.0\.0\.0 serves the \/_mock control surface .*--control-token TOKEN or --no-control$/;

test('cli: --host 0.0.0.0 without a token prints exactly one warning line; loopback still reaches /_mock', async () => {
  const cli = await startCli(['--port', '0', '--memory', '--host', '0.0.0.0']);
  const lines = cli
    .stderr()
    .split('\n')
    .filter((l) => l !== '');
  assert.is(lines.length, 1, cli.stderr());
  assert.match(lines[0], WARNING);
  const health = await get(cli.url, '/_mock/health', { Host: 'localhost' });
  assert.is(health.status, 200);
  assert.is(health.body.status, 'ok');
  // A wildcard bind answers to the machine's own addresses (the bound host), not to other names.
  const own = Object.values(networkInterfaces())
    .flatMap((l) => l ?? [])
    .find((i) => !i.internal && i.family === 'IPv4');
  if (own) assert.is((await get(cli.url, '/_mock/health', { Host: `${own.address}:4010` })).status, 200, own.address);
  const rebound = await get(cli.url, '/_mock/health', { Host: 'attacker.example' });
  assert.is(rebound.status, 421);
  assert.is(rebound.body.detail.reason_code, 'host_not_allowed');
  assert.is(await cli.stop(), 0);
});

test('cli: no warning on loopback, with --control-token, or with --no-control', async () => {
  for (const args of [[], ['--host', '0.0.0.0', '--control-token', 'tok'], ['--host', '0.0.0.0', '--no-control'], ['--host', 'localhost']]) {
    const cli = await startCli(['--port', '0', '--memory', ...args]);
    assert.is(cli.stderr(), '', args.join(' '));
    assert.is(await cli.stop(), 0);
  }
});

test('cli: --control-token makes /_mock need X-Mock-Control-Token (health aside); v3 does not', async () => {
  const cli = await startCli(['--port', '0', '--memory', '--control-token', 'cli-token']);
  const none = await get(cli.url, '/_mock/state');
  assert.is(none.status, 401);
  assert.is(none.body.detail.reason_code, 'control_token_invalid');
  assert.is((await get(cli.url, '/_mock/state', { 'X-Mock-Control-Token': 'nope' })).status, 401);
  const ok = await get(cli.url, '/_mock/state', { 'X-Mock-Control-Token': 'cli-token' });
  assert.is(ok.status, 200);
  assert.ok(Array.isArray(ok.body.projects));
  assert.is((await get(cli.url, '/_mock/health')).body.status, 'ok');
  assert.is((await get(cli.url, '/openapi.json')).status, 200);
  assert.is(await cli.stop(), 0);
});

test('cli: --allowed-host (repeatable) adds Host names', async () => {
  const cli = await startCli(['--port', '0', '--memory', '--allowed-host', 'mock.test', '--allowed-host', 'Other.Test']);
  for (const host of ['mock.test', 'MOCK.test:4010', 'other.test', '127.0.0.1']) {
    assert.is((await get(cli.url, '/_mock/health', { Host: host })).status, 200, host);
  }
  assert.is((await get(cli.url, '/_mock/health', { Host: 'third.test' })).status, 421);
  assert.is(await cli.stop(), 0);
});

test('cli: an empty --control-token is a usage error (exit 2)', async () => {
  const { code, stderr } = await runCliToExit(['--port', '0', '--memory', '--control-token', '']);
  assert.is(code, 2);
  assert.match(stderr, '--control-token must not be empty');
});

test.run();
