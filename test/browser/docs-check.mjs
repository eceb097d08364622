// Loads /docs of the built server in headless Chromium (Debian's, via playwright-core) and checks that
// Swagger UI renders the 20 v3 operations from /openapi.json, and that its Authorize dialog offers every credential
// (the server runs with a control token, so the control token is one of them). Run with `npm run check:docs` after a build.
// Exits non-zero on failure. The screenshot goes to test/browser/.output/ (git-ignored).
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outDir = join(root, 'test/browser/.output');
const screenshot = join(outDir, 'docs.png');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const V3_OPERATIONS = [
  'exchangeToken',
  'getConnection',
  'diffRelease',
  'cancelRun',
  'getRun',
  'retryRun',
  'setBudget',
  'listUsers',
  'planDesiredState',
  'listReleases',
  'denyApproval',
  'deleteProject',
  'transferProject',
  'listJobs',
  'listApprovals',
  'chatWebhook',
  'getApproval',
  'getUser',
  'brokerWebhook',
  'deleteUser',
];

/** The security schemes the Authorize dialog must offer. */
const SCHEMES = ['bearerAuth', 'adminKey', 'chatSecret', 'brokerSignature', 'controlToken'];

/** Starts `node dist/cli.js --memory --port 0 --control-token ...` and resolves with its base URL once it prints `listening on`. */
function startServer() {
  const child = spawn(process.execPath, ['dist/cli.js', '--memory', '--port', '0', '--control-token', 'docs-check-token'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 15_000);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    });
  });
}

async function main() {
  const { child, url } = await startServer();
  const profile = mkdtempSync(join(tmpdir(), 'docs-check-chromium-'));
  let context;
  try {
    // A fresh profile directory (playwright passes it as --user-data-dir).
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      viewport: { width: 1280, height: 2400 },
      headless: true,
      // A closed network: no QUIC, no background fetches, no component or sync traffic, no first-run UI.
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
    const page = context.pages()[0] ?? (await context.newPage());
    const external = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(url) && !req.url().startsWith('data:')) external.push(req.url());
    });
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${url}/docs`, { waitUntil: 'load' });
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    await page.waitForFunction((n) => document.querySelectorAll('.opblock').length >= n, V3_OPERATIONS.length, { timeout: 30_000 });
    // displayOperationId shows each operationId in its summary line.
    const shown = await page.$$eval('.opblock .opblock-summary-operation-id', (els) => els.map((e) => e.textContent?.trim() ?? ''));
    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: false });

    // The Authorize dialog lists one block per security scheme, headed by its name.
    await page.click('.auth-wrapper .authorize');
    await page.waitForSelector('.auth-container', { timeout: 10_000 });
    const offered = await page.$$eval('.auth-container h4', (els) => els.map((e) => (e.textContent ?? '').trim().split(/\s/)[0]));
    await page.screenshot({ path: join(outDir, 'authorize.png'), fullPage: false });
    const notOffered = SCHEMES.filter((s) => !offered.includes(s));

    const missing = V3_OPERATIONS.filter((id) => !shown.includes(id));
    const problems = [];
    if (missing.length) problems.push(`operations not rendered: ${missing.join(', ')}`);
    if (notOffered.length) problems.push(`Authorize does not offer: ${notOffered.join(', ')} (offered: ${offered.join(', ')})`);
    if (errors.length) problems.push(`page errors: ${errors.join('; ')}`);
    if (external.length) problems.push(`requests left the server: ${external.join(', ')}`);
    console.log(
      `docs-check: ${shown.length} operations rendered (${V3_OPERATIONS.length - missing.length}/20 v3 operations found); Authorize offers ${offered.join(', ')}; screenshot ${screenshot}`,
    );
    if (problems.length) {
      console.error(`docs-check FAILED:\n  ${problems.join('\n  ')}`);
      process.exitCode = 1;
    } else {
      console.log('docs-check: ok');
    }
  } finally {
    await context?.close();
    child.kill('SIGTERM');
    rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`docs-check FAILED: ${err.stack ?? err}`);
  process.exit(1);
});
