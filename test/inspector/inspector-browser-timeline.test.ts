// Drives the inspector's Timeline in headless Chromium against the built CLI running the demo's simulation with its chat
// traffic (`npm start`'s flags, the clock moved by hand): after one simulated day every series' total is what the state
// and the journal hold; a drag across a chart filters Requests and State to that span; a click opens a request or a run;
// the session waterfall of one test marks its fault and its broken rule and downloads as SVG and PNG.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { needsChromium } from '../helpers/needs.js';
import { DEMO } from '../helpers/demo.js';
import { assertNoStrayTraffic, control, inspectorSession, page, section, shot, v3 } from '../helpers/inspector-page.js';

needsChromium();

const P = DEMO.projects.support;
const DAY = 86_400_000;
type Json = Record<string, any>;

inspectorSession(test, { signedIn: true, simulation: ['--simulation', 'auto', '--traffic', '10'] });

let now = 0;
let journal: Json[] = [];
let state: Json = {};

test('one simulated day of the demo, with client requests and a fault', async () => {
  assert.is((await v3(`/api/v3/projects/${P}/users?limit=1`)).status, 200);
  assert.is((await control('POST', '/_mock/faults', { path: `/api/v3/projects/${P}/jobs`, status: 503, times: 1 })).status, 200);
  assert.is((await control('POST', '/_mock/clock', { advance_ms: DAY / 2 })).status, 200);
  assert.is((await v3(`/api/v3/projects/${P}/jobs`)).status, 503);
  assert.is((await control('POST', '/_mock/clock', { advance_ms: DAY / 2 })).status, 200);
  now = Date.parse((await control('GET', '/_mock/clock')).body.now);
  journal = (await control('GET', '/_mock/requests?summary=true&limit=1000')).body.items;
  state = (await control('GET', '/_mock/state')).body;
  assert.ok(journal.filter((e) => e.simulated).length > 100, `${journal.length} entries`);
});

test('the Timeline charts every series, with totals that match the state and the journal', async () => {
  await section('Timeline');
  await page.locator('[data-chart="runs"] canvas').first().waitFor();
  const from = now - DAY;
  const inDay = (iso: string | null | undefined) => !!iso && Date.parse(iso) >= from && Date.parse(iso) < now;
  const runs = (state.runs as Json[]).filter((r) => inDay(r.created_at));
  const cls = (c: string) => journal.filter((e) => inDay(e.at) && String(e.status)[0] === c).length;
  const want: Record<string, number> = {
    'runs.succeeded': runs.filter((r) => r.status === 'succeeded').length,
    'runs.failed': runs.filter((r) => r.status === 'failed').length,
    'runs.waiting_approval': runs.filter((r) => r.status === 'waiting_approval').length,
    'runs.queued': runs.filter((r) => r.status === 'queued').length,
    'requests.2xx': cls('2'),
    'requests.5xx': cls('5'),
    'requests.faults': journal.filter((e) => inDay(e.at) && e.fault).length,
    'requests.simulated': journal.filter((e) => inDay(e.at) && e.simulated).length,
    'approvals.opened': (state.approvals as Json[]).filter((a) => inDay(a.requested_at)).length,
    'approvals.decided': (state.approvals as Json[]).filter((a) => inDay(a.decided_at)).length,
    'jobs.fired': runs.filter((r) => r.request_metadata?.source === 'job').length,
  };
  // The page reads the series again every 2 s: wait for the totals of the day, then compare them all.
  await page.locator(`[data-series="runs.succeeded"][data-total="${want['runs.succeeded']}"]`).waitFor({ timeout: 10_000 });
  const shown = await page
    .locator('tr[data-series]')
    .evaluateAll((rows) => Object.fromEntries(rows.map((r) => [r.getAttribute('data-series'), Number(r.getAttribute('data-total'))])));
  for (const [key, n] of Object.entries(want)) assert.is(shown[key], n, key);
  assert.ok(want['runs.succeeded'] > 100 && want['requests.faults'] === 1 && want['jobs.fired'] > 0, JSON.stringify(want));
  // Spend: the support project's runs' cost, against its daily limit.
  const cost = runs.filter((r) => r.project_id === P).reduce((a, r) => a + (r.cost_usd ?? 0), 0);
  assert.ok(Math.abs(shown[`spend.${P}`] - cost) < 1e-3, `${shown[`spend.${P}`]} vs ${cost}`);
  // Four charts, each drawn by uPlot on a canvas of the chart's width, with its own legend.
  for (const id of ['runs', 'requests', 'approvals', 'spend']) {
    const canvas = page.locator(`[data-chart="${id}"] canvas`).first();
    assert.ok(((await canvas.boundingBox())?.width ?? 0) > 400, id);
    assert.ok((await page.locator(`[data-chart="${id}"] .u-legend`).count()) === 1, id);
  }
  await shot('timeline');
});

test('a drag across the requests chart filters Requests and State to that span', async () => {
  const over = page.locator('[data-chart="requests"] .u-over');
  await over.scrollIntoViewIfNeeded();
  const box = (await over.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.25, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, y, { steps: 8 });
  await page.mouse.up();
  const banner = page.locator('.timeline .span-banner');
  await banner.waitFor();
  const span = { from: Number(await banner.getAttribute('data-span-from')), to: Number(await banner.getAttribute('data-span-to')) };
  // A quarter of the day, snapped to whole buckets.
  assert.ok(span.to - span.from > DAY / 5 && span.to - span.from < DAY / 3.5, JSON.stringify(span));
  assert.ok(span.from >= now - DAY && span.to <= now);

  await section('Requests');
  await page.locator('section[aria-labelledby="journal-title"] .span-banner').waitFor();
  const inSpan = journal.filter((e) => Date.parse(e.at) >= span.from && Date.parse(e.at) < span.to);
  await page.waitForFunction((n) => document.querySelectorAll('table.journal tbody tr').length === n, inSpan.length, { timeout: 10_000 });
  const ids = await page.locator('table.journal tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-id'))));
  assert.equal(
    ids.sort((a, b) => a - b),
    inSpan.map((e) => e.id),
  );
  // The simulated traffic is marked, and a filter leaves it out.
  assert.ok((await page.locator('table.journal tbody tr .badge.sim').count()) > 10);
  await page.getByLabel('Traffic').selectOption('clients');
  await page.waitForFunction((n) => document.querySelectorAll('table.journal tbody tr').length === n, inSpan.filter((e) => !e.simulated).length);
  await page.getByLabel('Traffic').selectOption('all');
  await shot('timeline-requests');

  await section('State');
  await page.getByLabel('Project', { exact: true }).selectOption(P);
  const note = page.locator('.records .span-banner');
  await note.waitFor();
  const shownRuns = await page.locator('table[data-kind="runs"] tbody tr').evaluateAll((rows) => rows.length);
  assert.is(Number(await note.getAttribute('data-span-rows')), shownRuns);
  const created = await page.locator('table[data-kind="runs"] tbody tr td:nth-child(5)').allInnerTexts();
  for (const c of created) {
    const ms = Date.parse(c.replace(' UTC', 'Z').replace(' ', 'T'));
    assert.ok(ms >= span.from && ms < span.to, c);
  }

  await section('Timeline');
  await page.getByRole('button', { name: 'Clear span' }).first().click();
  await page.locator('.span-banner').first().waitFor({ state: 'detached' });
});

test('a click on a bucket opens its first run in State, or its first request in Requests', async () => {
  await section('Timeline');
  const answer = (await control('GET', `/_mock/timeline?from=${new Date(now - DAY).toISOString()}&to=${new Date(now).toISOString()}&buckets=96`)).body;
  const bucket = answer.first.run.findIndex((r: Json | null, i: number) => r && i > 10);
  await page.locator('[data-chart="runs"] .u-over').scrollIntoViewIfNeeded();
  const runsOver = (await page.locator('[data-chart="runs"] .u-over').boundingBox())!;
  const run = answer.first.run[bucket];
  await clickUntil(runsOver.x + ((bucket + 0.5) / 96) * runsOver.width, runsOver.y + runsOver.height / 2, page.locator('#run-title', { hasText: run.id }));
  assert.is(await page.getByLabel('Project', { exact: true }).inputValue(), run.project_id);

  await section('Timeline');
  const withRequest = answer.first.request.findIndex((id: number | null, i: number) => id !== null && i > 10);
  await page.locator('[data-chart="requests"] .u-over').scrollIntoViewIfNeeded();
  const reqOver = (await page.locator('[data-chart="requests"] .u-over').boundingBox())!;
  await clickUntil(
    reqOver.x + ((withRequest + 0.5) / 96) * reqOver.width,
    reqOver.y + reqOver.height / 2,
    page.locator('#entry-title', { hasText: `Request #${answer.first.request[withRequest]}` }),
  );
});

/** Clicks a point of a chart until what it opens shows: a click that lands while the chart is still being laid out
 * (a busy machine) opens nothing, and a second one must then open the same thing. */
async function clickUntil(x: number, y: number, shown: ReturnType<typeof page.locator>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.mouse.click(x, y);
    try {
      await shown.waitFor({ timeout: 8_000 });
      return;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

test('the session waterfall: one test’s requests in order, the fault and the broken rule marked, downloadable as SVG and PNG', async () => {
  const name = { 'X-Test-Name': 'retries a final error' };
  const retry = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/retry`;
  assert.is((await control('POST', '/_mock/faults', { path: `/api/v3/projects/${P}/users`, status: 500, times: 1 })).status, 200);
  const sent = [
    await v3(`/api/v3/projects/${P}/users?limit=1`, { headers: name }),
    await v3(retry, { method: 'POST', headers: { ...name, 'Content-Type': 'application/json' }, body: '{}' }),
    await v3(retry, { method: 'POST', headers: { ...name, 'Content-Type': 'application/json' }, body: '{}' }),
    await v3(`/api/v3/projects/${P}/jobs`, { headers: name }),
  ];
  assert.equal(
    sent.map((r) => r.status),
    [500, 409, 409, 200],
  );
  const entries = (await control('GET', '/_mock/requests?summary=true&test=retries%20a%20final%20error')).body.items as Json[];
  const findings = (await control('GET', '/_mock/client-report')).body.findings as Json[];
  const broke = findings.filter((f) => f.rule === 'retried_final_error').flatMap((f) => f.entries);
  assert.equal(broke, [entries[1].id, entries[2].id]);

  await section('Timeline');
  await page.locator('.waterfall').getByRole('button', { name: 'Refresh' }).click();
  await page.getByLabel('Session', { exact: true }).selectOption('test:retries a final error');
  const rows = page.locator('#waterfall-svg g[data-id]');
  await page.waitForFunction(() => document.querySelectorAll('#waterfall-svg g[data-id]').length === 4);
  // The findings load apart from the rows (the client report): their marks may come a moment later.
  await page.waitForFunction(() => document.querySelectorAll('#waterfall-svg g[data-rules]').length === 2);
  assert.equal(await rows.evaluateAll((gs) => gs.map((g) => [Number(g.getAttribute('data-id')), g.getAttribute('data-fault'), g.getAttribute('data-rules')])), [
    [entries[0].id, 'true', null],
    [entries[1].id, null, 'retried_final_error'],
    [entries[2].id, null, 'retried_final_error'],
    [entries[3].id, null, null],
  ]);
  assert.match((await rows.nth(2).textContent()) ?? '', 'retried_final_error');
  await page.locator('#waterfall-svg').scrollIntoViewIfNeeded();
  await shot('waterfall');

  const [svg] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download SVG' }).click()]);
  assert.is(svg.suggestedFilename(), 'waterfall.svg');
  const text = readFileSync((await svg.path())!, 'utf8');
  assert.match(text, /^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  for (const e of entries) assert.match(text, `#${e.id} ${e.method}`);
  const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PNG' }).click()]);
  assert.is(png.suggestedFilename(), 'waterfall.png');
  const bytes = readFileSync((await png.path())!);
  assert.equal([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(bytes.length > 2000, `${bytes.length} bytes`);
  assertNoStrayTraffic();
});

declare const document: any;

test.run();
