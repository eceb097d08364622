// The demo state the build precomputes (dist/demo-state.json) is exactly what validating and compiling the demo gives.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { DEMO_FIXTURE_PATH, DEMO_STATE_FILE, demoFixture, demoSource, readFixtureFile, stateFromFixture } from '../../src/fixtures.js';
import { createApp } from '../../src/app.js';

const pre = JSON.parse(readFileSync(new URL(`../../dist/${DEMO_STATE_FILE}`, import.meta.url), 'utf8')) as { source: string; state: unknown };

test('demo state: the precomputed state equals the demo validated and compiled now', () => {
  const fresh = stateFromFixture(readFixtureFile(DEMO_FIXTURE_PATH)); // a new object: never the cached state
  assert.equal(pre.state, JSON.parse(JSON.stringify(fresh)));
  assert.equal(pre.state, fresh);
});

test('demo state: it is keyed by the hash of the demo file it was built from', () => {
  assert.match(pre.source, /^[0-9a-f]{64}$/);
  assert.is(pre.source, demoSource());
});

test('demo state: the built package answers with it (createApp on the demo, one request)', async () => {
  const { createApp, demoFixture } = (await import(new URL('../../dist/index.js', import.meta.url).href)) as typeof import('../../src/index.js');
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  assert.equal(mock.control.exportState(), pre.state);
  const res = await mock.fetch('/api/v3/projects/fe1868ee-d60e-4ce6-8db0-f4a764225229/runs/391206e3-21b8-4eae-b109-2fe71e9c7b14', {
    headers: { authorization: 'Bearer demo-owner-token' },
  });
  assert.is(((await res.json()) as { status: string }).status, 'waiting_approval');
});

test('demoFixture: one frozen document per process; a change throws and reaches no later mock; a copy can be changed', async () => {
  const doc = demoFixture() as { projects: { id: string; name: string; status: string }[] };
  assert.is(demoFixture(), doc, 'the same document each call');
  assert.throws(() => {
    doc.projects[0].status = 'archived';
  }, /read only/);
  assert.throws(() => doc.projects.push(doc.projects[0]), /not extensible|read only/);
  assert.equal(doc, readFixtureFile(DEMO_FIXTURE_PATH), 'unchanged: equal to the file read afresh');
  const copy = structuredClone(doc);
  copy.projects[0].name = 'Changed in a copy';
  const changed = await createApp({ storage: 'memory', fixtures: copy });
  const fromDemo = await createApp({ storage: 'memory', fixtures: demoFixture() });
  const name = async (m: typeof changed) =>
    ((await m.control.exportState()) as { projects: { id: string; name: string }[] }).projects.find((p) => p.id === copy.projects[0].id)?.name;
  assert.is(await name(changed), 'Changed in a copy');
  assert.is(await name(fromDemo), doc.projects[0].name);
});

test.run();
