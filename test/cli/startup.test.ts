// Start-up failures are one message naming the file and the cause (exit 1); the lock takes the real path; a slow body logs one line.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as fs from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock, IdentityLock, LockError, type LockFs } from '../../src/storage/json-file/lock.js';
import { JsonFileAdapter } from '../../src/storage/adapters.js';
import { createApp } from '../../src/app.js';
import { demoFixture, FixtureError } from '../../src/fixtures.js';
import { runCliToExit, startCli } from '../helpers/cli.js';
import { freshMock } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';

const tmpDir = () => fs.mkdtempSync(join(tmpdir(), 'prm-start-'));
const auth = { Authorization: `Bearer ${DEMO.tokens.owner}`, 'Content-Type': 'application/json' };

/** One message: no stack frames, and the named file in it. */
function assertOneMessage(stderr: string, names: string, cause: RegExp) {
  assert.not.match(stderr, /^\s+at /m, stderr);
  assert.ok(stderr.includes(names), `${stderr} should name ${names}`);
  assert.match(stderr, cause);
  assert.is(stderr.trim().split('\n').length, 1, stderr);
}

const errno = (code: string, syscall: string) => Object.assign(new Error(`${code}: simulated, ${syscall}`), { code, syscall });

test('lock: a full disk while writing the lock is a LockError naming the lock file, and leaves no lock behind', () => {
  const file = join(tmpDir(), 'db.json');
  const full: LockFs = {
    ...fs,
    writeSync: () => {
      throw errno('ENOSPC', 'write');
    },
  } as LockFs;
  try {
    acquireLock(file, full);
    assert.unreachable('the lock was taken on a full disk');
  } catch (err) {
    assert.instance(err, LockError);
    assert.is((err as Error).message, `cannot write the lock file ${file}.lock: ENOSPC: simulated, write`);
  }
  assert.not.ok(fs.existsSync(`${file}.lock`), 'a 0-byte lock file was left behind');
  // The disk has room again: the lock is taken normally.
  const release = acquireLock(file);
  assert.is(fs.readFileSync(`${file}.lock`, 'utf8'), String(process.pid));
  release();
  assert.not.ok(fs.existsSync(`${file}.lock`));
});

test('lock: a read-only disk is a LockError naming the lock file and the cause', () => {
  const file = join(tmpDir(), 'db.json');
  const readOnly: LockFs = {
    ...fs,
    openSync: () => {
      throw errno('EROFS', 'open');
    },
  } as LockFs;
  try {
    acquireLock(file, readOnly);
    assert.unreachable('the lock was taken on a read-only disk');
  } catch (err) {
    assert.instance(err, LockError);
    assert.is((err as Error).message, `cannot create the lock file ${file}.lock: EROFS: simulated, open`);
  }
});

test('cli: a lock file that cannot be read is one message naming it (exit 1)', async () => {
  const file = join(tmpDir(), 'db.json');
  fs.mkdirSync(`${file}.lock`); // a directory where the lock file should be
  const { code, stderr } = await runCliToExit(['--port', '0', '--data', file]);
  assert.is(code, 1);
  assertOneMessage(stderr, `${file}.lock`, /EISDIR/);
});

test('cli: a second process started on a symlink to a locked data file is refused', async () => {
  const dir = tmpDir();
  const file = join(dir, 'db.json');
  const link = join(dir, 'link.json');
  const first = await startCli(['--port', '0', '--data', file]);
  fs.symlinkSync(file, link);
  const second = await runCliToExit(['--port', '0', '--data', link]);
  assert.is(second.code, 1);
  assertOneMessage(second.stderr, link, new RegExp(`in use by process ${first.proc.pid}`));
  // A symlinked directory is the same directory.
  fs.symlinkSync(dir, join(dir, '..', `${dir.split('/').pop()}-alias`));
  const third = await runCliToExit(['--port', '0', '--data', join(`${dir}-alias`, 'db.json')]);
  assert.is(third.code, 1);
  assert.match(third.stderr, `in use by process ${first.proc.pid}`);
  assert.is(await first.stop(), 0);
});

test('cli: a second process started on a hard link to a data file in use is refused with one line (the lock is on device and inode)', async () => {
  const dir = tmpDir();
  const file = join(dir, 'db.json');
  const other = fs.mkdtempSync(join(tmpdir(), 'prm-start-other-'));
  const link = join(other, 'db.json');
  // The first server creates the file, then locks its identity: a link made afterwards is the same file.
  const first = await startCli(['--port', '0', '--data', file]);
  fs.linkSync(file, link);
  const { ino } = fs.statSync(file);
  assert.is(fs.statSync(link).ino, ino, 'a hard link, not a copy');
  const second = await runCliToExit(['--port', '0', '--data', link]);
  assert.is(second.code, 1);
  assertOneMessage(second.stderr, link, new RegExp(`in use by process ${first.proc.pid} \\(the same file by another path: a hard link\\)`));
  assert.match(second.stderr, `-${ino}.lock`);
  assert.not.ok(fs.existsSync(`${link}.lock`), 'the refused process left no lock beside the link');
  assert.is(await first.stop(), 0);
  // A file that exists at start is locked before anything is read: link it again (a stop may write a new file), serve
  // the link, and the original path is refused the same way.
  fs.unlinkSync(link);
  fs.linkSync(file, link);
  const third = await startCli(['--port', '0', '--data', link]);
  const fourth = await runCliToExit(['--port', '0', '--data', file]);
  assert.is(fourth.code, 1);
  assertOneMessage(fourth.stderr, file, new RegExp(`in use by process ${third.proc.pid} \\(the same file by another path: a hard link\\)`));
  assert.is(await third.stop(), 0);
});

test('lock: the identity lock follows the file as snapshots replace it (a new inode each): the old one is let go', async () => {
  const dir = tmpDir();
  const locks = join(dir, 'locks');
  const file = join(dir, 'db.json');
  const identity = new IdentityLock(file, fs, locks);
  const replaced: string[] = [];
  // What the CLI does: each snapshot renamed over the file moves the lock (seeding a new file is the first).
  const adapter = new JsonFileAdapter(file, {
    report: {},
    compactBytes: 1,
    onReplaced: (f) => {
      replaced.push(f);
      identity.take();
    },
  });
  const mock = await createApp({ storage: adapter, fixtures: demoFixture() });
  const seeded = fs.statSync(file, { bigint: true });
  assert.equal(replaced, [file]);
  assert.equal(fs.readdirSync(locks), [`${seeded.dev}-${seeded.ino}.lock`]);
  // Writes until the log outgrows the snapshot: a compaction renames a fresh snapshot over the file.
  for (let i = 0; i < 4; i++) await mock.store.transact((tx) => tx.put('workspaces', { id: crypto.randomUUID(), name: 'x'.repeat(60_000) }));
  await adapter.idle();
  const compacted = fs.statSync(file, { bigint: true });
  assert.is.not(compacted.ino, seeded.ino, 'the compaction gave the file a new inode');
  assert.equal(replaced, [file, file]);
  assert.equal(fs.readdirSync(locks), [`${compacted.dev}-${compacted.ino}.lock`]);
  assert.is(fs.readFileSync(join(locks, `${compacted.dev}-${compacted.ino}.lock`), 'utf8'), String(process.pid));
  // Taking the same identity again changes nothing; release lets go of it.
  identity.take();
  assert.equal(fs.readdirSync(locks), [`${compacted.dev}-${compacted.ino}.lock`]);
  identity.release();
  assert.equal(fs.readdirSync(locks), []);
  await mock.close();
});

test('lock: the identity lock is named for device and inode, released with the path lock, and absent for a new file', () => {
  const dir = tmpDir();
  const locks = join(dir, 'locks');
  const file = join(dir, 'db.json');
  const none = acquireLock(file, fs, locks);
  assert.not.ok(fs.existsSync(locks), 'a new file has no identity to lock');
  none();
  fs.writeFileSync(file, '{}');
  const link = join(dir, 'link.json');
  fs.linkSync(file, link);
  const st = fs.statSync(file, { bigint: true });
  const release = acquireLock(file, fs, locks);
  assert.equal(fs.readdirSync(locks), [`${st.dev}-${st.ino}.lock`]);
  assert.is(fs.readFileSync(join(locks, `${st.dev}-${st.ino}.lock`), 'utf8'), String(process.pid));
  release();
  assert.equal(fs.readdirSync(locks), []);
  assert.not.ok(fs.existsSync(`${file}.lock`));
});

test('cli: started on a symlink, the mock writes through it to the real file (the link stays a link)', async () => {
  const dir = tmpDir();
  const file = join(dir, 'real.json');
  const link = join(dir, 'link.json');
  fs.symlinkSync(file, link); // dangling: the file does not exist yet
  const cli = await startCli(['--port', '0', '--data', link]);
  const run = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}/cancel`;
  assert.is((await fetch(cli.url + run, { method: 'POST', headers: auth, body: '{}' })).status, 200);
  assert.ok(fs.existsSync(`${file}.lock`), 'the lock is beside the real file');
  assert.is(await cli.stop(), 0);
  assert.ok(fs.lstatSync(link).isSymbolicLink(), 'the symlink was replaced by a file');
  assert.match(fs.readFileSync(file, 'utf8'), 'project-runtime-mock');
  const again = await startCli(['--port', '0', '--data', file]);
  const detail = await fetch(again.url + run.replace('/cancel', ''), { headers: auth });
  assert.is(((await detail.json()) as { status: string }).status, 'cancelled');
  assert.is(await again.stop(), 0);
});

test('cli: a data file that cannot be written at start is one message naming it; no lock is left', async () => {
  const dir = tmpDir();
  const file = join(dir, 'db.json');
  fs.mkdirSync(join(dir, '.db.json.tmp')); // the atomic write's temp file cannot be created
  const { code, stderr } = await runCliToExit(['--port', '0', '--data', file]);
  assert.is(code, 1);
  assertOneMessage(stderr, file, /EISDIR|directory/);
  assert.not.ok(fs.existsSync(`${file}.lock`), 'the lock was left behind');
});

test('cli: a data directory that cannot be created is one message naming it', async () => {
  const dir = tmpDir();
  fs.writeFileSync(join(dir, 'plain'), 'not a directory');
  const file = join(dir, 'plain', 'sub', 'db.json');
  const { code, stderr } = await runCliToExit(['--port', '0', '--data', file]);
  assert.is(code, 1);
  assertOneMessage(stderr, file, /ENOTDIR|EEXIST/);
});

test('fixtures: a fixture that is not an object is refused (CLI, createApp, loadFixtures)', async () => {
  for (const [text, what] of [
    ['[]', 'an array'],
    ['null', 'null'],
    ['"demo"', 'string'],
    ['42', 'number'],
  ]) {
    const file = join(tmpDir(), 'fixture.json');
    fs.writeFileSync(file, text);
    const { code, stderr } = await runCliToExit(['--port', '0', '--memory', '--fixtures', file]);
    assert.is(code, 1, text);
    assert.not.match(stderr, /^\s+at /m);
    assert.ok(stderr.includes(file), stderr);
    assert.match(stderr, `a fixture is a JSON object, got ${what}`);
  }
  try {
    await createApp({ storage: 'memory', fixtures: [] });
    assert.unreachable('createApp seeded from []');
  } catch (err) {
    assert.instance(err, FixtureError);
  }
  const { mock } = await freshMock();
  const before = JSON.stringify(mock.store.toData());
  try {
    await mock.control.loadFixtures([]);
    assert.unreachable('loadFixtures took []');
  } catch (err) {
    assert.equal((err as { items: unknown[] }).items, [
      { loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', type: 'model_attributes_type', input: [] },
    ]);
  }
  assert.is(JSON.stringify(mock.store.toData()), before);
});

test('cli: a slow body that times out logs one line, not a stack trace', async () => {
  const cli = await startCli(['--port', '0', '--memory', '--headers-timeout-ms', '300', '--request-timeout-ms', '600']);
  const { port } = new URL(cli.url);
  const answer = await new Promise<string>((resolve) => {
    let text = '';
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write('POST /api/v3/auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"grant');
    });
    socket.on('data', (c) => (text += c));
    socket.on('close', () => resolve(text));
  });
  assert.match(answer, /^HTTP\/1\.1 408 /);
  // The line is written when the timeout fires; give the child a moment to flush it.
  for (let i = 0; i < 50 && !cli.stderr().includes('timed out'); i++) await new Promise((r) => setTimeout(r, 50));
  assert.is(await cli.stop(), 0);
  const lines = cli
    .stderr()
    .split('\n')
    .filter((l) => l !== '');
  assert.equal(lines, ['project-runtime-mock: POST /api/v3/auth/token: the request timed out (the client sent it too slowly)']);
});

test.run();
