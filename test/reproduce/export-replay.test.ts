// Exported tests run on every storage, under a running clock (timestamps by shape), from `since`, and through the typed client.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, type CreateAppOptions, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { createClient } from '../../src/client/index.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { STORAGES, removeDirs } from '../helpers/storages.js';
import { SEAL_KEY, constOf, failing, replayDir, stepsOf } from '../helpers/replay-run.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);
const json = { 'Content-Type': 'application/json' };

const dir = replayDir();
test.after(() => {
  dir.remove();
  removeDirs();
});

/** Reads, a token exchange and a read with its token, a write that mints a run (201), a refusal (409), a missing run (404). */
async function smallSession(mock: MockApp): Promise<void> {
  const token = await mock.fetch('/api/v3/auth/token', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier }),
  });
  const access = ((await token.json()) as { access_token: string }).access_token;
  const retried = await mock.fetch(`/api/v3/projects/${P}/runs/${DEMO.runs.failedBackground}/retry`, {
    method: 'POST',
    headers: { ...bearer(access), ...json },
    body: '{}',
  });
  const run = ((await retried.json()) as { id: string }).id;
  await mock.fetch(`/api/v3/projects/${P}/runs/${run}`, { headers: owner });
  await mock.fetch(`/api/v3/projects/${P}/runs/${run}/retry`, { method: 'POST', headers: { ...owner, ...json }, body: '{}' });
  await mock.fetch(`/api/v3/projects/${P}/runs/00000000-0000-4000-8000-000000000000`, { headers: owner });
  await mock.fetch(`/api/v3/projects/${P}/releases`, { headers: owner });
}

const seeded = (options: CreateAppOptions) => createApp({ fixtures: demoFixture(), seed: 'replay-1', sealKey: SEAL_KEY, reset: true, ...options });

test('storages: the same seeded session exports the same steps on every storage, and each file passes', async () => {
  let memorySteps: string | undefined;
  for (const storage of STORAGES) {
    const mock = await seeded({ storage: storage.make() });
    try {
      await smallSession(mock);
      const text = await mock.control.exportTest();
      const steps = stepsOf(text);
      assert.equal(
        steps.map((s) => s.status),
        [200, 201, 200, 409, 404, 200],
        storage.name,
      );
      memorySteps ??= JSON.stringify(steps);
      assert.is(JSON.stringify(steps), memorySteps, `${storage.name}: the steps are the memory mock's`);
      const run = dir.run(`${storage.name}.test.mjs`, text);
      assert.is(run.code, 0, `${storage.name}: ${run.out.slice(-2000)}`);
      assert.match(run.out, /# pass 6\n/);
    } finally {
      await mock.close();
    }
  }
});

test('running clock: timestamps differ in the replay and compare by shape; without the shape-only list the same file fails on them', async () => {
  const { now: _now, ...fixture } = demoFixture() as Record<string, unknown>;
  const mock = await createApp({ storage: 'memory', fixtures: fixture, seed: 'replay-1', sealKey: SEAL_KEY });
  await smallSession(mock);
  const text = await mock.control.exportTest();
  assert.equal(constOf(text, 'SHAPE_ONLY'), ['*_at', 'at', 'now', 'since', 'until']);
  // The minted run's timestamps are those of this moment: the replay, run later, answers others.
  const minted = stepsOf(text).find((s) => s.status === 201)!.response as { created_at: string };
  assert.match(minted.created_at, /^\d{4}-\d\d-\d\dT/);
  const run = dir.run('running.test.mjs', text);
  assert.is(run.code, 0, run.out.slice(-2000));
  const strict = dir.run('running-strict.test.mjs', text.replace(/^const SHAPE_ONLY = .*;$/m, 'const SHAPE_ONLY = [];'));
  assert.is(strict.code, 1);
  const names = failing(strict.out);
  assert.ok(names.length > 0 && names.every((n) => /\((retryRun|getRun|exchangeToken)\)/.test(n)), names.join('\n'));
  assert.match(strict.out, /: body/);
});

test('since: the requests before it are replayed unasserted (the token they mint is used after), the rest asserted and passing', async () => {
  const mock = await seeded({ storage: 'memory' });
  await smallSession(mock);
  const text = await mock.control.exportTest({ since: 3 });
  assert.equal(
    stepsOf(text).map((s) => s.assert),
    [false, false, true, true, true, true],
  );
  const run = dir.run('since.test.mjs', text);
  assert.is(run.code, 0, run.out.slice(-2000));
  assert.match(run.out, /# pass 4\n/);
  // Without the replayed prefix the minted run does not exist: the asserted reads would fail.
  const cut = text.replace(/^ {2}\{"id":[12],.*\n/gm, '');
  assert.is(stepsOf(cut).length, 4);
  const broken = dir.run('since-cut.test.mjs', cut);
  assert.is(broken.code, 1);
  assert.ok(failing(broken.out).some((n) => n.startsWith('request 3: GET')));
});

test('sandbox: a seeded sandbox exports its own session (paths without the sandbox prefix, no X-Mock-Sandbox), and the file passes', async () => {
  const mock = await seeded({ storage: 'memory' });
  const created = await mock.fetch('/_mock/sandboxes', { method: 'POST', headers: json, body: JSON.stringify({ seed: 'sandbox-1' }) });
  const { id } = (await created.json()) as { id: string };
  await mock.fetch(`/sandboxes/${id}/api/v3/projects/${P}/releases`, { headers: owner });
  await mock.fetch(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`, { headers: { ...owner, 'X-Mock-Sandbox': id } });
  await mock.fetch(`/api/v3/projects/${P}/releases`, { headers: owner });
  const res = await mock.fetch(`/sandboxes/${id}/_mock/requests/export`);
  assert.is(res.status, 200);
  const text = await res.text();
  const steps = stepsOf(text);
  assert.equal(
    steps.map((s) => [s.id, s.name.split(' (')[0]]),
    [
      [1, `GET /api/v3/projects/${P}/releases`],
      [2, `GET /api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`],
    ],
  );
  assert.equal(Object.keys(steps[1].headers).sort(), ['authorization', 'user-agent']);
  assert.is((constOf(text, 'BUNDLE') as { seed: string }).seed, 'sandbox-1');
  const run = dir.run('sandbox.test.mjs', text);
  assert.is(run.code, 0, run.out.slice(-2000));
  assert.match(run.out, /# pass 2\n/);
});

test('hang: a request a hang fault held, given up by its client, is given up by the replay too (not waited out), and the next passes', async () => {
  const mock = await seeded({ storage: 'memory' });
  mock.control.addFault({ method: 'GET', path: `/api/v3/projects/${P}/releases`, transport: 'hang', times: 1 });
  mock.control.startSession();
  const gaveUp = await mock.fetch(`/api/v3/projects/${P}/releases`, { headers: owner, signal: AbortSignal.timeout(50) }).then(
    () => 'answered',
    (err: Error) => err.name,
  );
  assert.is(gaveUp, 'TimeoutError');
  while (mock.control.requests().length < 1) await new Promise((r) => setTimeout(r, 5));
  await mock.fetch(`/api/v3/projects/${P}/releases`, { headers: owner });
  const text = await mock.control.exportTest();
  assert.equal(
    stepsOf(text).map((s) => [s.status, (s as { hang?: boolean }).hang ?? false]),
    [
      [0, true],
      [200, false],
    ],
  );
  // Waited out, the fault would hold the first request for minutes: past the run's time limit.
  const run = dir.run('hang.test.mjs', text);
  assert.is(run.code, 0, run.out.slice(-2000));
  assert.match(run.out, /# pass 2\n/);
});

test('client: client.control.exportTest answers the file as text over HTTP, and a refusal as a ControlError', async () => {
  const mock = await seeded({ storage: 'memory' });
  await smallSession(mock);
  const client = createClient({ baseUrl: 'http://localhost', fetch: (r) => mock.fetch(r) });
  const text = await client.control.exportTest({ format: 'vitest', since: 2 });
  assert.is(text, await mock.control.exportTest({ format: 'vitest', since: 2 }));
  try {
    await client.control.exportTest({ since: 99 });
    assert.unreachable('since outside the session');
  } catch (err) {
    assert.is((err as { status?: number }).status, 422);
    assert.equal((err as { body: { detail: { loc: unknown[] }[] } }).body.detail[0].loc, ['query', 'since']);
  }
});

test.run();
