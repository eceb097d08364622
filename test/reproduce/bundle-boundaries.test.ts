// Repro bundles at their edges: the journal's next_id must be past its newest entry (equal is refused, one more is
// taken), the retention and mode a bundle carries when they came from a default, and a bundle restored into a mock
// with other defaults behaving as the one that wrote it. The writing and the restoring mock share one seal key: a
// bundle holds the admin key and broker secret sealed, and only the key that sealed them opens it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { SEAL_KEY } from '../helpers/replay-run.js';

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.failedApi}`;

async function bundleWithJournal() {
  const m = await freshMock({ seed: 'bundle-edges', sealKey: SEAL_KEY });
  for (let i = 0; i < 3; i++) await m.http.get(RUN).set(bearer(DEMO.tokens.owner)).expect(200);
  const bundle = (await m.http.get('/_mock/bundle').expect(200)).body;
  return { m, bundle };
}

test('bundle: journal next_id equal to the newest entry id is a 422 at journal.next_id, and nothing changes', async () => {
  const { bundle } = await bundleWithJournal();
  const newest = bundle.journal.entries.at(-1).id;
  assert.is(newest, 3);
  assert.is(bundle.journal.next_id, 4);
  const into = await freshMock({ seed: 'bundle-edges', sealKey: SEAL_KEY });
  const before = (await into.http.get('/_mock/requests?summary=true')).body;
  const refused = await into.http.put('/_mock/bundle').send({ ...bundle, journal: { ...bundle.journal, next_id: newest } });
  assert.is(refused.status, 422);
  assert.equal(refused.body.detail, [
    {
      type: 'value_error',
      loc: ['body', 'journal', 'next_id'],
      msg: 'Value error, next_id should be greater than the newest entry id',
      input: newest,
      ctx: { error: {} },
    },
  ]);
  assert.equal((await into.http.get('/_mock/requests?summary=true')).body, before);
  // One past the newest is taken, and the next request gets that id.
  await into.http
    .put('/_mock/bundle')
    .send({ ...bundle, journal: { ...bundle.journal, next_id: newest + 1 } })
    .expect(200);
  await into.http.get(RUN).set(bearer(DEMO.tokens.owner)).expect(200);
  const ids = (await into.http.get('/_mock/requests?summary=true')).body.items.map((e: { id: number }) => e.id);
  assert.equal(ids.slice(0, 3), [1, 2, 3]);
  assert.is(ids[3], newest + 1);
});

test('bundle: non-consecutive journal ids are a 422 at the entry', async () => {
  const { bundle } = await bundleWithJournal();
  bundle.journal.entries[2].id = 5;
  bundle.journal.next_id = 6;
  const into = await freshMock({ seed: 'bundle-edges', sealKey: SEAL_KEY });
  const refused = await into.http.put('/_mock/bundle').send(bundle);
  assert.equal([refused.status, refused.body.detail[0].loc], [422, ['body', 'journal', 'entries', 2, 'id']]);
});

test('bundle: the mode and retention that came from defaults are written into it, and restored as given', async () => {
  // createApp's defaults: simulation off, keep everything (0 days); nothing set them explicitly.
  const from = await freshMock({ seed: 'bundle-retention', sealKey: SEAL_KEY, simulation: { retentionDays: 3 } });
  const sim = (await from.http.get('/_mock/simulation').expect(200)).body;
  assert.equal([sim.mode, sim.retention_days], ['off', 3]);
  const bundle = (await from.http.get('/_mock/bundle').expect(200)).body;
  const settings = bundle.state.simulation.find((r: { id: string }) => r.id === 'settings') ?? bundle.state.simulation[0];
  assert.equal([settings.mode, settings.retention_days], ['off', 3]);
  // A mock with other defaults (auto, 9 days) restores what the bundle carries, not its own defaults.
  const into = await freshMock({ seed: 'bundle-retention', sealKey: SEAL_KEY, simulation: { mode: 'auto', retentionDays: 9 } });
  assert.equal([(await into.http.get('/_mock/simulation')).body.mode, (await into.http.get('/_mock/simulation')).body.retention_days], ['auto', 9]);
  await into.http.put('/_mock/bundle').send(bundle).expect(200);
  const after = (await into.http.get('/_mock/simulation')).body;
  assert.equal([after.mode, after.retention_days], ['off', 3]);
});

test('bundle: default retention 0 (keep everything) is carried as 0, not left to the restoring mock', async () => {
  const from = await freshMock({ seed: 'bundle-retention', sealKey: SEAL_KEY });
  const bundle = (await from.http.get('/_mock/bundle').expect(200)).body;
  const into = await freshMock({ seed: 'bundle-retention', sealKey: SEAL_KEY, simulation: { retentionDays: 7 } });
  await into.http.put('/_mock/bundle').send(bundle).expect(200);
  assert.is((await into.http.get('/_mock/simulation')).body.retention_days, 0);
});

test('bundle: the journal it carries is cut at the journal bound (below it, at it, one past it, two past it)', async () => {
  const bound = 3;
  for (const sent of [bound - 1, bound, bound + 1, bound + 2]) {
    const m = await freshMock({ seed: 'bundle-edges', sealKey: SEAL_KEY, journal: { entries: bound } });
    for (let i = 0; i < sent; i++) await m.http.get(RUN).set(bearer(DEMO.tokens.owner)).expect(200);
    const { journal } = (await m.http.get('/_mock/bundle').expect(200)).body;
    // Ids count every request from 1; the newest `bound` stay and the rest are counted as left.
    const kept = Math.min(sent, bound);
    const ids = Array.from({ length: kept }, (_, i) => sent - kept + 1 + i);
    assert.equal(
      { next_id: journal.next_id, left: journal.left, ids: journal.entries.map((e: { id: number }) => e.id) },
      { next_id: sent + 1, left: sent - kept, ids },
      `${sent} requests`,
    );
    for (const e of journal.entries) assert.equal([e.method, e.path, e.status, e.operation], ['GET', RUN, 200, 'getRun']);
  }
});

test.run();
