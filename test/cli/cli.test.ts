// The built CLI: listens on port 0, serves the demo, stops cleanly, and guards its data file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliToExit, startCli } from '../helpers/cli.js';
import { DEMO } from '../helpers/demo.js';

const runPath = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}`;
const auth = { Authorization: `Bearer ${DEMO.tokens.owner}` };
const tmpFile = () => join(mkdtempSync(join(tmpdir(), 'prm-cli-')), 'db.json');

test('cli: starts on port 0 with the demo, serves a run, exits 0 on SIGTERM', async () => {
  const cli = await startCli(['--port', '0', '--memory']);
  assert.match(cli.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const res = await fetch(cli.url + runPath, { headers: auth });
  assert.is(res.status, 200);
  assert.is(((await res.json()) as { status: string }).status, 'waiting_approval');
  assert.is(await cli.stop('SIGTERM'), 0);
});

test('cli: SIGINT also stops it with exit code 0', async () => {
  const cli = await startCli(['--port', '0', '--memory']);
  assert.is(await cli.stop('SIGINT'), 0);
});

test('cli: --data creates the file; an existing file is loaded as is; --reset reseeds it', async () => {
  const file = tmpFile();
  let cli = await startCli(['--port', '0', '--data', file]);
  assert.is(await cli.stop(), 0);
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  assert.is(doc.format, 'project-runtime-mock');
  doc.state.runs = doc.state.runs.filter((r: { id: string }) => r.id !== DEMO.runs.waitingApproval);
  writeFileSync(file, JSON.stringify(doc));

  cli = await startCli(['--port', '0', '--data', file]);
  assert.is((await fetch(cli.url + runPath, { headers: auth })).status, 404);
  assert.is(await cli.stop(), 0);

  cli = await startCli(['--port', '0', '--data', file, '--reset']);
  assert.is((await fetch(cli.url + runPath, { headers: auth })).status, 200);
  assert.is(await cli.stop(), 0);
});

test('cli: a corrupt data file stops start-up with a message naming it, and is not overwritten', async () => {
  const file = tmpFile();
  writeFileSync(file, '{"format": "project-runtime-mock", "sta');
  const { code, stderr } = await runCliToExit(['--port', '0', '--data', file]);
  assert.is(code, 1);
  assert.ok(stderr.includes(file), stderr);
  assert.is(readFileSync(file, 'utf8'), '{"format": "project-runtime-mock", "sta');
});

test('cli: a foreign JSON data file is refused and left untouched', async () => {
  const file = tmpFile();
  writeFileSync(file, '{"posts": []}');
  const { code, stderr } = await runCliToExit(['--port', '0', '--data', file]);
  assert.is(code, 1);
  assert.match(stderr, /not a project-runtime-mock data file/);
  assert.is(readFileSync(file, 'utf8'), '{"posts": []}');
});

test('cli: a second process on the same data file is refused (lock)', async () => {
  const file = tmpFile();
  const first = await startCli(['--port', '0', '--data', file]);
  const second = await runCliToExit(['--port', '0', '--data', file]);
  assert.is(second.code, 1);
  assert.match(second.stderr, /in use by process/);
  assert.is(await first.stop(), 0);
  const third = await startCli(['--port', '0', '--data', file]);
  assert.is(await third.stop(), 0);
});

test('cli: --auth off serves without credentials; --admin-key sets the key', async () => {
  const cli = await startCli(['--port', '0', '--memory', '--auth', 'off']);
  assert.is((await fetch(cli.url + runPath)).status, 200);
  await cli.stop();
  const keyed = await startCli(['--port', '0', '--memory', '--admin-key', 'k-123']);
  const conn = `/api/v3/projects/${DEMO.projects.support}/connections/support-chat`;
  assert.is((await fetch(keyed.url + conn, { headers: { 'X-Admin-Key': 'k-123' } })).status, 200);
  assert.is((await fetch(keyed.url + conn, { headers: { 'X-Admin-Key': DEMO.adminKey } })).status, 401);
  await keyed.stop();
});

test('cli: --fixtures loads another fixture file; a bad one is refused with its path', async () => {
  const file = tmpFile();
  writeFileSync(file, JSON.stringify({ runs: [{ id: 'x' }] }));
  const { code, stderr } = await runCliToExit(['--port', '0', '--memory', '--fixtures', file]);
  assert.is(code, 1);
  assert.match(stderr, /runs\[0\]\.id/);
  writeFileSync(file, JSON.stringify({}));
  const cli = await startCli(['--port', '0', '--memory', '--fixtures', file]);
  assert.is((await fetch(cli.url + runPath, { headers: auth })).status, 401);
  await cli.stop();
});

test('cli: --database excludes --data and --memory, takes a postgres URL, and names an unreachable database without its password', async () => {
  const url = 'postgres://mock:s3cretpw@127.0.0.1:1/mockdb';
  for (const [args, message] of [
    [['--database', url, '--memory'], '--database excludes --memory'],
    [['--database', url, '--data', 'x.json'], '--database excludes --data'],
    [['--database', 'mysql://x/y'], '--database must be a postgres:// URL, got mysql://x/y'],
  ] as const) {
    const { code, stderr } = await runCliToExit([...args]);
    assert.is(code, 2, args.join(' '));
    assert.ok(stderr.startsWith(`project-runtime-mock: ${message}\n`), stderr);
  }
  const down = await runCliToExit(['--port', '0', '--database', url], 30_000);
  assert.is(down.code, 1);
  assert.match(down.stderr, /^project-runtime-mock: cannot use database postgres:\/\/mock:\*\*\*@127\.0\.0\.1:1\/mockdb: .*ECONNREFUSED/);
  assert.not.match(down.stderr, /s3cretpw/);
});

test('cli: bad flags exit 2 with usage; --help prints usage', async () => {
  for (const args of [['--port', 'abc'], ['--auth', 'maybe'], ['--bogus'], ['--memory', '--data', 'x.json']]) {
    const { code, stderr } = await runCliToExit(args);
    assert.is(code, 2, args.join(' '));
    assert.match(stderr, /project-runtime-mock: /);
  }
  const help = await runCliToExit(['--help']);
  assert.is(help.code, 0);
  assert.match(help.stdout, /--no-control/);
});

test.run();
