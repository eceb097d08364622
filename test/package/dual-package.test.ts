// Both builds of the package in one process (a CommonJS test file next to an ES module helper, say): each copy's mocks
// stay their own, yet what a user hands from one copy to the other works: snapshots, storage adapters, intercepts
// (one claim per origin, global fetch restored whatever the order), and `instanceof` on the errors the package exports.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esm from 'project-runtime-mock';
import { DEMO } from '../helpers/demo.js';

const cjs = createRequire(import.meta.url)('project-runtime-mock') as typeof esm;
const runPath = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}`;
const owner = { authorization: `Bearer ${DEMO.tokens.owner}`, 'content-type': 'application/json' };
const statusOf = async (mock: esm.MockApp) => ((await (await mock.fetch(runPath, { headers: owner })).json()) as { status: string }).status;
const cancel = (mock: esm.MockApp) => mock.fetch(`${runPath}/cancel`, { method: 'POST', headers: owner, body: '{"reason":"dual"}' });

test('two copies: require gives the CommonJS build, import the ES module one, and their mocks are separate', async () => {
  assert.is.not(cjs.createApp, esm.createApp);
  const [a, b] = [
    await cjs.createApp({ storage: 'memory', fixtures: cjs.demoFixture() }),
    await esm.createApp({ storage: 'memory', fixtures: esm.demoFixture() }),
  ];
  assert.is((await cancel(a)).status, 200);
  assert.equal([await statusOf(a), await statusOf(b)], ['cancelled', 'waiting_approval']);
  assert.is((await cancel(b)).status, 200);
  assert.equal([await statusOf(a), await statusOf(b)], ['cancelled', 'cancelled']);
});

test("two copies: a snapshot of one copy's mock restores into the other's", async () => {
  const [a, b] = [
    await cjs.createApp({ storage: 'memory', fixtures: cjs.demoFixture() }),
    await esm.createApp({ storage: 'memory', fixtures: esm.demoFixture() }),
  ];
  await cancel(a);
  await b.control.restore(a.control.snapshot());
  assert.is(await statusOf(b), 'cancelled');
  assert.is(JSON.stringify(b.store.toData()), JSON.stringify(a.store.toData()));
});

test("two copies: a storage adapter of one copy serves the other's createApp (memory and the JSON file)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prm-dual-'));
  try {
    const file = join(dir, 'data.json');
    const onFile = await esm.createApp({ storage: new cjs.JsonFileAdapter(file), fixtures: esm.demoFixture() });
    assert.is((await cancel(onFile)).status, 200);
    await onFile.close();
    const reopened = await cjs.createApp({ storage: new esm.JsonFileAdapter(file) });
    assert.is(await statusOf(reopened), 'cancelled');
    await reopened.close();
    const inMemory = await cjs.createApp({ storage: new esm.MemoryAdapter(), fixtures: cjs.demoFixture() });
    assert.is((await cancel(inMemory)).status, 200);
    assert.is(await statusOf(inMemory), 'cancelled');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two copies: intercepts share one claim per origin and put global fetch back whatever the order', async () => {
  const original = globalThis.fetch;
  const [a, b] = [
    await cjs.createApp({ storage: 'memory', fixtures: cjs.demoFixture() }),
    await esm.createApp({ storage: 'memory', fixtures: esm.demoFixture() }),
  ];
  await cancel(a);
  const ha = a.intercept('https://a.example.test');
  const hb = b.intercept('https://b.example.test');
  try {
    assert.throws(() => b.intercept('https://a.example.test'), /https:\/\/a\.example\.test is already intercepted by another mock/);
    const read = async (origin: string) => ((await (await fetch(origin + runPath, { headers: owner })).json()) as { status: string }).status;
    assert.equal([await read('https://a.example.test'), await read('https://b.example.test')], ['cancelled', 'waiting_approval']);
  } finally {
    // The first copy's handle goes first: the second's must not be left without the patch, nor leave it behind.
    ha.restore();
    assert.is((await fetch(`https://b.example.test${runPath}`, { headers: owner })).status, 200);
    hb.restore();
  }
  assert.is(globalThis.fetch, original);
});

test("two copies: instanceof on an exported error holds for the other copy's instances", async () => {
  const refusals: [unknown, string][] = [];
  for (const lib of [cjs, esm]) {
    const dir = mkdtempSync(join(tmpdir(), 'prm-dual-'));
    const file = join(dir, 'data.json');
    writeFileSync(file, '{"not":"a data file"');
    refusals.push([await lib.createApp({ storage: new lib.JsonFileAdapter(file) }).catch((err: unknown) => err), 'DataFileError']);
    rmSync(dir, { recursive: true, force: true });
    refusals.push([await lib.createApp({ storage: 'memory', fixtures: { projects: 'none' } as never }).catch((err: unknown) => err), 'FixtureError']);
    refusals.push([new lib.ChangeSetConflict(), 'ChangeSetConflict']);
    refusals.push([new lib.DatabaseSchemaError('db', 'foreign'), 'DatabaseSchemaError']);
  }
  for (const [err, name] of refusals) {
    assert.is((err as Error).name, name);
    for (const lib of [cjs, esm]) {
      const cls = lib[name as 'DataFileError' | 'FixtureError' | 'ChangeSetConflict' | 'DatabaseSchemaError'];
      assert.ok(err instanceof cls, `${name} of either copy instanceof ${lib === cjs ? 'CommonJS' : 'ES module'} ${name}`);
      assert.not.ok(new Error('x') instanceof cls, `a plain Error is no ${name}`);
    }
    assert.ok(err instanceof Error);
  }
  assert.not.ok(new cjs.ChangeSetConflict() instanceof esm.DataFileError, 'a ChangeSetConflict is no DataFileError');
});

test.run();
