// GET /_mock/timeline's spend: at most eight projects, the most spent first and ties by id, the rest counted; no series for a project that spent nothing; sums and today's spend rounded to a millionth of a dollar; each project's daily limit from its budget.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO } from '../helpers/demo.js';
import { FROM, HOUR, runAt, spanMock, timelineOf, type Json } from '../helpers/timeline.js';

const { support, sales, sandbox, legacy, globex } = DEMO.projects;
/** Five projects more than the demo's, ids in order; the last has no budget, the first spent 0.1 + 0.2 today. */
const EXTRA = [1, 2, 3, 4, 5].map((n) => `00000000-0000-4000-8000-00000000000${n}`);

/** The demo's fixture with EXTRA added (copies of its Sales project under their own ids, names and slugs). */
function tenProjects() {
  const fixture = structuredClone(demoFixture()) as Json;
  const base = fixture.projects.find((p: Json) => p.id === sales);
  EXTRA.forEach((id, i) => {
    const p: Json = { ...structuredClone(base), id, name: `Extra ${i + 1}`, slug: `extra-${i + 1}` };
    if (i === 0) p.budget.current_daily_spend_usd = 0.1 + 0.2;
    if (i === EXTRA.length - 1) delete p.budget;
    fixture.projects.push(p);
  });
  return fixture;
}

test('nine projects spent in the span: the eight most spent are listed, most first, and the ninth is counted as omitted', async () => {
  const m = await spanMock({ fixtures: tenProjects() });
  // Each spends a different whole number of dollars (1 to 9), in an order of its own; the tenth spends nothing.
  const spenders = [support, sales, sandbox, legacy, globex, ...EXTRA.slice(0, 4)];
  const dollars = [4, 9, 1, 7, 2, 8, 3, 6, 5];
  for (const [i, project] of spenders.entries()) await runAt(m, project, FROM + (i % 4) * HOUR, { cost_usd: dollars[i] });
  const t = await timelineOf(m);
  const ranked = spenders.map((p, i) => [p, dollars[i]] as const).sort((a, b) => b[1] - a[1]);
  assert.equal(
    t.spend.map((s: Json) => [s.project_id, s.usd.reduce((a: number, b: number) => a + b, 0)]),
    ranked.slice(0, 8).map(([p, usd]) => [p, usd]),
  );
  assert.is(t.spend_projects_omitted, 1);
  assert.not.ok(
    t.spend.some((s: Json) => s.project_id === ranked[8][0]),
    'the least spent is the one left out',
  );
  await m.mock.close();
});

test('two projects that spent the same are listed by id, whichever spent first', async () => {
  const m = await spanMock({ fixtures: tenProjects() });
  // The larger id spends first, in the earlier bucket.
  await runAt(m, EXTRA[3], FROM, { cost_usd: 0.75 });
  await runAt(m, EXTRA[2], FROM + 2 * HOUR, { cost_usd: 0.75 });
  await runAt(m, EXTRA[1], FROM + HOUR, { cost_usd: 2 });
  const t = await timelineOf(m);
  assert.equal(
    t.spend.map((s: Json) => [s.project_id, s.usd]),
    [
      [EXTRA[1], [0, 2, 0, 0]],
      [EXTRA[2], [0, 0, 0.75, 0]],
      [EXTRA[3], [0.75, 0, 0, 0]],
    ],
  );
  await m.mock.close();
});

test('a project whose runs in the span cost nothing has no spend series', async () => {
  const m = await spanMock();
  await runAt(m, support, FROM, { cost_usd: 0 });
  await runAt(m, support, FROM + HOUR, { status: 'failed', cost_usd: 0 });
  await runAt(m, sales, FROM + HOUR, { cost_usd: 0.0042 });
  const t = await timelineOf(m);
  assert.equal(t.runs.succeeded, [1, 1, 0, 0]);
  assert.equal(
    t.spend.map((s: Json) => [s.project_id, s.usd]),
    [[sales, [0, 0.0042, 0, 0]]],
  );
  assert.is(t.spend_projects_omitted, 0);
  await m.mock.close();
});

test('sums per bucket and today_usd are rounded to a millionth of a dollar; the daily limit is the budget, null when it sets none', async () => {
  const m = await spanMock({ fixtures: tenProjects() });
  const [first, , , , noBudget] = EXTRA;
  // 0.1 + 0.2 in one bucket, a tenth of a millionth in another (rounded away), 0.7 + 0.1 in a third.
  for (const [ms, usd] of [
    [FROM, 0.1],
    [FROM + 30 * 60_000, 0.2],
    [FROM + HOUR, 0.0000001],
    [FROM + 2 * HOUR, 0.7],
    [FROM + 2 * HOUR + 1, 0.1],
  ] as const)
    await runAt(m, first, ms, { cost_usd: usd });
  await runAt(m, noBudget, FROM, { cost_usd: 1 });
  await runAt(m, sales, FROM, { cost_usd: 0.5 });
  await m.http
    .put(`/api/v3/projects/${sales}/budget`)
    .set({ Authorization: `Bearer ${DEMO.tokens.owner}` })
    .send({ project_daily_usd: 12.5 })
    .expect(200);
  const t = await timelineOf(m);
  const by = Object.fromEntries(t.spend.map((s: Json) => [s.project_id, s]));
  assert.equal(by[first].usd, [0.3, 0, 0.8, 0]);
  assert.is(by[first].today_usd, 0.3, 'the budget holds 0.1 + 0.2 as JavaScript adds them');
  assert.is(by[first].daily_limit_usd, 40);
  assert.equal([by[sales].daily_limit_usd, by[sales].today_usd, by[sales].name], [12.5, 2.1, 'Sales Assistant']);
  assert.equal([by[noBudget].daily_limit_usd, by[noBudget].today_usd, by[noBudget].name], [null, 0, 'Extra 5']);
  await m.mock.close();
});

test.run();
