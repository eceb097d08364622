// Writes that scale by sandbox on PostgreSQL: 3 instances, 30 sandboxes, writers on every instance. Writes to different
// sandboxes never conflict (each sandbox appends under a head of its own); writes to one sandbox from several instances
// conflict only with each other, run again on the caught-up state and are all stored. Counts read from /_mock/metrics.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { MockApp } from '../../../src/app.js';
import { dropCreated, needsPostgres } from '../../helpers/postgres.js';
import { apps, call, create, instances, P } from '../../helpers/postgres-sandboxes.js';
import { parsePrometheus, series } from '../../helpers/prometheus.js';

needsPostgres();
test.after(async () => {
  await Promise.all(apps.splice(0).map((m) => m.close().catch(() => {})));
  await dropCreated();
});

const SANDBOXES = 30;

/** This instance's sandbox-scope counter `name` (conflicts or reruns). */
async function counter(app: MockApp, name: string): Promise<number> {
  const res = await app.fetch('/_mock/metrics');
  assert.is(res.status, 200);
  return series(parsePrometheus(await res.text()), name)['{scope="sandbox"}'];
}
const totals = async (live: MockApp[], name: string) => (await Promise.all(live.map((a) => counter(a, name)))).reduce((a, b) => a + b, 0);

/** Creates a run in the sandbox through `app`; answers its id (every write must be acknowledged). */
async function write(app: MockApp, sandbox: string): Promise<string> {
  const made = await call(app, 'POST', `/sandboxes/${sandbox}/_mock/projects/${P}/runs`, {});
  assert.is(made.status, 200, JSON.stringify(made.body));
  return made.body!.id as string;
}

/** Whether the run is stored in the sandbox, read through `app`. */
async function stored(app: MockApp, sandbox: string, run: string): Promise<boolean> {
  const res = await call(app, 'GET', `/sandboxes/${sandbox}/api/v3/projects/${P}/runs/${run}`);
  return res.status === 200 && res.body!.id === run;
}

test('3 instances, 30 sandboxes: 0 conflicts between different sandboxes; conflicts within one are run again and every write is stored', async () => {
  const { live } = await instances(3);
  const boxes: string[] = [];
  for (let i = 0; i < SANDBOXES; i++) boxes.push((await create(live[i % 3])).id);
  const written = new Map<string, string[]>(boxes.map((b) => [b, []]));
  const note = (box: string, id: string) => written.get(box)!.push(id);

  // Every instance writes at once, each to its own ten sandboxes (several writes each, all in flight together): writes to
  // different sandboxes share no head, so none finds another's write ahead of it.
  await Promise.all(boxes.map((box, i) => Promise.all([0, 1, 2].map(async () => note(box, await write(live[(i + 1) % 3], box))))));
  assert.is(await totals(live, 'prm_commit_conflicts_total'), 0, 'writes to different sandboxes conflicted');
  assert.is(await totals(live, 'prm_commit_reruns_total'), 0);

  // Now each sandbox is written from all three instances at once: those writes race for the sandbox's one head.
  await Promise.all(boxes.map((box) => Promise.all(live.flatMap((app) => [0, 1].map(async () => note(box, await write(app, box)))))));
  const conflicts = await totals(live, 'prm_commit_conflicts_total');
  process.stderr.write(`  (30 sandboxes written from 3 instances at once: ${conflicts} conflicts, `);
  const reruns = await totals(live, 'prm_commit_reruns_total');
  process.stderr.write(`${reruns} reruns)\n`);
  // A conflict runs the group's transactions again: no rerun without a conflict, and no conflict without a rerun.
  assert.ok(reruns >= conflicts, `reruns ${reruns} < conflicts ${conflicts}`);
  assert.ok(conflicts > 0 || reruns === 0);
  // Nothing was written twice or lost: every acknowledged run is there, read through another instance.
  for (const [i, box] of boxes.entries()) {
    for (const id of written.get(box)!) assert.ok(await stored(live[(i + 2) % 3], box, id), `run ${id} of sandbox ${box} was acknowledged but is not stored`);
    assert.is(written.get(box)!.length, 9);
    assert.is(new Set(written.get(box)).size, 9);
  }
  // The default mock was not written: nothing of its scope moved.
  for (const app of live) {
    const f = parsePrometheus(await (await app.fetch('/_mock/metrics')).text());
    assert.is(series(f, 'prm_commit_conflicts_total')['{scope="default"}'], 0);
  }
});

test.run();
