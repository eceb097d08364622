// The Playwright recipe (examples/playwright-sandbox.ts) run as Playwright runs a worker fixture: four workers at once
// against one built CLI server, each set up, used by a page in headless Chromium (Debian's, through playwright-core) at
// the worker's `{id}.localhost` base URL, and torn down. Each worker sees only its own clock, writes and journal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chromium, type Browser } from 'playwright-core';
import { createClient, type MockClient } from 'project-runtime-mock/client';
import { sandboxFixtures, type WorkerSandbox } from '../../examples/playwright-sandbox.js';
import { CHROMIUM, CHROMIUM_ARGS, needsChromium } from '../helpers/needs.js';
import { startCli, type RunningCli } from '../helpers/cli.js';
import { DEMO } from '../helpers/demo.js';

needsChromium();

const WORKERS = 4;
const P = DEMO.projects.support;
const RUN_PATH = `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`;
let cli: RunningCli;
let browser: Browser;
let root: MockClient;

test.before(async () => {
  cli = await startCli(['--memory', '--port', '0', '--simulation', 'off'], 30_000);
  root = createClient({ baseUrl: cli.url, token: DEMO.tokens.owner });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
});
test.after(async () => {
  await browser?.close();
  await cli?.stop();
});

/** What one worker's test saw. */
interface Seen {
  sandbox: WorkerSandbox;
  clockShown: string;
  statusInPage: string;
  statusByPrefix: string | undefined;
  journal: string[];
}

/** One worker's test: the page is the web app under test, given only the fixture's base URL. Even workers cancel the run. */
async function workerTest(sandbox: WorkerSandbox, i: number): Promise<Seen> {
  const context = await browser.newContext({ baseURL: sandbox.baseURL });
  try {
    const page = await context.newPage();
    await sandbox.mock.control.setClock(`2030-0${i + 1}-01T00:00:00Z`);
    await page.goto('/_mock/ui');
    const clockShown = `2030-0${i + 1}-01 00:00:00 UTC`;
    await page.locator('.clock strong', { hasText: clockShown }).waitFor({ timeout: 20_000 });
    const statusInPage = await page.evaluate(
      async ([path, token, cancel]) => {
        const headers = { Authorization: `Bearer ${token}` };
        if (cancel) await fetch(`${path}/cancel`, { method: 'POST', headers });
        return ((await (await fetch(path, { headers })).json()) as { status: string }).status;
      },
      [RUN_PATH, DEMO.tokens.owner, i % 2 === 0] as const,
    );
    const statusByPrefix = (await createClient({ baseUrl: sandbox.prefixURL, token: DEMO.tokens.owner }).getRun(P, DEMO.runs.waitingApproval)).data?.status;
    const journal = (await sandbox.mock.control.requests({ path: '/api/v3/**' })).map((e) => `${e.operation} ${e.status}`);
    return { sandbox, clockShown: (await page.locator('.clock strong').innerText()).trim(), statusInPage, statusByPrefix, journal };
  } finally {
    await context.close();
  }
}

test('four Playwright-style workers, one sandbox each: the page at {id}.localhost shows its own clock, writes and journal only', async () => {
  const {
    sandbox: [fixture, options],
  } = sandboxFixtures({ baseUrl: cli.url, token: DEMO.tokens.owner });
  assert.equal(options, { scope: 'worker' });
  const live: string[][] = [];
  const results = await Promise.all(
    Array.from({ length: WORKERS }, async (_, workerIndex) => {
      let seen: Seen | undefined;
      await fixture(
        {},
        async (sandbox) => {
          live.push((await root.control.sandboxes()).items.map((s) => s.id));
          seen = await workerTest(sandbox, workerIndex);
        },
        { workerIndex },
      );
      return seen!;
    }),
  );
  const ids = results.map((r) => r.sandbox.id);
  assert.is(new Set(ids).size, WORKERS, 'one sandbox per worker');
  results.forEach((r, i) => {
    const port = new URL(cli.url).port;
    assert.is(r.sandbox.baseURL, `http://${r.sandbox.id}.localhost:${port}`);
    assert.is(r.sandbox.prefixURL, `${cli.url}/sandboxes/${r.sandbox.id}`);
    assert.is(r.clockShown, `2030-0${i + 1}-01 00:00:00 UTC`, `worker ${i}'s inspector shows its own clock`);
    const expected = i % 2 === 0 ? 'cancelled' : 'waiting_approval';
    assert.is(r.statusInPage, expected, `worker ${i} in the page`);
    assert.is(r.statusByPrefix, expected, `worker ${i} by the path prefix`);
    assert.equal(r.journal, i % 2 === 0 ? ['cancelRun 200', 'getRun 200', 'getRun 200'] : ['getRun 200', 'getRun 200'], `worker ${i}'s journal`);
  });
  // While in use each worker's sandbox was live; after the teardowns none is, and the default mock saw none of it.
  for (const [i, during] of live.entries()) assert.ok(during.length >= 1 && during.some((id) => ids.includes(id)), `list ${i}: ${during}`);
  assert.equal((await root.control.sandboxes()).items, []);
  assert.is((await root.getRun(P, DEMO.runs.waitingApproval)).data?.status, 'waiting_approval');
  assert.equal(
    (await root.control.requests({ path: '/api/v3/**' })).map((e) => e.operation),
    ['getRun'],
  );
});

test('a worker whose tests fail still drops its sandbox', async () => {
  const {
    sandbox: [fixture],
  } = sandboxFixtures({ baseUrl: cli.url, token: DEMO.tokens.owner });
  let id = '';
  const failed = await fixture(
    {},
    async (sandbox) => {
      id = sandbox.id;
      assert.is((await root.control.sandbox(id)).name, 'playwright-worker-7');
      throw new Error('a failing test');
    },
    { workerIndex: 7 },
  ).catch((e: Error) => e.message);
  assert.is(failed, 'a failing test');
  assert.ok(id.length > 0);
  const gone = await root.control.sandbox(id).catch((e: { status: number }) => e.status);
  assert.is(gone, 404);
});

test.run();
