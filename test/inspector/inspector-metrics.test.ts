// The inspector's Metrics section, in headless Chromium against the built CLI: the samples GET /_mock/metrics serves
// (buckets left out), with the counts of the traffic sent.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, needsChromium } from '../helpers/needs.js';
import { startCli, type RunningCli } from '../helpers/cli.js';
import { DEMO } from '../helpers/demo.js';

needsChromium();

const RUN = `/api/v3/projects/${DEMO.projects.support}/runs/${DEMO.runs.waitingApproval}`;
let cli: RunningCli;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

test.before(async () => {
  cli = await startCli(['--memory', '--port', '0', '--simulation', 'off'], 30_000);
  context = await chromium.launchPersistentContext('', { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

test.after(async () => {
  await context?.close();
  await cli?.stop();
});

test('the Metrics section lists the samples with the counts of the traffic sent; no bucket rows', async () => {
  for (let i = 0; i < 3; i++) assert.is((await fetch(`${cli.url}${RUN}`, { headers: { Authorization: `Bearer ${DEMO.tokens.owner}` } })).status, 200);
  assert.is((await fetch(`${cli.url}${RUN}`)).status, 401);
  await page.goto(`${cli.url}/_mock/ui#metrics`);
  await page.getByRole('heading', { name: 'Metrics' }).waitFor();
  const rows = page.locator('table.metrics tbody tr');
  await rows.first().waitFor();
  const all = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  assert.ok(all.includes('prm_requests_total scope="default", operation="getRun", status_class="2xx" 3'), all.join('\n'));
  assert.ok(all.includes('prm_requests_total scope="default", operation="getRun", status_class="4xx" 1'));
  assert.ok(all.includes('prm_request_duration_seconds_count scope="default", operation="getRun" 4'));
  assert.not.ok(all.some((t) => t.startsWith('prm_request_duration_seconds_bucket')));
  assert.equal(pageErrors, []);
});

test.run();
