// The JSON file adapter's log: replay over the snapshot, torn tails, damage, stale logs, compaction while writing, parts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { createApp } from '../../../src/app.js';
import { demoFixture } from '../../../src/fixtures.js';
import { DataFileError, JsonFileAdapter } from '../../../src/storage/adapters.js';
import { DEMO } from '../../helpers/demo.js';
import { filesBeside, logLines, recorder, TestDisk, tmpDataFile } from '../../helpers/disk.js';

const SALES = DEMO.projects.sales;
const open = (file: string, options: ConstructorParameters<typeof JsonFileAdapter>[1] = {}) => new JsonFileAdapter(file, { report: {}, ...options });
const workspace = (name: string) => ({ id: crypto.randomUUID(), name });
const stateJson = async (file: string) => JSON.stringify((await createApp({ storage: open(file), fixtures: {} })).store.toData());

/** A data file with a snapshot and a log of three change sets (the process "crashed": no close). */
async function withLog() {
  const file = tmpDataFile();
  const mock = await createApp({ storage: open(file), fixtures: demoFixture() });
  const made = [workspace('one'), workspace('two'), workspace('three')];
  for (const w of made) await mock.store.transact((tx) => tx.put('workspaces', w));
  return { file, mock, made };
}

test('load = snapshot + log replay; a torn last line is ignored with one warning, and cut before the next append', async () => {
  const { file, mock, made } = await withLog();
  const full = JSON.stringify(mock.store.toData());
  appendFileSync(`${file}.log`, '{"seq":4,"changes":[["workspaces","x",{"id":'); // a crash mid-append
  const { lines, report } = recorder();
  const again = await createApp({ storage: open(file, { report }), fixtures: {} });
  assert.is(JSON.stringify(again.store.toData()), full);
  assert.is(again.store.seq, 4);
  assert.is(lines.warn.length, 1);
  assert.match(lines.warn[0], /torn end of .*db\.json\.log/);
  const later = workspace('after the crash');
  await again.store.transact((tx) => tx.put('workspaces', later));
  assert.equal(
    logLines(file).map((l) => l.seq),
    [2, 3, 4, 5],
  );
  const third = await createApp({ storage: open(file), fixtures: {} });
  assert.equal(third.store.get('workspaces', later.id), later);
  for (const w of made) assert.equal(third.store.get('workspaces', w.id), w);
});

test("replay: a log whose first change set has the snapshot's own seq (a compaction stopped before it shortened the log) skips it and loads the rest", async () => {
  const { file, mock, made } = await withLog();
  const full = JSON.stringify(mock.store.toData());
  const snapshotSeq = JSON.parse(
    readFileSync(file, 'utf8')
      .split('\n')[0]
      .replace(/,"state":\{$/, '}'),
  ).seq as number;
  assert.is(snapshotSeq, 1);
  const lines = readFileSync(`${file}.log`, 'utf8').split('\n');
  assert.equal(
    lines.slice(1, -1).map((l) => JSON.parse(l).seq),
    [2, 3, 4],
  );
  // Change set 1 is already in the snapshot; were it applied again, this stale record would replace the stored one.
  const stale = { ...made[0], name: 'stale copy that must not come back' };
  lines.splice(1, 0, JSON.stringify({ seq: snapshotSeq, changes: [['workspaces', stale.id, stale]] }));
  writeFileSync(`${file}.log`, lines.join('\n'));
  const { lines: said, report } = recorder();
  const again = await createApp({ storage: open(file, { report }), fixtures: {} });
  assert.is(JSON.stringify(again.store.toData()), full);
  assert.is(again.store.seq, 4);
  assert.equal(again.store.get('workspaces', made[0].id), made[0]);
  assert.equal(said.warn, []);
  // The next write follows the last replayed change set.
  await again.store.transact((tx) => tx.put('workspaces', workspace('after')));
  assert.equal(
    logLines(file).map((l) => l.seq),
    [1, 2, 3, 4, 5],
  );
});

test('a log damaged before its last line is refused naming the log and the line, and nothing is overwritten', async () => {
  for (const [damage, reason] of [
    [(lines: string[]) => lines.splice(2, 1, '{"seq": 2, "changes": [[oops'), /db\.json\.log: line 3: it is not valid JSON/],
    [(lines: string[]) => lines.splice(2, 1), /line 3: change set 4 follows 2: a change set is missing/],
    [(lines: string[]) => lines.splice(2, 1, '{"seq":2,"changes":[["runs","r1",{"id":"r1"}]]}'), /invalid content: line 3: changes\[0\]\[2\]/],
    [(lines: string[]) => lines.splice(2, 1, '{"seq":2,"changes":[["nope","k",null]]}'), /line 3: changes\[0\]: expected \[collection, key, record or null\]/],
    [(lines: string[]) => lines.splice(0, 1, '{"format":"other"}'), /line 1: it is not a project-runtime-mock log/],
  ] as [(l: string[]) => void, RegExp][]) {
    const { file } = await withLog();
    const lines = readFileSync(`${file}.log`, 'utf8').split('\n');
    damage(lines);
    writeFileSync(`${file}.log`, lines.join('\n'));
    const before = [readFileSync(file, 'utf8'), readFileSync(`${file}.log`, 'utf8')];
    const err = await createApp({ storage: open(file), fixtures: demoFixture() }).catch((e: unknown) => e);
    assert.instance(err, DataFileError);
    assert.match((err as Error).message, reason);
    assert.equal([readFileSync(file, 'utf8'), readFileSync(`${file}.log`, 'utf8')], before);
  }
});

test('a log left from an earlier state (the snapshot was replaced) is ignored with one warning', async () => {
  const { file, mock } = await withLog();
  const log = readFileSync(`${file}.log`);
  await createApp({ storage: open(file), fixtures: demoFixture(), reset: true });
  writeFileSync(`${file}.log`, log); // as if the process died before removing it
  const { lines, report } = recorder();
  const again = await createApp({ storage: open(file, { report }), fixtures: {} });
  assert.is(again.store.count('workspaces'), mock.store.count('workspaces') - 3);
  assert.equal(lines.warn.length, 1);
  assert.match(lines.warn[0], /belongs to an earlier state/);
});

test('compaction: a log that outgrows its threshold is folded into a fresh snapshot while writes go on', async () => {
  const file = tmpDataFile();
  const { lines, report } = recorder();
  const mock = await createApp({ storage: open(file, { compactBytes: 2_000, report }), fixtures: demoFixture() });
  const snapshotBytes = statSync(file).size;
  const made: { id: string; name: string }[] = [];
  for (let round = 0; round < 40; round++) {
    const batch = Array.from({ length: 10 }, (_, i) => workspace(`r${round}-${i}-${'x'.repeat(200)}`));
    made.push(...batch);
    await Promise.all(batch.map((w) => mock.store.transact((tx) => tx.put('workspaces', w))));
  }
  await new Promise((r) => setTimeout(r, 50));
  const logBytes = statSync(`${file}.log`, { throwIfNoEntry: false })?.size ?? 0;
  assert.ok(logBytes < Math.max(snapshotBytes, 2_000) + 20_000, `the log is ${logBytes} bytes: it was never compacted`);
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  assert.ok(doc.seq > 0, 'the snapshot moved on');
  assert.is(await stateJson(file), JSON.stringify(mock.store.toData()));
  assert.equal(lines.warn, []);
  assert.not.ok(
    filesBeside(file).some((f) => f.endsWith('.tmp')),
    'no temp file is left',
  );
  assert.ok(made.every((w) => mock.store.get('workspaces', w.id)));
});

test('a whole new state written while a compaction streams (a reset) wins; the compaction gives up and the file stays whole', async () => {
  const file = tmpDataFile();
  const disk = new TestDisk();
  const mock = await createApp({ storage: open(file, { fs: disk, compactBytes: 1_000 }), fixtures: demoFixture() });
  const before = JSON.stringify(mock.store.toData());
  disk.slowOn = '.compacting.tmp';
  disk.slowMs = 300;
  // Enough log to start a compaction (the demo snapshot is about 100 KB), which now writes slowly.
  for (let i = 0; i < 80 && !filesBeside(file).includes('.db.json.compacting.tmp'); i++) {
    await mock.store.transact((tx) => tx.put('workspaces', workspace(`c${i}-${'x'.repeat(2_000)}`)));
  }
  assert.ok(filesBeside(file).includes('.db.json.compacting.tmp'), 'no compaction is running');
  await mock.control.reset(); // records were added, none moved: a change set
  await mock.store.transact((tx) => tx.delete('projects', SALES));
  await mock.control.reset(); // a record comes back in its place: a whole new snapshot, while the compaction still streams
  assert.is(JSON.stringify(mock.store.toData()), before);
  disk.slowOn = null;
  await (mock.store as unknown as { adapter: JsonFileAdapter }).adapter.idle();
  assert.not.ok(
    filesBeside(file).some((f) => f.endsWith('.tmp')),
    'a temp file is left',
  );
  assert.is(await stateJson(file), before);
  await mock.store.transact((tx) => tx.put('workspaces', workspace('after')));
  assert.is(await stateJson(file), JSON.stringify(mock.store.toData()));
});

test('a change set larger than one log part is written in parts and replayed whole', async () => {
  const { file, mock } = await withLog();
  const big = Array.from({ length: 3_000 }, (_, i) => workspace(`big-${i}-${'y'.repeat(2_000)}`));
  await mock.store.transact((tx) => big.forEach((w) => tx.put('workspaces', w)));
  const lines = logLines(file);
  assert.ok(lines.filter((l) => l.seq === 5).length >= 2, 'one line only');
  assert.ok(
    lines
      .filter((l) => l.seq === 5)
      .slice(0, -1)
      .every((l) => l.more === true),
  );
  assert.is(await stateJson(file), JSON.stringify(mock.store.toData()));
  // Cut inside the last part: the unfinished change set is ignored as a torn tail.
  const size = statSync(`${file}.log`).size;
  truncateSync(`${file}.log`, size - 10);
  const { lines: out, report } = recorder();
  const again = await createApp({ storage: open(file, { report }), fixtures: {} });
  assert.is(again.store.seq, 4);
  assert.is(again.store.get('workspaces', big[0].id), undefined);
  assert.is(out.warn.length, 1);
});

test.run();
