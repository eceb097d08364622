// Drives the inspector page (GET /_mock/ui) in headless Chromium against the built CLI with the demo, signed in with a
// control token: the clock expiring an approval, a simulation step, the README screenshot, reset and a fixture file,
// keyboard access and a narrow window. Any page error or request that leaves the server fails it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { needsChromium } from '../helpers/needs.js';
import { ROOT } from '../helpers/cli.js';
import { DEMO } from '../helpers/demo.js';
import { assertNoStrayTraffic, cli, control, inspectorSession, OUT, page, section, shot, v3 } from '../helpers/inspector-page.js';

needsChromium();

// Browser globals, for the callbacks that page.evaluate runs in the page (this file is type-checked for Node).
declare const document: any, window: any, location: any;
declare function getComputedStyle(el: unknown): any;

const P = DEMO.projects.support;

inspectorSession(test, { signedIn: true });

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
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent?.trim()}`));
  }
  assert.equal(order.slice(0, 10), [
    'BUTTON Requests',
    'BUTTON Timeline',
    'BUTTON State',
    'BUTTON Clock & simulation',
    'BUTTON Faults',
    'BUTTON Coverage',
    'BUTTON Client report',
    'BUTTON Drift',
    'BUTTON Metrics',
    'BUTTON Reset & fixtures',
  ]);
  // Back to "Faults" and activate it with the keyboard.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  assert.is(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Faults');
  const ring = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  assert.is.not(ring, 'none', 'the focused button shows an outline');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Faults' }).waitFor();
  assert.is(await page.evaluate(() => location.hash), '#faults');

  for (const label of ['Requests', 'State', 'Clock & simulation', 'Faults', 'Coverage', 'Client report', 'Drift', 'Metrics', 'Reset & fixtures']) {
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
  for (const label of ['Requests', 'State', 'Clock & simulation', 'Faults', 'Coverage', 'Client report', 'Drift', 'Metrics', 'Reset & fixtures']) {
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
  assertNoStrayTraffic();
});

test.run();
