// The JSON file adapter's snapshot: its layout and versions, one fdatasync per appended group, a clean stop, hand edits, refusals.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createApp } from '../../../src/app.js';
import { demoFixture, stateFromFixture } from '../../../src/fixtures.js';
import { DataFileError, JsonFileAdapter } from '../../../src/storage/adapters.js';
import { DEMO } from '../../helpers/demo.js';
import { filesBeside, logLines, TestDisk, tmpDataFile } from '../../helpers/disk.js';

const SALES = DEMO.projects.sales;
const open = (file: string, options: ConstructorParameters<typeof JsonFileAdapter>[1] = {}) => new JsonFileAdapter(file, { report: {}, ...options });
const workspace = (name: string) => ({ id: crypto.randomUUID(), name });
const stateJson = async (file: string) => JSON.stringify((await createApp({ storage: open(file), fixtures: {} })).store.toData());

test('a new data file is a version 2 snapshot: one record per line, readable as plain JSON, no log yet', async () => {
  const file = tmpDataFile();
  const mock = await createApp({ storage: open(file), fixtures: demoFixture() });
  const text = readFileSync(file, 'utf8');
  const doc = JSON.parse(text);
  assert.is(doc.format, 'project-runtime-mock');
  assert.is(doc.format_version, 2);
  assert.is(doc.seq, 1, 'seeding from the fixtures is the first change');
  assert.match(doc.log_id, /^[0-9a-f-]{36}$/);
  assert.equal(doc.state, JSON.parse(JSON.stringify(mock.store.toData())));
  const records = Object.values(doc.state)
    .filter(Array.isArray)
    .reduce((n: number, l) => n + (l as unknown[]).length, 0);
  const recordLines = text.split('\n').filter((l) => l.startsWith('{"') && !l.startsWith('{"format"'));
  assert.is(recordLines.length, records);
  assert.equal(filesBeside(file), ['db.json']);
});

test('a data file in a folder that does not exist yet: the folders are made (createApp with the default .data/db.json in a fresh checkout)', async () => {
  const file = join(dirname(tmpDataFile()), 'not', 'yet', 'db.json');
  const mock = await createApp({ storage: open(file), fixtures: demoFixture() });
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(doc.state, JSON.parse(JSON.stringify(mock.store.toData())));
  assert.equal(filesBeside(file), ['db.json']);
});

test('each group of change sets is appended as JSON lines with consecutive seqs, with one fdatasync per group', async () => {
  const file = tmpDataFile();
  const disk = new TestDisk();
  const mock = await createApp({ storage: open(file, { fs: disk }), fixtures: demoFixture() });
  const made = Array.from({ length: 30 }, (_, i) => workspace(`w${i}`));
  disk.datasyncs = 0;
  await Promise.all(made.map((w) => mock.store.transact((tx) => tx.put('workspaces', w))));
  const lines = logLines(file);
  assert.equal(
    lines.map((l) => l.seq),
    Array.from({ length: 30 }, (_, i) => i + 2),
  );
  assert.equal(
    lines.map((l) => l.changes),
    made.map((w) => [['workspaces', w.id, w]]),
  );
  assert.ok(disk.datasyncs >= 1 && disk.datasyncs <= 3, `30 concurrent writes took ${disk.datasyncs} fdatasyncs`);
  assert.is(disk.dirSyncs >= 1, true, 'the created log got a directory fsync');
  const header = JSON.parse(readFileSync(`${file}.log`, 'utf8').split('\n')[0]);
  assert.equal(header, { format: 'project-runtime-mock-log', log_id: JSON.parse(readFileSync(file, 'utf8')).log_id });
});

test('a transaction is answered only after its fdatasync: the write is on disk when transact resolves', async () => {
  const file = tmpDataFile();
  const disk = new TestDisk();
  const mock = await createApp({ storage: open(file, { fs: disk }), fixtures: demoFixture() });
  const before = disk.datasyncs;
  await mock.store.transact((tx) => tx.delete('projects', SALES));
  assert.is(disk.datasyncs, before + 1);
  assert.equal(logLines(file).at(-1)!.changes, [['projects', SALES, null]]);
});

test('a clean stop folds the log into the snapshot: the JSON file alone holds the state', async () => {
  const file = tmpDataFile();
  const mock = await createApp({ storage: open(file), fixtures: demoFixture() });
  await mock.store.transact((tx) => tx.delete('projects', SALES));
  await mock.control.advanceClock(1_000);
  await mock.close();
  assert.equal(filesBeside(file), ['db.json']);
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(doc.state, JSON.parse(JSON.stringify(mock.store.toData())));
  assert.is(doc.seq, 3);
  // Writing on after close works, and a second close compacts again.
  await mock.store.transact((tx) => tx.put('workspaces', workspace('after close')));
  await mock.close();
  assert.equal(filesBeside(file), ['db.json']);
  assert.is(await stateJson(file), JSON.stringify(mock.store.toData()));
});

test('a version 1 data file loads; the first write moves it to version 2 with a log', async () => {
  const file = tmpDataFile();
  const seed = await createApp({ storage: 'memory', fixtures: demoFixture() });
  writeFileSync(file, JSON.stringify({ format: 'project-runtime-mock', format_version: 1, state: seed.store.toData() }));
  const mock = await createApp({ storage: open(file), fixtures: {} });
  assert.is(JSON.stringify(mock.store.toData()), JSON.stringify(seed.store.toData()));
  assert.is(mock.store.seq, 0);
  await mock.store.transact((tx) => tx.delete('projects', SALES));
  assert.is(JSON.parse(readFileSync(file, 'utf8')).format_version, 2);
  assert.equal(
    logLines(file).map((l) => l.seq),
    [1],
  );
  assert.is(await stateJson(file), JSON.stringify(mock.store.toData()));
});

test('a hand-edited, pretty-printed file with a BOM loads, and an edit made by hand is what is served', async () => {
  const file = tmpDataFile();
  const mock = await createApp({ storage: open(file), fixtures: demoFixture() });
  await mock.close();
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  doc.state.projects.find((p: { id: string }) => p.id === SALES).name = 'Renamed by hand';
  writeFileSync(file, `\ufeff${JSON.stringify(doc, null, 2)}\n`);
  const again = await createApp({ storage: open(file), fixtures: {} });
  assert.is(again.store.get('projects', SALES)!.name, 'Renamed by hand');
});

const refusals: [string, string, RegExp][] = [
  ['corrupt', '{"format": "project-runtime-mock", "format_ver', /not valid JSON/],
  ['empty', '', /not valid JSON/],
  ['foreign JSON', '{"posts": [], "comments": []}', /not a project-runtime-mock data file/],
  ['a JSON array', '[1, 2, 3]', /not a project-runtime-mock data file/],
  ['a wrong format version', '{"format": "project-runtime-mock", "format_version": 99, "state": {}}', /format_version 99 is not supported/],
  ['invalid content', '{"format": "project-runtime-mock", "format_version": 1, "state": {"runs": [{"id": 1}]}}', /invalid content: state\.runs\[0\]/],
  ['trailing garbage', '{"format": "project-runtime-mock", "format_version": 1, "state": {}} {}', /not valid JSON/],
  [
    'nesting deeper than the limit',
    `{"format": "project-runtime-mock", "format_version": 1, "state": {"runs": [${'['.repeat(300)}${']'.repeat(300)}]}}`,
    /nested deeper than 256 levels/,
  ],
];

for (const [what, content, reason] of refusals) {
  test(`data file: ${what} is refused with a message naming the file, and left untouched`, async () => {
    const file = tmpDataFile();
    writeFileSync(file, content);
    const err = await createApp({ storage: open(file), fixtures: demoFixture() }).catch((e: unknown) => e);
    assert.instance(err, DataFileError);
    assert.ok((err as Error).message.includes(file));
    assert.match((err as Error).message, reason);
    assert.is(readFileSync(file, 'utf8'), content);
  });
}

test('data file: records with a non-finite number and an impossible date in the plain form are refused, each named with its error', async () => {
  // A copy: the demo's records are shared with every other mock built from it in this process.
  const state = structuredClone(stateFromFixture(demoFixture())) as unknown as Record<string, Record<string, unknown>[]>;
  state.approvals[0].requested_at = '2023-02-29T00:00:00Z'; // the form kept as spelled is checked all the same
  state.runs[1].result = { a: [1, { b: 'INFINITE' }] };
  const file = tmpDataFile();
  // 1e400 is JSON that reads as Infinity: a number no JSON could carry back.
  const content = JSON.stringify({ format: 'project-runtime-mock', format_version: 1, state }).replace('"INFINITE"', '1e400');
  writeFileSync(file, content);
  const err = await createApp({ storage: open(file), fixtures: {} }).catch((e: unknown) => e);
  assert.instance(err, DataFileError);
  assert.is(
    (err as Error).message,
    `refusing data file ${file}: invalid content: state.runs[1].result.a[1].b: Input should be a finite number; ` +
      'state.approvals[0].requested_at: Input should be a valid datetime, day value is outside expected range',
  );
  assert.is(readFileSync(file, 'utf8'), content);
});

test.run();
