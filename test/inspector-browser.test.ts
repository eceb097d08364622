// Drives the inspector page (GET /_mock/ui) in headless Chromium (Debian's, through playwright-core) against the built
// CLI with the demo and a control token: the journal live, a fault from the form, the clock expiring an approval, a
// simulation step, the coverage table, reset and a fixture file, keyboard access and a narrow window. Any page error
// or request that leaves the server fails it. Screenshots go to test/browser/.output/ (git-ignored).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, needsChromium } from './helpers/needs.js';
import { ROOT, startCli, type RunningCli } from './helpers/cli.js';
import { DEMO, bearer } from './helpers/demo.js';

needsChromium();

// Browser globals, for the callbacks that page.evaluate runs in the page (this file is type-checked for Node).
declare const document: any, window: any, location: any, sessionStorage: any;
declare function getComputedStyle(el: unknown): any;

const TOKEN = 'inspector-test-token';
const P = DEMO.projects.support;
const RUN_PATH = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;
const OUT = join(ROOT, 'test/browser/.output');

let cli: RunningCli;
let context: BrowserContext;
let page: Page;
let profile: string;
const pageErrors: string[] = [];
const external: string[] = [];
const urls: string[] = [];
/** When the page started each journal poll (ms, performance clock of this process). */
const polls: number[] = [];

const v3 = (path: string, init: RequestInit = {}) =>
  fetch(`${cli.url}${path}`, { ...init, headers: { ...bearer(DEMO.tokens.owner), ...(init.headers ?? {}) } });
const control = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${cli.url}${path}`, {
    method,
    headers: { 'X-Mock-Control-Token': TOKEN, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
const section = async (label: string) => {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: label, exact: true }).click();
};
const shot = (name: string) => page.screenshot({ path: join(OUT, `inspector-${name}.png`), fullPage: false });

test.before(async () => {
  mkdirSync(OUT, { recursive: true });
  // Simulation off at start: the clock test sees expiry by time alone; the simulation test sets a mode from the page.
  cli = await startCli(['--memory', '--port', '0', '--control-token', TOKEN, '--simulation', 'off'], 30_000);
  profile = mkdtempSync(join(tmpdir(), 'inspector-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    // A closed network: no QUIC, no background fetches, no component or sync traffic, no first-run UI (as test/browser/docs-check.mjs).
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(err.message));
  context.on('request', (req) => {
    const url = req.url();
    urls.push(url);
    if (!url.startsWith(`${cli.url}/`) && !url.startsWith('data:')) external.push(url);
    if (url.startsWith(`${cli.url}/_mock/requests?`)) polls.push(performance.now());
  });
});

test.after(async () => {
  await context?.close();
  await cli?.stop();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test('with a control token the page asks for it, keeps it in sessionStorage and sends it as a header, never in a URL', async () => {
  await page.goto(`${cli.url}/_mock/ui`);
  const input = page.getByLabel('Control token');
  await input.waitFor();
  await input.fill(TOKEN);
  await page.getByRole('button', { name: 'Use token' }).click();
  await page.getByRole('heading', { name: 'Requests' }).waitFor();
  await input.waitFor({ state: 'detached' });
  assert.is(await page.evaluate(() => sessionStorage.getItem('project-runtime-mock.control-token')), TOKEN);
  // The header clock is read with the token: the demo's frozen time.
  await page.getByText('2026-11-20 12:00:00 UTC').first().waitFor();
  assert.ok(
    urls.every((u) => !u.includes(TOKEN)),
    'the token appeared in a URL',
  );
});

test('journal: a v3 request appears by the next poll (polled at least once a second), and opens redacted', async () => {
  // Let the poller settle, then measure its cadence over what follows.
  await page.waitForTimeout(1200);
  const res = await v3(RUN_PATH);
  assert.is(res.status, 200);
  const sent = performance.now();
  const row = page.locator(`table.journal tbody tr[data-path="${RUN_PATH}"]`);
  await row.first().waitFor({ timeout: 15_000 });
  const seen = performance.now();
  const pollsBetween = polls.filter((t) => t > sent && t <= seen).length;
  // The first poll that starts after the request returns it: at most one more can start before the row is noticed.
  assert.ok(pollsBetween <= 2, `${pollsBetween} journal polls started before the entry showed (${Math.round(seen - sent)} ms)`);
  await page.waitForTimeout(2500);
  const recent = polls.filter((t) => t > sent - 1200);
  const gaps = recent
    .slice(1)
    .map((t, i) => t - recent[i])
    .sort((a, b) => a - b);
  const median = gaps[Math.floor(gaps.length / 2)];
  assert.ok(gaps.length >= 3 && median <= 1000, `journal polls every ${Math.round(median)} ms (median of ${gaps.length} gaps)`);
  console.log(`  journal: entry shown ${Math.round(seen - sent)} ms after the request; polls every ${Math.round(median)} ms (median)`);

  assert.match(await row.first().innerText(), 'getRun');
  // The row's time carries the date (the demo's frozen clock), so rows across days read in order.
  assert.match(await row.first().innerText(), '2026-11-20 12:00:00');
  await row.first().getByRole('button').click();
  const detail = page.locator('aside.detail');
  await detail.getByText('"[redacted]"').first().waitFor();
  const text = await detail.innerText();
  assert.match(text, `GET ${RUN_PATH}`);
  assert.match(text, /"authorization": "\[redacted\]"/);
  assert.not.match(text, DEMO.tokens.owner);
  assert.match(text, `"id": "${DEMO.runs.waitingApproval}"`);
  assert.match(text, '"status": "waiting_approval"');
  await shot('requests');
  await detail.getByRole('button', { name: 'Close' }).click();
});

test('the State view opens on a project with runs; the clock shows its offset in words; the simulation its mode, speed and traffic', async () => {
  // What the page should pick, found through the control surface: the first project in list order with a run.
  const projects = (await control('GET', '/_mock/projects?limit=100')).body.items as { id: string }[];
  const withRuns: string[] = [];
  for (const p of projects) if ((await control('GET', `/_mock/projects/${p.id}/runs?limit=1`)).body.items.length > 0) withRuns.push(p.id);
  assert.ok(withRuns.length > 0 && withRuns[0] !== projects[0].id, 'the newest project has no runs, so the choice matters');
  await section('State');
  await page.locator(`.cards[data-project="${withRuns[0]}"]`).waitFor();
  assert.is(await page.getByLabel('Project', { exact: true }).inputValue(), withRuns[0]);

  await control('PUT', '/_mock/simulation', { clock: 'running', traffic: [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 10 }] });
  await section('Clock & simulation');
  const offset = page.locator('[data-offset-ms]');
  await offset.waitFor();
  const ms = Number(await offset.getAttribute('data-offset-ms'));
  const days = Math.floor(Math.abs(ms) / 86_400_000);
  assert.ok(days > 0, `the demo's clock is days away from real time (${ms} ms)`);
  assert.match(await offset.innerText(), new RegExp(`^${ms < 0 ? '-' : '\\+'}${days} d \\d+ h$`));
  assert.is(await page.locator('[data-sim-mode]').innerText(), 'off');
  assert.is(await page.locator('[data-sim-speed]').innerText(), '1× real time');
  assert.is(await page.locator('[data-sim-clock]').innerText(), 'running');
  assert.is(await page.locator('[data-sim-traffic]').innerText(), '10 messages an hour on 1 chat binding');
  // Back to the demo's frozen clock and no traffic, for the tests that follow.
  await control('PUT', '/_mock/simulation', { traffic: [] });
  assert.is((await control('POST', '/_mock/clock', { now: DEMO.now })).status, 200);
});

test('faults: one added from the form answers the next matching request, once', async () => {
  await section('Faults');
  const form = page.locator('form', { has: page.getByRole('heading', { name: 'Add a fault' }) });
  await form.getByLabel('Method').selectOption('GET');
  await form.getByLabel(/^Path/).fill('/api/v3/projects/*/runs/*');
  await form.getByLabel('Status').fill('503');
  await form.getByLabel(/^Times/).fill('1');
  await form.getByLabel(/^Body/).fill('{"detail": {"reason_code": "unavailable", "message": "try later"}}');
  await form.getByRole('button', { name: 'Add fault' }).click();
  await page.getByRole('status').filter({ hasText: 'Added fault' }).waitFor();
  const listed = await control('GET', '/_mock/faults');
  assert.is(listed.body.items.length, 1);
  assert.equal(
    {
      method: listed.body.items[0].method,
      path: listed.body.items[0].path,
      status: listed.body.items[0].status,
      times: listed.body.items[0].times,
      body: listed.body.items[0].body,
    },
    { method: 'GET', path: '/api/v3/projects/*/runs/*', status: 503, times: 1, body: { detail: { reason_code: 'unavailable', message: 'try later' } } },
  );
  await page.locator('table[data-kind="faults"] tbody tr', { hasText: '/api/v3/projects/*/runs/*' }).waitFor();

  const faulted = await v3(RUN_PATH);
  assert.is(faulted.status, 503);
  assert.equal(await faulted.json(), { detail: { reason_code: 'unavailable', message: 'try later' } });
  assert.is(faulted.headers.get('x-mock-fault'), listed.body.items[0].id);
  assert.is((await v3(RUN_PATH)).status, 200, 'times: 1 hits one request only');

  // The used-up fault leaves the list (the view follows within its 2 s refresh).
  await page.getByText('No active faults.').waitFor({ timeout: 15_000 });

  await section('Requests');
  const row = page.locator(`table.journal tbody tr[data-path="${RUN_PATH}"]`, { has: page.locator('span.status', { hasText: '503' }) });
  await row.first().waitFor({ timeout: 15_000 });
  assert.match(await row.first().innerText(), 'fault');

  // A fault until cleared, then the button that clears them.
  await section('Faults');
  await form.getByLabel(/^Path/).fill('/api/v3/never/**');
  await form.getByLabel(/^Times/).fill('');
  await form.getByRole('button', { name: 'Add fault' }).click();
  await page.locator('table[data-kind="faults"] tbody tr', { hasText: 'until cleared' }).waitFor();
  await shot('faults');
  // A fault of another kind: the form shows that kind's fields.
  await form.getByLabel('Kind').selectOption('transport');
  await form.getByLabel('Transport').selectOption('slow_body');
  await form.getByLabel('Bytes per second').fill('512');
  await form.getByLabel(/^Path/).fill('/api/v3/slow/**');
  await form.getByRole('button', { name: 'Add fault' }).click();
  await page.locator('table[data-kind="faults"] tbody tr', { hasText: 'slow_body at 512 B/s' }).waitFor();
  const slow = (await control('GET', '/_mock/faults')).body.items.find((f: { path: string }) => f.path === '/api/v3/slow/**');
  assert.equal([slow.transport, slow.bytes_per_s, slow.status], ['slow_body', 512, undefined]);
  await page.getByRole('button', { name: 'Clear all faults' }).click();
  await page.getByRole('status').filter({ hasText: 'Cleared 2 faults.' }).waitFor();
  assert.equal((await control('GET', '/_mock/faults')).body.items, []);
  await page.getByText('No active faults.').waitFor();
});

test('clock: advancing a day turns the pending approval expired in the state view', async () => {
  await section('State');
  await page.getByLabel('Project', { exact: true }).selectOption(P);
  await page.locator(`.cards[data-project="${P}"]`).waitFor();
  await page.getByRole('group', { name: 'Records' }).getByRole('button', { name: 'Approvals' }).click();
  const approval = page.locator(`table[data-kind="approvals"] tbody tr[data-id="${DEMO.approvals.pendingWaiting}"]`);
  await approval.waitFor();
  assert.match(await approval.innerText(), 'pending');
  await shot('state');

  await section('Clock & simulation');
  await page.getByRole('button', { name: '+ 1 day' }).click();
  await page.getByRole('status').filter({ hasText: 'Advanced 1 day' }).waitFor();
  assert.is((await control('GET', '/_mock/clock')).body.now, '2026-11-21T12:00:00.000Z');
  await page.locator('[data-clock-now="2026-11-21T12:00:00.000Z"]').waitFor();

  await section('State');
  await page.locator(`table[data-kind="approvals"] tbody tr[data-id="${DEMO.approvals.pendingWaiting}"]`, { hasText: 'expired' }).waitFor();
  // The other pending one expires on the 22nd: still pending. The overview counts follow.
  assert.match(await page.locator(`table[data-kind="approvals"] tbody tr[data-id="${DEMO.approvals.pendingOther}"]`).innerText(), 'pending');
  const counts = await page.locator('ul[data-counts="approvals"]').innerText();
  assert.match(counts.replace(/\s+/g, ' '), 'pending 1');
  assert.match(counts.replace(/\s+/g, ' '), 'expired 3');
});

test('simulation: the mode is set from the page and Step executes the next pending event', async () => {
  await section('Clock & simulation');
  await page.getByLabel('Mode', { exact: true }).selectOption('step');
  await page.getByRole('button', { name: 'Set mode' }).click();
  await page.locator('[data-sim-mode="step"]').waitFor();
  // The retention line beside the mode: nothing is removed by default embedded.
  assert.match(await page.locator('[data-retention-days="0"]').innerText(), 'simulated runs kept');
  const before = (await control('GET', '/_mock/simulation')).body;
  assert.is(before.mode, 'step');
  assert.ok(before.pending_count > 0, 'the demo has pending events in step mode');
  const next = before.pending[0];
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  const notice = page.getByRole('status').filter({ hasText: 'Stepped:' });
  await notice.waitFor();
  const text = await notice.innerText();
  assert.match(text, `Stepped: ${next.kind} of `);
  assert.match(text, next.at.replace('T', ' ').replace('.000Z', ' UTC'));
  const after = (await control('GET', '/_mock/simulation')).body;
  assert.ok(after.now >= next.at, 'the clock moved to the event');
  await page.locator(`[data-pending="${after.pending_count}"]`).waitFor();
  await shot('clock');
});

test('coverage: a table per operation with what is missing highlighted', async () => {
  await section('Coverage');
  const getRun = page.locator('tr[data-operation="getRun"]');
  await getRun.waitFor();
  // getRun answered 200 (twice); the faulted 503 is not counted. 404 was never provoked: missing, highlighted.
  assert.equal(await getRun.locator('ul.seen li').allInnerTexts(), ['200']);
  const missing = await getRun.locator('ul.missing li').allInnerTexts();
  assert.ok(missing.includes('404') && missing.includes('run_not_found'), missing.join(','));
  assert.not.ok(missing.includes('200'));
  assert.is(await getRun.locator('td.num').innerText(), '2');
  const bg = await getRun
    .locator('ul.missing li')
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.is.not(bg, 'rgba(0, 0, 0, 0)', 'missing items have a background');
  assert.match(await page.locator('tr[data-operation="cancelRun"]').innerText(), 'never called');
  assert.is(await page.locator('table.coverage tbody tr').count(), 20);
  await shot('coverage');
});

test('client report: a reused authorization code shows as an error finding naming its requests', async () => {
  const exchange = () =>
    fetch(`${cli.url}/api/v3/auth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier }),
    });
  assert.is((await exchange()).status, 200);
  assert.is((await exchange()).status, 400);
  const ids = (await control('GET', '/_mock/requests?path=/api/v3/auth/token&summary=true')).body.items.map((e: { id: number }) => e.id);
  await section('Client report');
  const finding = page.locator('li.finding[data-rule="code_reused"]');
  await finding.waitFor();
  const text = await finding.innerText();
  assert.match(text, 'error');
  assert.match(text, `requests #${ids.at(-2)} #${ids.at(-1)}`);
  assert.is(await page.locator('table.rules tbody tr').count(), 7);
  await shot('client-report');
});

test('the README screenshot: a few requests, one opened (test/browser/.output/inspector-readme.png, copied to docs/inspector.png)', async () => {
  await section('Requests');
  const sent = [
    await v3(`/api/v3/projects/${P}/users?limit=3`),
    await v3(`/api/v3/projects/${P}/approvals?status=pending`),
    await v3(`/api/v3/projects/${P}/runs/${DEMO.runs.failedApi}/retry`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
    await fetch(`${cli.url}/api/v3/projects/${P}/jobs`),
    await v3(`/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingOther}/deny`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"reason": "not today"}',
    }),
  ];
  assert.equal(
    sent.map((r) => r.status),
    [200, 200, 409, 401, 200],
  );
  const deny = page.locator(`table.journal tbody tr[data-path$="/deny"]`);
  await deny.waitFor({ timeout: 15_000 });
  assert.match(await page.locator(`table.journal tbody tr[data-path$="/retry"]`).innerText(), '409');
  // Lists cut each UUID to its first 8 characters; the full path is the button's title.
  assert.match(await deny.locator('td.path').innerText(), `/api/v3/projects/${P.slice(0, 8)}…/approvals/${DEMO.approvals.pendingOther}/deny`);
  await page.setViewportSize({ width: 1100, height: 640 });
  await deny.getByRole('button').click();
  await page.locator('aside.detail').getByText('not today').first().waitFor();
  await page.screenshot({ path: join(OUT, 'inspector-readme.png') });
  await page.locator('aside.detail').getByRole('button', { name: 'Close' }).click();
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('reset and a fixture file: reset empties the journal and restores the clock; a bad fixture is refused with its location', async () => {
  await section('Reset & fixtures');
  await page.getByRole('button', { name: 'Reset the mock' }).click();
  await page.getByRole('status').filter({ hasText: 'Reset:' }).waitFor();
  assert.is((await control('GET', '/_mock/clock')).body.now, DEMO.now);
  assert.equal((await control('GET', '/_mock/requests')).body.items, []);

  const dir = mkdtempSync(join(tmpdir(), 'inspector-fixture-'));
  try {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ projects: [{ id: 'not-a-uuid' }] }));
    await page.getByLabel('Fixture file (JSON)').setInputFiles(bad);
    await page.getByRole('button', { name: 'Load fixture' }).click();
    const refused = page.locator('p.error', { hasText: 'bad.json was not loaded' });
    await refused.waitFor();
    assert.match(await refused.innerText(), 'body.projects.0');
    assert.is((await control('GET', `/_mock/projects/${P}`)).status, 200, 'a refused fixture changes nothing');

    await page.getByLabel('Fixture file (JSON)').setInputFiles(join(ROOT, 'fixtures/demo.json'));
    await page.getByRole('button', { name: 'Load fixture' }).click();
    const loaded = page.getByRole('status').filter({ hasText: 'Loaded demo.json' });
    await loaded.waitFor();
    assert.match(await loaded.innerText(), '5 projects');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await section('Requests');
  assert.is(await page.locator('table.journal tbody tr').count(), 0, 'the journal view was emptied with the journal');
});

test('keyboard: real buttons in order, labelled controls, a visible focus ring', async () => {
  // A fresh load (the token stays in this tab's sessionStorage): focus starts at the top of the document.
  await page.goto('about:blank');
  await page.goto(`${cli.url}/_mock/ui#requests`);
  await page.getByRole('heading', { name: 'Requests' }).waitFor();
  const order: string[] = [];
  for (let i = 0; i < 7; i++) {
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent?.trim()}`));
  }
  assert.equal(order.slice(0, 7), [
    'BUTTON Requests',
    'BUTTON State',
    'BUTTON Clock & simulation',
    'BUTTON Faults',
    'BUTTON Coverage',
    'BUTTON Client report',
    'BUTTON Reset & fixtures',
  ]);
  // Back to "Faults" and activate it with the keyboard.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  assert.is(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Faults');
  const ring = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  assert.is.not(ring, 'none', 'the focused button shows an outline');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Faults' }).waitFor();
  assert.is(await page.evaluate(() => location.hash), '#faults');

  for (const label of ['Requests', 'State', 'Clock & simulation', 'Faults', 'Coverage', 'Client report', 'Reset & fixtures']) {
    await section(label);
    await page.waitForTimeout(300);
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('main .section:not([hidden]) input, main .section:not([hidden]) select, main .section:not([hidden]) textarea')]
        .filter((el: any) => el.labels?.length === 0 && !el.getAttribute('aria-label'))
        .map((el: any) => el.outerHTML.slice(0, 80)),
    );
    assert.equal(unlabelled, [], `${label}: every control has a label`);
  }
});

test('a narrow window (375 px): no sideways page scroll in any section', async () => {
  await page.setViewportSize({ width: 375, height: 800 });
  for (const label of ['Requests', 'State', 'Clock & simulation', 'Faults', 'Coverage', 'Client report', 'Reset & fixtures']) {
    await section(label);
    await page.waitForTimeout(300);
    const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    assert.ok(scroll <= width, `${label}: the page is ${scroll} px wide in a ${width} px window`);
    if (label === 'State' || label === 'Clock & simulation')
      await page.screenshot({ path: join(OUT, `inspector-narrow-${label === 'State' ? 'state' : 'clock'}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('no page error, and no request left the server', () => {
  assert.equal(pageErrors, []);
  assert.equal(external, []);
  assert.ok(urls.length > 20, `${urls.length} requests`);
});

test.run();
