// A mock's first session takes one start, as it is assembled: the loaded document itself on a fresh store, one copy of the stored maps otherwise.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { JsonFileAdapter } from '../../src/storage/adapters.js';
import { Store } from '../../src/storage/store.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { constOf, stepsOf } from '../helpers/replay-run.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);

/** `build()`'s result and how many store snapshots (copies of every collection's map) it took. */
async function countingSnapshots(build: () => Promise<MockApp>): Promise<{ mock: MockApp; snapshots: number }> {
  const original = Object.getOwnPropertyDescriptor(Store.prototype, 'snapshot')!;
  let snapshots = 0;
  Object.defineProperty(Store.prototype, 'snapshot', {
    ...original,
    value(this: Store) {
      snapshots++;
      return (original.value as (this: Store) => unknown).call(this);
    },
  });
  try {
    return { mock: await build(), snapshots };
  } finally {
    Object.defineProperty(Store.prototype, 'snapshot', original);
  }
}

const runsOf = (text: string) => (constOf(text, 'BUNDLE') as { state: { runs: { id: string }[] } }).state.runs.map((r) => r.id).sort();

test('session start: a fresh store keeps the fixtures document, no snapshot; the export replays from it', async () => {
  const { mock, snapshots } = await countingSnapshots(() => createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'start-1' }));
  assert.is(snapshots, 0);
  const res = await mock.fetch(`/api/v3/projects/${P}/releases`, { headers: owner });
  assert.is(res.status, 200);
  const text = await mock.control.exportTest();
  assert.equal(
    stepsOf(text).map((s) => [s.id, s.status]),
    [[1, 200]],
  );
  assert.equal(
    runsOf(text),
    demoFixture()
      .runs!.map((r) => r.id)
      .sort(),
  );
  await mock.close();
});

test('session start: a reopened data file takes one snapshot, and the session begins at the state it held', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prm-session-start-'));
  try {
    const file = join(dir, 'db.json');
    const first = await createApp({ storage: new JsonFileAdapter(file, { report: {} }), fixtures: demoFixture(), seed: 'start-2' });
    const run = (await first.control.createRun(P, { status: 'queued' })) as { id: string };
    await first.close();
    const { mock, snapshots } = await countingSnapshots(() =>
      createApp({ storage: new JsonFileAdapter(file, { report: {} }), fixtures: demoFixture(), seed: 'start-2' }),
    );
    assert.is(snapshots, 1);
    // A write after the start is not in it: the session's start is a copy, not the live maps.
    await mock.control.createRun(P, { status: 'queued' });
    const res = await mock.fetch(`/api/v3/projects/${P}/runs/${run.id}`, { headers: owner });
    assert.is(res.status, 200);
    const text = await mock.control.exportTest();
    assert.equal(
      stepsOf(text).map((s) => [s.id, s.status]),
      [[1, 200]],
    );
    assert.equal(runsOf(text), [...demoFixture().runs!.map((r) => r.id), run.id].sort());
    await mock.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
