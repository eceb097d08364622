// The data file's lock covers every file the JSON-file adapter writes, and createApp({ storage: jsonFile(path) })
// takes the CLI's lock: a hard link, a copy beside a linked log and a second path are refused by device and inode; a
// log holding lines its writer did not write is refused with its file and line, before anything is written.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { DataFileError, JsonFileAdapter, LockError, jsonFile } from '../../../src/storage/index.js';
import { startCli, type RunningCli } from '../../helpers/cli.js';
import { DEMO } from '../../helpers/demo.js';

const tmpDir = () => fs.mkdtempSync(join(tmpdir(), 'prm-lock-'));
const BUDGET = `/api/v3/projects/${DEMO.projects.support}/budget`;
const owner = { authorization: `Bearer ${DEMO.tokens.owner}`, 'content-type': 'application/json' };

/** A CLI serving `file` with a log on disk (one stored write after start). */
async function serving(file: string): Promise<RunningCli> {
  const cli = await startCli(['--port', '0', '--data', file, '--simulation', 'off']);
  const put = await fetch(`${cli.url}${BUDGET}`, { method: 'PUT', headers: owner, body: JSON.stringify({ project_daily_usd: 50 }) });
  assert.is(put.status, 200);
  assert.ok(fs.existsSync(`${file}.log`), 'the write is in the log');
  return cli;
}

async function refusedWith(storage: () => JsonFileAdapter, pattern: RegExp): Promise<void> {
  try {
    const mock = await createApp({ storage: storage(), fixtures: demoFixture() });
    await mock.close();
    assert.unreachable('a second process on the same files was not refused');
  } catch (err) {
    assert.instance(err, LockError);
    assert.match((err as Error).message, pattern);
  }
}

const bytesOf = (...files: string[]) => files.map((f) => (fs.existsSync(f) ? fs.readFileSync(f).toString('base64') : null));

test('createApp with jsonFile takes the CLI lock: a hard link, a copy with a hard-linked log, and a symlinked folder are refused', async () => {
  const dir = tmpDir();
  const file = join(dir, 'db.json');
  const cli = await serving(file);
  const pid = cli.proc.pid;
  try {
    const other = tmpDir();
    // A hard link to the snapshot: another path, the same device and inode.
    fs.linkSync(file, join(other, 'linked.json'));
    await refusedWith(
      () => jsonFile(join(other, 'linked.json')),
      new RegExp(`linked\\.json: it is in use by process ${pid} \\(the same file by another path: a hard link\\)`),
    );
    // A copy of the snapshot (a file of its own) whose log is a hard link to the live log: refused on the log.
    fs.copyFileSync(file, join(other, 'copy.json'));
    fs.linkSync(`${file}.log`, join(other, 'copy.json.log'));
    const before = bytesOf(`${file}.log`, file);
    await refusedWith(
      () => jsonFile(join(other, 'copy.json')),
      new RegExp(`copy\\.json\\.log: it is in use by process ${pid} \\(the same file by another path: a hard link\\)`),
    );
    assert.equal(bytesOf(`${file}.log`, file), before, 'the refused process wrote nothing');
    assert.not.ok(fs.existsSync(join(other, 'copy.json.lock')), 'a refused start leaves no lock behind');
    // The same folder by a symlink: the path lock is on the real path.
    fs.symlinkSync(dir, join(other, 'alias'));
    await refusedWith(() => jsonFile(join(other, 'alias', 'db.json')), new RegExp(`in use by process ${pid}`));
    // The CLI still serves, its log intact.
    const put = await fetch(`${cli.url}${BUDGET}`, { method: 'PUT', headers: owner, body: JSON.stringify({ project_daily_usd: 60 }) });
    assert.is(put.status, 200);
  } finally {
    assert.is(await cli.stop(), 0);
  }
  // Once it stopped (its lock released), the same file opens in process.
  const mock = await createApp({ storage: jsonFile(file) });
  assert.is(
    ((await (await mock.fetch(BUDGET, { method: 'PUT', headers: owner, body: '{}' })).json()) as { limits: { project_daily_usd: number } }).limits
      .project_daily_usd,
    60,
  );
  await mock.close();
});

test('a log with lines its writer did not write (a seq again, or back) is refused with its file and line before any write', async () => {
  for (const [name, appended] of [
    ['the last two lines again', (lines: string[]) => [...lines, ...lines.slice(-2)]],
    ['the first change set after the last', (lines: string[]) => [...lines, lines[1]]],
    // Already in the snapshot by its seq: a line skipped before, now refused (it can only be another writer's).
    ['a change set the snapshot holds, after the last', (lines: string[]) => [...lines, '{"seq":1,"changes":[]}']],
  ] as const) {
    const dir = tmpDir();
    const file = join(dir, 'db.json');
    // Three stored writes left in the log (the app is not closed, so nothing folds them into the snapshot).
    const mock = await createApp({ storage: new JsonFileAdapter(file), fixtures: demoFixture(), reset: true });
    for (const usd of [11, 12, 13])
      assert.is((await mock.fetch(BUDGET, { method: 'PUT', headers: owner, body: JSON.stringify({ project_daily_usd: usd }) })).status, 200);
    await (mock.store as unknown as { flush(): Promise<void> }).flush();
    const lines = fs.readFileSync(`${file}.log`, 'utf8').trimEnd().split('\n');
    assert.is(lines.length, 4, 'a header and three change sets');
    const copy = join(tmpDir(), 'db.json');
    fs.copyFileSync(file, copy);
    const foreign = appended(lines);
    fs.writeFileSync(`${copy}.log`, `${foreign.join('\n')}\n`);
    const before = bytesOf(copy, `${copy}.log`);
    try {
      await createApp({ storage: jsonFile(copy), fixtures: demoFixture() });
      assert.unreachable(`${name}: the log was read`);
    } catch (err) {
      assert.instance(err, DataFileError, name);
      const seq = (line: string) => (JSON.parse(line) as { seq: number }).seq;
      const at = lines.length + 1;
      assert.is(
        (err as Error).message,
        `refusing data file ${copy}.log: line ${at}: change set ${seq(foreign[at - 1])} follows ${seq(foreign[at - 2])}: a line another process wrote`,
        name,
      );
    }
    assert.equal(bytesOf(copy, `${copy}.log`), before, `${name}: nothing was written`);
    await mock.close();
  }
});

test.run();
