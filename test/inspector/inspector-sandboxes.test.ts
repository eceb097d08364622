// The inspector's sandbox picker, driven in headless Chromium (Debian's, through playwright-core) against the built CLI
// with a control token: the page at /_mock/ui lists the live sandboxes, and the one picked fills every view (journal,
// state, clock, faults, coverage) with its own data, not the default mock's nor another sandbox's. The choice is in the
// URL (`?sandbox={id}`), so a reload keeps it; a sandbox's own address has no picker.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createClient, type MockClient } from 'project-runtime-mock/client';
import { CHROMIUM, CHROMIUM_ARGS, needsChromium } from '../helpers/needs.js';
import { startCli, type RunningCli } from '../helpers/cli.js';
import { DEMO } from '../helpers/demo.js';

needsChromium();

declare const location: any, document: any, window: any;

const TOKEN = 'picker-test-token';
const P = DEMO.projects.support;
const PATHS = {
  alpha: `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`,
  beta: `/api/v3/projects/${P}/jobs`,
  root: `/api/v3/projects/${P}/users`,
};

let cli: RunningCli;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let root: MockClient;
let alpha: MockClient & { sandbox: { id: string } };
let beta: MockClient & { sandbox: { id: string } };
const pageErrors: string[] = [];
const urls: string[] = [];

const picker = () => page.getByLabel('Showing');
const section = (label: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: label, exact: true }).click();
const clockShows = (text: string) => page.locator('header .clock strong', { hasText: text }).waitFor({ timeout: 15_000 });
const journalRow = (path: string) => page.locator(`table.journal tbody tr[data-path="${path}"]`);
const faultRow = (mock: string) => page.locator('table[data-kind="faults"] tbody tr', { hasText: `/api/v3/${mock}/**` });

test.before(async () => {
  cli = await startCli(['--memory', '--port', '0', '--control-token', TOKEN, '--simulation', 'off'], 30_000);
  root = createClient({ baseUrl: cli.url, token: DEMO.tokens.owner, controlToken: TOKEN });
  // Two sandboxes and the default mock, each with its own clock, budget, request, fault and coverage.
  alpha = await root.control.createSandbox({ name: 'alpha', clock: { now: '2031-03-03T03:03:03Z' } });
  beta = await root.control.createSandbox({ name: 'beta', clock: { now: '2032-04-04T04:04:04Z' } });
  assert.is((await alpha.setBudget(P, { project_daily_usd: 77 })).response.status, 200);
  assert.is((await alpha.getRun(P, DEMO.runs.waitingApproval)).response.status, 200);
  assert.is((await beta.setBudget(P, { project_daily_usd: 88 })).response.status, 200);
  assert.is((await beta.listJobs(P)).response.status, 200);
  assert.is((await root.listUsers(P)).response.status, 200);
  for (const [name, mock] of [
    ['alpha', alpha],
    ['beta', beta],
    ['root', root],
  ] as const)
    await mock.control.addFault({ method: 'GET', path: `/api/v3/${name}/**`, status: 503 });

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  context.on('request', (req) => urls.push(req.url()));
});

test.after(async () => {
  await browser?.close();
  await cli?.stop();
});

test('the default mock page lists the live sandboxes, newest first, after the default mock', async () => {
  await page.goto(`${cli.url}/_mock/ui`);
  await page.getByLabel('Control token').fill(TOKEN);
  await page.getByRole('button', { name: 'Use token' }).click();
  await page.locator('#mock-picker option', { hasText: 'alpha' }).waitFor({ state: 'attached', timeout: 15_000 });
  assert.equal(await page.locator('#mock-picker option').allInnerTexts(), ['Default mock', `beta · ${beta.sandbox.id}`, `alpha · ${alpha.sandbox.id}`]);
  assert.is(await picker().inputValue(), '');
  assert.is(await page.locator('[data-sandbox-count]').innerText(), '2 live sandboxes');
  await clockShows('2026-11-20 12:00:00 UTC');
  await journalRow(PATHS.root).first().waitFor({ timeout: 15_000 });
  assert.is(await journalRow(PATHS.alpha).count(), 0);
  assert.is(await page.locator('[data-shown-sandbox]').count(), 0, 'the header names no sandbox');
});

test('picking a sandbox: the URL names it, and the journal, clock, faults, state and coverage are its own', async () => {
  await picker().selectOption(alpha.sandbox.id);
  assert.is(await page.evaluate(() => location.search), `?sandbox=${alpha.sandbox.id}`);
  await clockShows('2031-03-03 03:03:03 UTC');
  // Counted from here: a poll of the default mock the page sent just before the pick may be reported after it.
  const before = urls.length;
  assert.match((await page.locator('header [data-shown-sandbox]').innerText()).replace(/\s+/g, ' '), `sandbox ${alpha.sandbox.id}`);
  // Journal: alpha's read; neither the default mock's nor beta's.
  await journalRow(PATHS.alpha).first().waitFor({ timeout: 15_000 });
  assert.equal([await journalRow(PATHS.root).count(), await journalRow(PATHS.beta).count()], [0, 0]);

  await section('Faults');
  await faultRow('alpha').waitFor();
  assert.equal([await faultRow('root').count(), await faultRow('beta').count()], [0, 0]);
  assert.is(await page.locator('table[data-kind="faults"] tbody tr').count(), 1);

  await section('Clock & simulation');
  await page.locator('[data-clock-now="2031-03-03T03:03:03.000Z"]').waitFor();

  await section('State');
  await page.getByLabel('Project', { exact: true }).selectOption(P);
  const card = page.locator(`.cards[data-project="${P}"]`);
  await card.waitFor();
  assert.match(await card.innerText(), 'of $77.00');

  await section('Coverage');
  // The full report is folded under what to do next.
  await page.getByText('The full report').click();
  await page.locator('tr[data-operation="getRun"]').waitFor();
  assert.is(await page.locator('tr[data-operation="getRun"] td.num').innerText(), '1');
  assert.match(await page.locator('tr[data-operation="listUsers"]').innerText(), 'never called');
  assert.match(await page.locator('tr[data-operation="listJobs"]').innerText(), 'never called');

  // Every control call since the pick went to alpha's prefix, but the list of sandboxes (the default mock's).
  const calls = urls.slice(before).filter((u) => u.includes('/_mock/') && !u.includes('/_mock/ui'));
  const stray = calls.filter((u) => !u.startsWith(`${cli.url}/sandboxes/${alpha.sandbox.id}/_mock/`) && !u.startsWith(`${cli.url}/_mock/sandboxes`));
  assert.ok(calls.length >= 5, `${calls.length} calls`);
  assert.equal(stray, []);
});

test('a reload keeps the pick (and the section); picking another sandbox, then the default mock, switches every view', async () => {
  await page.reload();
  await clockShows('2031-03-03 03:03:03 UTC');
  assert.is(await page.evaluate(() => location.hash), '#coverage');
  await page.locator('#mock-picker option', { hasText: 'alpha' }).waitFor({ state: 'attached' });
  assert.is(await picker().inputValue(), alpha.sandbox.id);
  // Opened once, the full report stays open in this tab.
  assert.is(await page.locator('tr[data-operation="getRun"] td.num').innerText(), '1');

  await picker().selectOption(beta.sandbox.id);
  await clockShows('2032-04-04 04:04:04 UTC');
  assert.is(await page.evaluate(() => `${location.search}${location.hash}`), `?sandbox=${beta.sandbox.id}#coverage`);
  await page.locator('tr[data-operation="listJobs"] td.num', { hasText: '1' }).waitFor();
  assert.match(await page.locator('tr[data-operation="getRun"]').innerText(), 'never called');
  await section('Faults');
  await faultRow('beta').waitFor();
  assert.equal([await faultRow('alpha').count(), await faultRow('root').count()], [0, 0]);
  await section('State');
  await page.getByLabel('Project', { exact: true }).selectOption(P);
  await page.locator(`.cards[data-project="${P}"]`, { hasText: 'of $88.00' }).waitFor();

  await picker().selectOption('');
  await clockShows('2026-11-20 12:00:00 UTC');
  assert.is(await page.locator('[data-shown-sandbox]').count(), 0);
  assert.is(await page.evaluate(() => `${location.search}${location.hash}`), '#state');
  await page.getByLabel('Project', { exact: true }).selectOption(P);
  const card = page.locator(`.cards[data-project="${P}"]`);
  await card.waitFor();
  assert.not.match(await card.innerText(), /of \$(77|88)\.00/);
  await section('Requests');
  await journalRow(PATHS.root).first().waitFor({ timeout: 15_000 });
  assert.equal([await journalRow(PATHS.alpha).count(), await journalRow(PATHS.beta).count()], [0, 0]);
});

test('a sandbox made while the page is open is listed; one that goes while shown says so', async () => {
  const gamma = await root.control.createSandbox({ name: 'gamma' });
  await page.locator('#mock-picker option', { hasText: 'gamma' }).waitFor({ state: 'attached', timeout: 15_000 });
  assert.is(await page.locator('[data-sandbox-count]').innerText(), '3 live sandboxes');
  await picker().selectOption(gamma.sandbox.id);
  await clockShows('2026-11-20 12:00:00 UTC');
  await root.control.deleteSandbox(gamma.sandbox.id);
  const alert = page.getByRole('alert').filter({ hasText: `No live sandbox ${gamma.sandbox.id}` });
  await alert.waitFor({ timeout: 15_000 });
  await alert.getByRole('button', { name: 'Show the default mock' }).click();
  assert.is(await page.evaluate(() => location.search), '');
  assert.is(await picker().inputValue(), '');
  await page.locator('#mock-picker option', { hasText: 'gamma' }).waitFor({ state: 'detached', timeout: 15_000 });

  // A malformed id in the URL is the default mock.
  await page.goto(`${cli.url}/_mock/ui?sandbox=NOT-AN-ID#requests`);
  await clockShows('2026-11-20 12:00:00 UTC');
  assert.is(await picker().inputValue(), '');
});

test("a sandbox's own address shows it, with no picker (sandboxes do not nest)", async () => {
  for (const url of [`${cli.url}/sandboxes/${beta.sandbox.id}/_mock/ui`, `http://${beta.sandbox.id}.localhost:${new URL(cli.url).port}/_mock/ui`]) {
    await page.goto(url);
    const token = page.getByLabel('Control token');
    // sessionStorage is per origin: the {id}.localhost page asks for the token again.
    if (url.includes('.localhost')) {
      await token.fill(TOKEN);
      await page.getByRole('button', { name: 'Use token' }).click();
    }
    await clockShows('2032-04-04 04:04:04 UTC');
    await journalRow(PATHS.beta).first().waitFor({ timeout: 15_000 });
    assert.is(await page.locator('#mock-picker').count(), 0, url);
    assert.is(await page.locator('header [data-shown-sandbox]').getAttribute('data-shown-sandbox'), beta.sandbox.id, url);
  }
});

test('past the 200 listed, the count says so, and a picked sandbox older than those is still offered and shown', async () => {
  for (let i = 0; i < 200; i++) await root.control.createSandbox(i === 0 ? {} : { name: `bulk-${i}` });
  await page.goto(`${cli.url}/_mock/ui?sandbox=${alpha.sandbox.id}#requests`);
  await clockShows('2031-03-03 03:03:03 UTC');
  await page.locator('[data-sandbox-count="200"]', { hasText: '200+ live sandboxes' }).waitFor({ timeout: 15_000 });
  const options = await page.locator('#mock-picker option').allInnerTexts();
  assert.is(options.length, 202, 'the default mock, alpha (looked up on its own) and the newest 200');
  assert.equal(options.slice(0, 2), ['Default mock', `alpha · ${alpha.sandbox.id}`]);
  assert.match(options[2], /^bulk-199 · [a-z0-9]{20}$/, 'then the newest first');
  assert.match(options[201], /^unnamed · [a-z0-9]{20}$/, 'a sandbox without a name shows its id');
  assert.not.ok(
    options.some((o) => o.startsWith('beta')),
    'beta is older than the newest 200',
  );
  assert.is(await picker().inputValue(), alpha.sandbox.id);
  // A narrow window (375 px) with the list full: the picker wraps, the page never scrolls sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(300);
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `the page is ${scroll} px wide in a ${width} px window`);
});

test('no page error', () => {
  assert.equal(pageErrors, []);
  assert.ok(
    urls.every((u) => u.startsWith(cli.url) || u.includes('.localhost:') || u.startsWith('data:')),
    'every request went to the server',
  );
});

test.run();
