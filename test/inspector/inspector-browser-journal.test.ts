// Drives the inspector page (GET /_mock/ui) in headless Chromium against the built CLI with the demo and a control token:
// the token form, the journal live, the State view, a fault from the form, the coverage table and the client report.
// Any page error or request that leaves the server fails it. Screenshots go to test/browser/.output/ (git-ignored).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { needsChromium } from '../helpers/needs.js';
import { DEMO } from '../helpers/demo.js';
import { assertNoStrayTraffic, cli, control, inspectorSession, page, polls, section, shot, signIn, TOKEN, urls, v3 } from '../helpers/inspector-page.js';

needsChromium();

// Browser globals, for the callbacks that page.evaluate runs in the page (this file is type-checked for Node).
declare const sessionStorage: any, document: any;
declare function getComputedStyle(el: unknown): any;

const P = DEMO.projects.support;
const RUN_PATH = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;

inspectorSession(test);

test('with a control token the page asks for it, keeps it in sessionStorage and sends it as a header, never in a URL', async () => {
  await signIn();
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

test('the State view opens on the first project in fixture order; the clock shows its offset in words; the simulation its mode, speed and traffic', async () => {
  // The demo fixture lists Support Desk first; newest first, the list starts with another project, so the order matters.
  const newest = (await control('GET', '/_mock/projects?limit=100')).body.items as { id: string; name: string }[];
  const stored = (await control('GET', '/_mock/projects?limit=100&order=stored')).body.items as { id: string; name: string }[];
  assert.equal(
    stored.map((p) => p.name),
    ['Support Desk', 'Sales Assistant', 'Empty Sandbox', 'Legacy Bot', 'Globex Helpdesk'],
  );
  assert.is.not(newest[0].id, P);
  await section('State');
  await page.locator(`.cards[data-project="${P}"]`).waitFor();
  assert.is(await page.getByLabel('Project', { exact: true }).inputValue(), P);
  assert.match(await page.locator('.cards h3').first().innerText(), 'Support Desk');

  await control('PUT', '/_mock/simulation', { clock: 'running', traffic: [{ binding_id: DEMO.connections.chatBinding, messages_per_hour: 10 }] });
  await section('Clock & simulation');
  const offset = page.locator('[data-offset-ms]');
  await offset.waitFor();
  const ms = Number(await offset.getAttribute('data-offset-ms'));
  const days = Math.floor(Math.abs(ms) / 86_400_000);
  assert.ok(days > 0, `the demo's clock is days away from real time (${ms} ms)`);
  // Two largest units; a zero hour part leaves the days alone (`-8 d` within the hour of the demo's time of day).
  const hours = Math.floor((Math.abs(ms) - days * 86_400_000) / 3_600_000);
  assert.is(await offset.innerText(), `${ms < 0 ? '-' : '+'}${days} d${hours > 0 ? ` ${hours} h` : ''}`);
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

test('faults: past the bound the form shows the 409 fault_limit as its error, and adds nothing', async () => {
  // One fault that fills the byte bound (1 MiB, counted as the fault's JSON) to the byte.
  const fill = { method: '*', path: '/api/v3/fill/**', status: 500, body: '' };
  fill.body = 'x'.repeat(1024 * 1024 - JSON.stringify(fill).length);
  assert.is((await control('POST', '/_mock/faults', fill)).status, 200);
  await section('Faults');
  const form = page.locator('form', { has: page.getByRole('heading', { name: 'Add a fault' }) });
  await form.getByLabel('Kind').selectOption('status');
  await form.getByLabel(/^Path/).fill('/api/v3/one-more/**');
  await form.getByLabel('Status').fill('503');
  await form.getByLabel(/^Body/).fill('');
  await form.getByRole('button', { name: 'Add fault' }).click();
  const alert = page.getByRole('status').filter({ hasText: 'A mock holds' });
  await alert.waitFor();
  assert.is((await alert.innerText()).trim(), 'A mock holds at most 1000 faults of 1048576 bytes in all; clear some first (DELETE /_mock/faults) (409)');
  assert.is((await control('GET', '/_mock/faults')).body.items.length, 1);
  assert.equal((await control('DELETE', '/_mock/faults')).body, { cleared: 1 });
});

test('the fault form reads whole at 1280 and at 800 px: every option of every list fits its box, and no field runs out of the form', async () => {
  await section('Faults');
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 900 });
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Add fault' }) });
    await form.waitFor();
    for (const kind of ['status', 'delay', 'rate_limit', 'transport']) {
      await form.getByLabel('Kind').selectOption(kind);
      const cut = await form.evaluate((f: any) => {
        const ctx = document.createElement('canvas').getContext('2d');
        const out: string[] = [];
        const box = f.getBoundingClientRect();
        for (const sel of f.querySelectorAll('select')) {
          const st = getComputedStyle(sel);
          ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
          // The text, the select's padding and its arrow (about 1.5em) must fit inside the box.
          const room = sel.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 1.5 * parseFloat(st.fontSize);
          for (const o of sel.options)
            if (ctx.measureText(o.text).width > room) out.push(`${sel.name}: ${o.text} (${Math.round(ctx.measureText(o.text).width)} > ${Math.round(room)})`);
        }
        for (const el of f.querySelectorAll('input, select, textarea, label, button'))
          if (el.getBoundingClientRect().right > box.right + 0.5) out.push(`${el.tagName} ${el.name || el.textContent} runs out`);
        return out;
      });
      assert.equal(cut, [], `${width} px, ${kind}`);
    }
    await shot(`fault-form-${width}`);
    await form.getByLabel('Kind').selectOption('status');
  }
  await page.setViewportSize({ width: 1280, height: 900 });
});

test("coverage: it opens on what to do next (the gate's gaps with their snippets), then a table per operation with what is missing highlighted", async () => {
  await section('Coverage');
  const next = (await control('GET', '/_mock/coverage/next')).body;
  await page.locator(`.next[data-gaps="${next.gaps.length}"]`).waitFor();
  assert.ok(next.gaps.length > 1 && next.gaps[0].what === 'threshold', JSON.stringify(next.gaps[0]));
  // Each gap as the gate names it, with the calls to paste; the first screen says what to do, not the raw lists.
  const shownGaps = await page
    .locator('ol.gaps > li')
    .evaluateAll((items) => items.map((li) => ({ what: li.getAttribute('data-gap'), text: (li as HTMLElement).innerText })));
  assert.equal(
    shownGaps.map((g) => g.what),
    next.gaps.map((g: { what: string }) => g.what),
  );
  for (const [i, g] of next.gaps.entries()) {
    assert.match(shownGaps[i].text, g.message);
    for (const c of g.calls) assert.match(shownGaps[i].text, c);
  }
  assert.not.ok(await page.locator('table.coverage').isVisible(), 'the raw table is folded');
  await shot('coverage-next');
  await page.getByText('The full report').click();
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
  // Every rule has its row, the two request slips after the seven client-behaviour rules.
  assert.equal(await page.locator('table.rules tbody tr th code').allInnerTexts(), [
    'refresh_token_reused',
    'code_reused',
    'retry_after_ignored',
    'expired_token_resent',
    'retried_final_error',
    'hot_polling',
    'unbounded_concurrency',
    'content_type_not_json',
    'bearer_prefix_missing',
  ]);
  await shot('client-report');
});

test('no page error, and no request left the server', () => {
  assertNoStrayTraffic();
});

test.run();
