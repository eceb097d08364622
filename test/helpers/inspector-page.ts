// One inspector page session for the browser tests: the built CLI (demo, control token, simulation off) and headless
// Chromium on a closed network, with what the page did (errors, requests, journal polls) for the closing check.
import * as assert from 'uvu/assert';
import type { Test } from 'uvu';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './needs.js';
import { ROOT, startCli, type RunningCli } from './cli.js';
import { DEMO, bearer } from './demo.js';

export const TOKEN = 'inspector-test-token';
export const OUT = join(ROOT, 'test/browser/.output');

// Live bindings: a suite file reads `page` and `cli` after its before hook set them (suites run one after another).
export let cli: RunningCli;
export let page: Page;
let context: BrowserContext;
let profile: string;
const pageErrors: string[] = [];
const external: string[] = [];
export const urls: string[] = [];
/** When the page started each journal poll (ms, performance clock of this process). */
export const polls: number[] = [];

export const v3 = (path: string, init: RequestInit = {}) =>
  fetch(`${cli.url}${path}`, { ...init, headers: { ...bearer(DEMO.tokens.owner), ...(init.headers ?? {}) } });
export const control = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${cli.url}${path}`, {
    method,
    headers: { 'X-Mock-Control-Token': TOKEN, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
export const section = async (label: string) => {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: label, exact: true }).click();
};
export const shot = (name: string) => page.screenshot({ path: join(OUT, `inspector-${name}.png`), fullPage: false });

/** Opens the page and gives it the control token through its form. */
export async function signIn(): Promise<void> {
  await page.goto(`${cli.url}/_mock/ui`);
  const input = page.getByLabel('Control token');
  await input.waitFor();
  await input.fill(TOKEN);
  await page.getByRole('button', { name: 'Use token' }).click();
  await page.getByRole('heading', { name: 'Requests' }).waitFor();
  await input.waitFor({ state: 'detached' });
}

/**
 * Starts the CLI and the browser before the suite's tests (signed in when asked) and stops both after them. The CLI
 * runs with the simulation off unless `simulation` gives its flags (`--simulation auto --traffic 10`).
 */
export function inspectorSession(test: Test, options: { signedIn?: boolean; simulation?: string[]; viewport?: { width: number; height: number } } = {}): void {
  test.before(async () => {
    for (const list of [pageErrors, external, urls, polls]) list.length = 0;
    mkdirSync(OUT, { recursive: true });
    // Simulation off at start: the clock test sees expiry by time alone; the simulation test sets a mode from the page.
    cli = await startCli(['--memory', '--port', '0', '--control-token', TOKEN, ...(options.simulation ?? ['--simulation', 'off'])], 30_000);
    profile = mkdtempSync(join(tmpdir(), 'inspector-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: options.viewport ?? { width: 1280, height: 900 },
      args: CHROMIUM_ARGS,
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (err) => pageErrors.push(err.message));
    context.on('request', (req) => {
      const url = req.url();
      urls.push(url);
      if (!url.startsWith(`${cli.url}/`) && !url.startsWith('data:')) external.push(url);
      if (url.startsWith(`${cli.url}/_mock/requests?`)) polls.push(performance.now());
    });
    if (options.signedIn) await signIn();
  });

  test.after(async () => {
    await context?.close();
    await cli?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });
}

/** The closing check of a session: no page error, and no request left the server. */
export function assertNoStrayTraffic(): void {
  assert.equal(pageErrors, []);
  assert.equal(external, []);
  assert.ok(urls.length > 20, `${urls.length} requests`);
}
