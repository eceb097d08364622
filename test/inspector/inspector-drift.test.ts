// The inspector's drift view and a journal entry's drift, in headless Chromium against the built CLI shadowing a
// drifting target (the status of run detail renamed): the group with its count and example, the target's state, the
// request's differences in its detail, and the shadow token nowhere in the page.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, needsChromium } from '../helpers/needs.js';
import { startCli, type RunningCli } from '../helpers/cli.js';
import { DEMO } from '../helpers/demo.js';
import { driftingTarget, type DriftingTarget } from '../helpers/drifting-target.js';

needsChromium();

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}`;
const SHADOW_TOKEN = DEMO.tokens.operator;
let target: DriftingTarget;
let cli: RunningCli;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

test.before(async () => {
  target = await driftingTarget('renamed field');
  cli = await startCli(['--memory', '--port', '0', '--simulation', 'off', '--shadow', target.url, '--shadow-token', SHADOW_TOKEN], 30_000);
  context = await chromium.launchPersistentContext('', { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

test.after(async () => {
  await context?.close();
  await cli?.stop();
  await target?.close();
});

test('the Drift section groups the differences by cause; the request detail lists its own', async () => {
  for (let i = 0; i < 3; i++) assert.is((await fetch(`${cli.url}${RUN}`, { headers: { Authorization: `Bearer ${DEMO.tokens.owner}` } })).status, 200);
  let report: { compared: number };
  do report = (await (await fetch(`${cli.url}/_mock/drift`)).json()) as typeof report;
  while (report.compared < 3);
  await page.goto(`${cli.url}/_mock/ui#drift`);
  await page.getByRole('heading', { name: 'Drift' }).waitFor();
  const row = page.locator('table.drift tbody tr[data-field="body.status"]');
  await row.waitFor();
  // One row per cause: the field, both values, the operations that showed it, the count and the first requests.
  assert.is(await row.locator('th').innerText(), 'body.status');
  assert.equal(await row.locator('td').allInnerTexts(), ['"present (required)" → "absent"', 'getRun', '3', '#1 getRun\n#2 getRun\n#3 getRun']);
  const state = (await page.locator('p.summary[data-state="up"]').textContent())!.replace(/\s+/g, ' ');
  assert.match(state, `Target ${target.url}/: up since `);
  assert.is(await page.locator('ul.summary').getAttribute('data-drifted'), '3');
  // The first request's detail, from the Requests section.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Requests', exact: true }).click();
  await page.locator(`table.journal tbody tr[data-path="${RUN}"]`).first().locator('button').first().click();
  const items = page.locator('table.drift-items tbody tr');
  await items.first().waitFor();
  assert.is(await items.first().locator('th').innerText(), 'body.status');
  assert.match(await items.first().innerText(), /"present \(required\)"\s+"absent"/);
  assert.not.ok((await page.content()).includes(SHADOW_TOKEN), 'the shadow token shows in the page');
  assert.equal(pageErrors, []);
});

test.run();
