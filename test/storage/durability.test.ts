// Durability of the JSON-file adapter: a change answered 200 survives a SIGKILL right after the response (runs the BUILT CLI: npm run build first).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO } from '../helpers/demo.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');
const P = DEMO.projects.support;
// Response bodies are read loosely here; the suites under test check their shapes.
const json = async (res: Response): Promise<any> => res.json();
const HEADERS = { Authorization: `Bearer ${DEMO.tokens.operator}`, 'Content-Type': 'application/json' };

interface Started {
  child: ChildProcess;
  base: string;
  exited: Promise<void>;
}

/** Starts the CLI on a data file and resolves once it prints its address. */
function start(dataFile: string, ...extra: string[]): Promise<Started> {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--data', dataFile, '--fixtures', join(ROOT, 'fixtures', 'demo.json'), ...extra], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`CLI did not start: ${out}${err}`)), 15_000);
    child.stderr!.on('data', (c) => (err += c));
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1], exited });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited with ${code}: ${err}`));
    });
  });
}

/** SIGKILL: no shutdown hook runs, so only what was persisted before the response can survive. */
async function killHard(s: Started): Promise<void> {
  s.child.kill('SIGKILL');
  await s.exited;
}

function withDataFile(fn: (file: string) => Promise<void>) {
  return async () => {
    assert.ok(existsSync(CLI), 'dist/cli.js is missing: run npm run build first');
    const dir = mkdtempSync(join(tmpdir(), 'prm-durability-'));
    try {
      await fn(join(dir, 'db.json'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test(
  'durability: a cancel answered 200 survives kill -9 right after the response',
  withDataFile(async (file) => {
    const first = await start(file);
    let res: Response;
    try {
      res = await fetch(`${first.base}/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ reason: 'durable' }),
      });
    } finally {
      await killHard(first);
    }
    assert.is(res.status, 200);
    const second = await start(file);
    try {
      const run = await json(await fetch(`${second.base}/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`, { headers: HEADERS }));
      assert.is(run.status, 'cancelled');
      assert.is(run.result.cancel_reason, 'durable');
      const approval = await json(await fetch(`${second.base}/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingWaiting}`, { headers: HEADERS }));
      assert.is(approval.status, 'cancelled');
    } finally {
      await killHard(second);
    }
  }),
);

test(
  'durability: a deny and a budget PUT answered 200 survive kill -9; the data file is loaded as is',
  withDataFile(async (file) => {
    const first = await start(file);
    let deny: Response;
    let budget: Response;
    try {
      deny = await fetch(`${first.base}/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingOther}/deny`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ reason: 'no' }),
      });
      budget = await fetch(`${first.base}/api/v3/projects/${P}/budget`, { method: 'PUT', headers: HEADERS, body: JSON.stringify({ user_daily_usd: 2 }) });
    } finally {
      await killHard(first);
    }
    assert.is(deny.status, 200);
    assert.is(budget.status, 200);
    const second = await start(file);
    try {
      const approval = await json(await fetch(`${second.base}/api/v3/projects/${P}/approvals/${DEMO.approvals.pendingOther}`, { headers: HEADERS }));
      assert.is(approval.status, 'denied');
      assert.is(approval.decision_reason, 'no');
      // The epoch proves the budget write itself was kept: a second PUT continues from it.
      const again = await json(await fetch(`${second.base}/api/v3/projects/${P}/budget`, { method: 'PUT', headers: HEADERS, body: JSON.stringify({}) }));
      assert.is(again.runtime_config_epoch, 9);
      assert.is(again.limits.user_daily_usd, 2);
    } finally {
      await killHard(second);
    }
  }),
);

test(
  'durability: a state import and a reset answered 200 survive kill -9 (whole states stored, not only applied)',
  withDataFile(async (file) => {
    // One seal key for the three processes: the exported state's sealed values open in the one that imports it.
    const key = ['--seal-key', 'durability-seal-key-of-this-test'];
    const budget = (s: Started, body: unknown) =>
      fetch(`${s.base}/api/v3/projects/${P}/budget`, { method: 'PUT', headers: HEADERS, body: JSON.stringify(body) });
    // An empty PUT changes no limit: it answers the stored ones.
    const limit = async (s: Started) => (await json(await budget(s, {}))).limits.project_daily_usd as number;
    const control = (s: Started, method: string, path: string, body: string) =>
      fetch(`${s.base}${path}`, { method, headers: { 'Content-Type': 'application/json' }, body });
    const first = await start(file, ...key);
    let fixtureLimit: number;
    try {
      fixtureLimit = await limit(first);
      assert.is((await budget(first, { project_daily_usd: fixtureLimit + 123 })).status, 200);
      // The runs in reverse order: no change set turns one order into the other (a record would move), so the import,
      // and the reset back to the fixture's order after it, are each stored as a whole state.
      const state = await json(await fetch(`${first.base}/_mock/state`));
      assert.ok(state.runs.length > 1);
      state.runs.reverse();
      const imported = await control(first, 'PUT', '/_mock/state', JSON.stringify(state));
      assert.is(imported.status, 200, await imported.clone().text());
    } finally {
      await killHard(first);
    }
    const second = await start(file, ...key);
    try {
      assert.is(await limit(second), fixtureLimit + 123, 'the import was stored before its answer');
      assert.is((await control(second, 'POST', '/_mock/reset', '{}')).status, 200);
      assert.is(await limit(second), fixtureLimit);
    } finally {
      await killHard(second);
    }
    const third = await start(file, ...key);
    try {
      assert.is(await limit(third), fixtureLimit, 'the reset was stored before its answer');
    } finally {
      await killHard(third);
    }
  }),
);

test.run();
