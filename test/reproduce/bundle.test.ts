// Repro bundles: GET /_mock/bundle holds the whole session; a mock restored from it answers the next requests byte for byte as the original.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';

import { DEMO } from '../helpers/demo.js';
import { mixedRequests, type MixedRequest } from '../helpers/mixed-traffic.js';
import { jcs } from '../helpers/jcs.js';
import { CLI, startCli } from '../helpers/cli.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshMock } from '../helpers/app.js';
import { bearer } from '../helpers/demo.js';
import { SEAL_KEY } from '../helpers/replay-run.js';

const P = DEMO.projects.support;

async function send(mock: MockApp, r: MixedRequest): Promise<{ status: number; type: string | null; retry: string | null; text: string }> {
  const init: RequestInit = { method: r.method, headers: { ...r.headers, ...(r.body !== undefined ? { 'Content-Type': 'application/json' } : {}) } };
  if (r.body !== undefined) init.body = JSON.stringify(r.body);
  const res = await mock.fetch(r.path, init);
  return { status: res.status, type: res.headers.get('content-type'), retry: res.headers.get('retry-after'), text: await res.text() };
}

/** A seeded demo mock with a session behind it: tokens exchanged, runs retried, a fault half used, the simulation on. */
async function seededSession(): Promise<{ mock: MockApp; refresh: string }> {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'fork-1', sealKey: SEAL_KEY, simulation: { mode: 'auto' } });
  const token = await mock.fetch('/api/v3/auth/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ grant_type: 'authorization_code', code: DEMO.authorizationCode, code_verifier: DEMO.pkceVerifier }),
  });
  const refresh = ((await token.json()) as { refresh_token: string }).refresh_token;
  mock.control.addFault({ method: 'GET', path: `/api/v3/projects/${P}/jobs`, status: 503, body: { detail: 'injected' }, times: 6 });
  for (const r of mixedRequests(30, 'none')) await send(mock, r);
  return { mock, refresh };
}

/** A bundle without what real time decides (each request's duration), keys in canonical order (a restore stores records in schema order). */
/** The fork stores the simulation's mode and retention that the original took from its createApp defaults. */
const noMode = (d: { simulation: { mode?: string; retention_days?: number }[] }) => ({
  ...d,
  simulation: d.simulation.map(({ mode: _m, retention_days: _r, ...r }) => r),
});
const stateOf = (mock: MockApp) => jcs(noMode(mock.store.toData()));
const comparable = (bundle: Record<string, unknown>) => jcs(JSON.parse(JSON.stringify(bundle, (k, v) => (k === 'duration_ms' ? 0 : v))));

test('bundle: a fork of a seeded mock answers the same 200 mixed requests byte for byte', async () => {
  const { mock: original, refresh } = await seededSession();
  const bundle = await original.control.exportBundle();
  const fork = await createApp({ storage: 'memory', bundle, sealKey: SEAL_KEY });
  assert.is(stateOf(fork), stateOf(original));
  assert.is(comparable(await fork.control.exportBundle()), comparable(bundle), 'the restored mock writes the same bundle');
  const requests = mixedRequests(200, refresh);
  const statuses = new Set<number>();
  for (const [i, r] of requests.entries()) {
    const [a, b] = [await send(original, r), await send(fork, r)];
    assert.equal(b, a, `request ${i}: ${r.method} ${r.path}`);
    statuses.add(a.status);
  }
  // The mix exercised what must repeat: minted ids (201), tokens, refusals, the fault's remaining uses (503).
  for (const s of [200, 201, 400, 401, 404, 409, 503]) assert.ok(statuses.has(s), `status ${s} in the mix`);
  assert.is(stateOf(fork), stateOf(original));
  assert.equal(fork.control.faults(), original.control.faults());
  assert.equal(fork.control.simulation(), original.control.simulation());
});

test('bundle: the retention in force travels with it, whatever the restoring mock defaults to', async () => {
  const settingsOf = (b: Record<string, unknown>) => (b.state as { simulation: { id: string; mode?: string; retention_days?: number }[] }).simulation[0];
  // A createApp default (3 days), never stored by the original: the bundle writes it, and a mock keeping 9 by default keeps 3.
  const kept3 = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'keep-3', sealKey: SEAL_KEY, simulation: { retentionDays: 3 } });
  const b3 = await kept3.control.exportBundle();
  assert.equal(settingsOf(b3), { ...settingsOf(b3), id: 'settings', mode: 'off', retention_days: 3 });
  const fork3 = await createApp({ storage: 'memory', bundle: b3, sealKey: SEAL_KEY, simulation: { retentionDays: 9 } });
  assert.is(fork3.control.simulation().retention_days, 3);
  // createApp keeps everything by default (0): restored where 7 is the default (the CLI's living demo), it still keeps everything.
  const keptAll = await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'keep-all', sealKey: SEAL_KEY });
  const b0 = await keptAll.control.exportBundle();
  assert.is(settingsOf(b0).retention_days, 0);
  const fork0 = await createApp({ storage: 'memory', bundle: b0, sealKey: SEAL_KEY, simulation: { retentionDays: 7 } });
  assert.is(fork0.control.simulation().retention_days, 0);
  // One set over the control surface is stored already, and stays as it was.
  await keptAll.control.setSimulation({ retention_days: 12 });
  const b12 = await keptAll.control.exportBundle();
  assert.is(settingsOf(b12).retention_days, 12);
  const fork12 = await createApp({ storage: 'memory', bundle: b12, sealKey: SEAL_KEY, simulation: { retentionDays: 7 } });
  assert.is(fork12.control.simulation().retention_days, 12);
  for (const m of [kept3, fork3, keptAll, fork0, fork12]) await m.close();
});

test('bundle: holds the format, seed, generator positions, faults with remaining counts, journal and both states, secrets sealed', async () => {
  const { mock } = await seededSession();
  const b = await mock.control.exportBundle();
  assert.is(b.format, 'project-runtime-mock/bundle@1');
  assert.is(b.seed, 'fork-1');
  const gens = b.generators as { ids: number; tokens: number };
  assert.ok(gens.ids > 0 && gens.ids % 16 === 0, `ids drawn: ${gens.ids}`);
  assert.ok(gens.tokens > 0);
  const faults = b.faults as { next_id: number; faults: { remaining: number; hits: number }[] };
  assert.is(faults.next_id, 2);
  assert.is(faults.faults[0].remaining + faults.faults[0].hits, 6);
  const journal = b.journal as { next_id: number; left: number; entries: { id: number; request: { headers: Record<string, unknown> } }[] };
  // The code exchange and the v3 part of the mix (control requests are not journaled).
  const v3 = 1 + mixedRequests(30, 'none').filter((r) => r.path.startsWith('/api/')).length;
  assert.is(journal.entries.length, v3);
  assert.equal([journal.entries[0].id, journal.next_id, journal.left], [1, v3 + 1, 0]);
  const text = JSON.stringify(b);
  for (const secret of [DEMO.adminKey, DEMO.brokerSecret, DEMO.chatSecret, DEMO.pkceVerifier])
    assert.not.ok(text.includes(secret), `${secret} is not in the bundle`);
  assert.ok(text.includes('"$sealed"'));
  const state = b.state as { clock: unknown; simulation: unknown[] };
  assert.equal(state.clock, mock.store.clock);
  assert.ok(Array.isArray(state.simulation));
  assert.equal((b.reset_state as { runs: unknown[] }).runs.length, (demoFixture() as { runs: unknown[] }).runs.length);
});
test('bundle: GET then PUT over HTTP restores the session (state, faults, journal) after it moved on', async () => {
  const { mock, http } = await freshMock({ seed: 3 });
  await http.post(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`).set(bearer(DEMO.tokens.owner)).send({});
  await http.post('/_mock/faults').send({ method: 'GET', path: '/api/**', status: 418, times: 2 });
  const got = await http.get('/_mock/bundle');
  assert.is(got.status, 200);
  assert.match(got.headers['content-type'], 'application/json');
  const before = { state: stateOf(mock), faults: mock.control.faults(), journal: mock.control.requests() };
  await http.post('/_mock/reset');
  await http.get(`/api/v3/projects/${P}/runs`).set(bearer(DEMO.tokens.owner));
  const put = await http.put('/_mock/bundle').send(got.body);
  assert.is(put.status, 200);
  assert.is(put.body.restored, true);
  assert.is(put.body.counts.runs, mock.store.count('runs'));
  assert.equal({ state: stateOf(mock), faults: mock.control.faults(), journal: mock.control.requests() }, before);
  // The journal goes on numbering where the bundle's left off.
  await http.get(`/api/v3/projects/${P}/runs`).set(bearer(DEMO.tokens.owner));
  assert.is(mock.control.requests().at(-1)!.id, before.journal.at(-1)!.id + 1);
});

/** Each bad bundle: its status-422 loc, and the mock unchanged. */
test('bundle: a wrong format, version or seal, an unknown key or a bad part is 422 at its loc, and nothing changes', async () => {
  const { mock, http } = await freshMock({ seed: 3 });
  await http.get(`/api/v3/projects/${P}/runs`).set(bearer(DEMO.tokens.owner));
  const good = (await http.get('/_mock/bundle')).body;
  const other = await (await createApp({ storage: 'memory', fixtures: demoFixture(), seed: 4 })).control.exportBundle();
  const cases: [unknown, (string | number)[]][] = [
    [{ ...good, format: 'har' }, ['body', 'format']],
    [{ ...good, format: 'project-runtime-mock/bundle@2' }, ['body', 'format']],
    [{ ...good, seal: other.seal }, ['body', 'seal']],
    [other, ['body', 'seal']],
    [{ ...good, extra: 1 }, ['body', 'extra']],
    [{ ...good, generators: { ids: -1, tokens: 0 } }, ['body', 'generators', 'ids']],
    [{ ...good, state: { ...good.state, runs: [{ id: 'x' }] } }, ['body', 'state', 'runs', 0, 'project_id']],
    [{ ...good, reset_state: [] }, ['body', 'reset_state']],
    [
      { ...good, faults: { next_id: 1, faults: [{ id: 'flt_1', method: 'GET', path: '/x', status: 500, remaining: 1, hits: 0 }] } },
      ['body', 'faults', 'faults', 0, 'id'],
    ],
    [
      { ...good, journal: { ...good.journal, entries: [good.journal.entries[0], { ...good.journal.entries[0], id: 9 }] } },
      ['body', 'journal', 'entries', 1, 'id'],
    ],
    [
      { ...good, state: { ...good.state, settings: { ...good.state.settings, admin_key: { $sealed: 'v1.AAAA' } } } },
      ['body', 'state', 'settings', 'admin_key'],
    ],
  ];
  const before = { state: stateOf(mock), faults: mock.control.faults(), journal: JSON.stringify(mock.control.requests()) };
  for (const [body, loc] of cases) {
    const res = await http.put('/_mock/bundle').send(body as object);
    assert.is(res.status, 422, JSON.stringify(loc));
    assert.ok(
      res.body.detail.some((i: { loc: unknown[] }) => JSON.stringify(i.loc) === JSON.stringify(loc)),
      `${JSON.stringify(loc)} in ${JSON.stringify(res.body.detail.map((i: { loc: unknown }) => i.loc))}`,
    );
  }
  assert.equal({ state: stateOf(mock), faults: mock.control.faults(), journal: JSON.stringify(mock.control.requests()) }, before);
});

test('bundle: createApp({ bundle }) refuses a bad bundle with its items', async () => {
  try {
    await createApp({ storage: 'memory', bundle: { format: 'project-runtime-mock/bundle@9' } });
    assert.unreachable('a bad bundle starts nothing');
  } catch (err) {
    assert.equal((err as { items: { loc: unknown[] }[] }).items[0].loc, ['body', 'format']);
  }
});

test('bundle: the CLI starts from --bundle FILE; a bad bundle file is one line naming the file and the loc, exit 1', async () => {
  const { mock } = await seededSession();
  const dir = mkdtempSync(join(tmpdir(), 'bundle-'));
  const file = join(dir, 'session.json');
  writeFileSync(file, JSON.stringify(await mock.control.exportBundle()));
  const cli = await startCli(['--memory', '--port', '0', '--seal-key', SEAL_KEY, '--bundle', file]);
  try {
    const state = (await (await fetch(`${cli.url}/_mock/state`)).json()) as { simulation: { mode?: string }[] };
    assert.is(jcs(noMode(state)), jcs(noMode(mock.control.exportState({ sealed: true }) as never)));
    const journal = (await (await fetch(`${cli.url}/_mock/requests?summary=true`)).json()) as { items: { id: number }[] };
    assert.equal(
      journal.items.map((e) => e.id),
      mock.control.requests({ summary: true }).map((e) => e.id),
    );
    assert.equal(((await (await fetch(`${cli.url}/_mock/faults`)).json()) as { items: unknown }).items, mock.control.faults());
  } finally {
    await cli.stop();
  }
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ ...(await mock.control.exportBundle()), format: 'project-runtime-mock/bundle@2' }));
  const run = spawnSync(process.execPath, [CLI, '--memory', '--port', '0', '--bundle', bad], { encoding: 'utf8' });
  assert.is(run.status, 1);
  assert.is(run.stderr.trim().split('\n').length, 1);
  assert.match(run.stderr, `bundle ${bad}: format: Value error, Bundle version 2 is not supported`);
  rmSync(dir, { recursive: true, force: true });
});

test.run();
