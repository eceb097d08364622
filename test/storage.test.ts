// One adapter contract suite run against both adapters, plus group commit and data-file refusal.
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createApp } from '../src/app.js';
import { demoFixture } from '../src/fixtures.js';
import { DataFileError, JsonFileAdapter, MemoryAdapter, type StorageAdapter } from '../src/storage/adapters.js';
import type { DataFile } from '../src/schemas/state.js';
import { serializeDataFile } from '../src/storage/serialize.js';
import { DEMO } from './helpers/demo.js';

const tmpFile = () => join(mkdtempSync(join(tmpdir(), 'prm-store-')), 'db.json');

const adapters: [string, () => StorageAdapter][] = [
  ['memory', () => new MemoryAdapter()],
  ['json-file', () => new JsonFileAdapter(tmpFile())],
];

for (const [name, make] of adapters) {
  const contract = suite(`adapter contract: ${name}`);

  contract('read() of a new store is null', async () => {
    assert.is(await make().read(), null);
  });

  contract('write() then read() returns the same document', async () => {
    const adapter = make();
    const doc: DataFile = { format: 'project-runtime-mock', format_version: 1, state: (await createApp({ storage: 'memory', fixtures: demoFixture() })).store.toData() };
    await adapter.write(doc);
    assert.equal(await adapter.read(), JSON.parse(JSON.stringify(doc)));
  });

  contract('createApp seeds an empty store from the fixtures and persists it', async () => {
    const adapter = make();
    await createApp({ storage: adapter, fixtures: demoFixture() });
    const stored = await adapter.read();
    assert.ok(stored);
    assert.is(stored!.state.projects.length, demoFixture().projects!.length);
  });

  contract('an existing store is loaded as is, not reseeded; reset: true reseeds', async () => {
    const adapter = make();
    const first = await createApp({ storage: adapter, fixtures: demoFixture() });
    await first.store.transact((tx) => tx.delete('projects', DEMO.projects.sales));
    const second = await createApp({ storage: adapter, fixtures: demoFixture() });
    assert.is(second.store.get('projects', DEMO.projects.sales), undefined);
    const third = await createApp({ storage: adapter, fixtures: demoFixture(), reset: true });
    assert.ok(third.store.get('projects', DEMO.projects.sales));
  });

  contract('a transaction that throws changes nothing, in memory or in storage', async () => {
    const adapter = make();
    const mock = await createApp({ storage: adapter, fixtures: demoFixture() });
    const before = JSON.stringify(await adapter.read());
    const memBefore = JSON.stringify(mock.store.toData());
    await mock.store
      .transact((tx) => {
        tx.delete('projects', DEMO.projects.sales);
        throw new Error('refused half-way');
      })
      .catch(() => {});
    assert.is(JSON.stringify(mock.store.toData()), memBefore);
    assert.is(JSON.stringify(await adapter.read()), before);
  });

  contract('concurrent transactions share writes (group commit), and each resolves once stored', async () => {
    const inner = make();
    let writes = 0;
    const counting: StorageAdapter = {
      read: () => inner.read(),
      write: async (d) => {
        writes++;
        await inner.write(d);
      },
    };
    const mock = await createApp({ storage: counting, fixtures: demoFixture() });
    writes = 0;
    const ids = Array.from({ length: 50 }, () => mock.deps.ids());
    await Promise.all(ids.map((id) => mock.store.transact((tx) => tx.put('workspaces', { id, name: id }))));
    assert.ok(writes <= 2, `50 transactions took ${writes} writes`);
    const stored = await inner.read();
    for (const id of ids) assert.ok(stored!.state.workspaces.some((w) => w.id === id));
  });

  contract('instances share nothing', async () => {
    const a = await createApp({ storage: make(), fixtures: demoFixture() });
    const b = await createApp({ storage: make(), fixtures: demoFixture() });
    await a.store.transact((tx) => tx.delete('projects', DEMO.projects.sales));
    assert.ok(b.store.get('projects', DEMO.projects.sales));
  });

  contract.run();
}

const refusals: [string, string, RegExp][] = [
  ['corrupt', '{"format": "project-runtime-mock", "format_ver', /not valid JSON/],
  ['empty', '', /not valid JSON/],
  ['foreign JSON', '{"posts": [], "comments": []}', /not a project-runtime-mock data file/],
  ['a JSON array', '[1, 2, 3]', /not a project-runtime-mock data file/],
  ['a wrong format version', '{"format": "project-runtime-mock", "format_version": 99, "state": {}}', /format_version 99 is not supported/],
  ['invalid content', '{"format": "project-runtime-mock", "format_version": 1, "state": {"runs": [{"id": 1}]}}', /invalid content: state\.runs\[0\]/],
];

for (const [what, content, reason] of refusals) {
  test(`data file: ${what} is refused with a message naming the file, and left untouched`, async () => {
    const file = tmpFile();
    writeFileSync(file, content);
    try {
      await createApp({ storage: new JsonFileAdapter(file), fixtures: demoFixture() });
      assert.unreachable('accepted');
    } catch (err) {
      assert.instance(err, DataFileError);
      assert.ok((err as Error).message.includes(file));
      assert.match((err as Error).message, reason);
    }
    assert.is(readFileSync(file, 'utf8'), content);
  });
}

test('data file: the cached serializer writes exactly JSON.stringify of the document, before and after changes', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const doc = (): DataFile => ({ format: 'project-runtime-mock', format_version: 1, state: mock.store.toData() });
  assert.is(serializeDataFile(doc()).toString(), JSON.stringify(doc()));
  await mock.store.transact((tx) => tx.delete('projects', DEMO.projects.sales));
  await mock.control.advanceClock(1000);
  assert.is(serializeDataFile(doc()).toString(), JSON.stringify(doc()));
});

test('data file: a write is on disk when transact resolves', async () => {
  const file = tmpFile();
  const mock = await createApp({ storage: new JsonFileAdapter(file), fixtures: demoFixture() });
  await mock.store.transact((tx) => tx.delete('projects', DEMO.projects.sales));
  const onDisk = JSON.parse(readFileSync(file, 'utf8')) as DataFile;
  assert.not.ok(onDisk.state.projects.some((p) => p.id === DEMO.projects.sales));
  assert.equal(readdirSync(dirname(file)), ['db.json'], 'no temp file left behind');
});

test.run();
