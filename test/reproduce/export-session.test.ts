// The test export's rules: where a session begins, since, the 10,000-request bound, lost entries, cut bodies, no seed, shape-only fields, the query.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp, type CreateAppOptions, type MockApp } from '../../src/app.js';
import { demoFixture } from '../../src/fixtures.js';
import { DEMO, bearer } from '../helpers/demo.js';
import { constOf, stepsOf } from '../helpers/replay-run.js';

const P = DEMO.projects.support;
const owner = bearer(DEMO.tokens.owner);

const bundleOf = (text: string) =>
  constOf(text, 'BUNDLE') as {
    seed: string;
    journal: { next_id: number; entries: unknown[] };
    state: { runs: { id: string; status: string }[] };
    faults: { faults: unknown[] };
  };

const demo = (options: CreateAppOptions = {}) => createApp({ storage: 'memory', fixtures: demoFixture(), seed: 'session-1', ...options });
const get = (mock: MockApp, path: string) => mock.fetch(path, { headers: owner }).then((r) => r.text());

async function exportAnswer(mock: MockApp, query: string): Promise<{ status: number; type: string | null; body: unknown; text: string }> {
  const res = await mock.fetch(`/_mock/requests/export${query}`);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, type: res.headers.get('content-type'), body, text };
}

test('session: begins at start-up; a reset begins a new one from the state it restores', async () => {
  const mock = await demo();
  await get(mock, `/api/v3/projects/${P}/releases`);
  let steps = stepsOf(await mock.control.exportTest());
  assert.equal(
    steps.map((s) => s.id),
    [1],
  );
  const cancel = await mock.fetch(`/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}/cancel`, {
    method: 'POST',
    headers: { ...owner, 'Content-Type': 'application/json' },
    body: '{}',
  });
  assert.is(cancel.status, 200);
  await mock.control.reset();
  await get(mock, `/api/v3/projects/${P}/runs/${DEMO.runs.waitingApproval}`);
  const text = await mock.control.exportTest();
  steps = stepsOf(text);
  assert.equal(
    steps.map((s) => [s.id, s.status]),
    [[3, 200]],
  );
  assert.ok(text.startsWith('// Replays requests 3..3 (every request asserted)'));
  const b = bundleOf(text);
  assert.is(b.journal.next_id, 3, 'the replay numbers its requests as the session did');
  assert.equal(b.journal.entries, []);
  assert.is(
    b.state.runs.find((r) => r.id === DEMO.runs.waitingApproval)!.status,
    'waiting_approval',
    'the bundle holds the state at the reset, not at the export',
  );
  assert.is((steps[0].response as { status: string }).status, 'waiting_approval');
});

test('session: startSession() after setup keeps its control calls (a fault) in the bundle; later ones are not in it', async () => {
  const mock = await demo();
  mock.control.addFault({ method: 'GET', path: `/api/v3/projects/${P}/releases`, status: 503, times: 3 });
  await get(mock, `/api/v3/projects/${P}/releases`);
  mock.control.startSession();
  await get(mock, `/api/v3/projects/${P}/releases`);
  const text = await mock.control.exportTest();
  assert.equal(
    stepsOf(text).map((s) => [s.id, s.status]),
    [[2, 503]],
  );
  const faults = bundleOf(text).faults.faults as { remaining: number; hits: number }[];
  assert.equal([faults[0].remaining, faults[0].hits], [2, 1], 'the fault as it stood when the session began');
});

test('session: a state import, a snapshot restore and a fixture load each begin one', async () => {
  const mock = await demo();
  const begins: [string, () => Promise<unknown>][] = [
    ['importState', async () => mock.control.importState(mock.control.exportState())],
    ['restore', async () => mock.control.restore(mock.control.snapshot())],
    ['restoreSnapshot', async () => (mock.control.saveSnapshot('s'), mock.control.restoreSnapshot('s'))],
    ['loadFixtures', async () => mock.control.loadFixtures(demoFixture())],
    ['importBundle', async () => mock.control.importBundle(await mock.control.exportBundle())],
  ];
  for (const [name, begin] of begins) {
    await get(mock, `/api/v3/projects/${P}/releases`);
    await begin();
    const next = mock.control.journal.next;
    await get(mock, `/api/v3/projects/${P}/jobs`);
    assert.equal(
      stepsOf(await mock.control.exportTest()).map((s) => s.id),
      [next],
      name,
    );
  }
});

test('since: asserts from that request on and still replays the earlier ones; outside the session it is 422 at its loc', async () => {
  const mock = await demo();
  for (let i = 0; i < 4; i++) await get(mock, `/api/v3/projects/${P}/jobs?limit=${i + 1}`);
  const text = await mock.control.exportTest({ since: 3 });
  assert.equal(
    stepsOf(text).map((s) => [s.id, s.assert]),
    [
      [1, false],
      [2, false],
      [3, true],
      [4, true],
    ],
  );
  assert.ok(text.startsWith('// Replays requests 1..4 (requests 3..4 asserted, 1..2 replayed first)'));
  assert.equal(
    stepsOf(await mock.control.exportTest({ since: 4 })).map((s) => s.assert),
    [false, false, false, true],
  );
  assert.equal(
    stepsOf(await mock.control.exportTest({ since: 1 })).map((s) => s.assert),
    [true, true, true, true],
  );
  for (const since of [5, 99]) {
    const r = await exportAnswer(mock, `?since=${since}`);
    assert.is(r.status, 422);
    assert.equal(r.body, {
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'since'],
          msg: 'Value error, The session holds requests 1..4: since should be one of them',
          input: since,
          ctx: { error: {} },
        },
      ],
    });
  }
  await mock.control.reset();
  await get(mock, `/api/v3/projects/${P}/jobs`);
  assert.is((await exportAnswer(mock, '?since=4')).status, 422, 'a request of the previous session');
  assert.is((await exportAnswer(mock, '?since=5')).status, 200);
  await mock.control.reset();
  const r = await exportAnswer(mock, '?since=6');
  assert.is(r.status, 422);
  assert.match(JSON.stringify(r.body), 'The session holds no request yet (the next is 6)');
});

test('query: unknown keys and bad values are 422 with their loc; the answer is a JavaScript attachment', async () => {
  const mock = await demo();
  const bad = await exportAnswer(mock, '?format=jest&since=0&limit=3');
  assert.is(bad.status, 422);
  const items = (bad.body as { detail: { type: string; loc: unknown[] }[] }).detail;
  assert.equal(
    items.map((i) => [i.type, i.loc]),
    [
      ['enum', ['query', 'format']],
      ['greater_than_equal', ['query', 'since']],
      ['extra_forbidden', ['query', 'limit']],
    ],
  );
  const ok = await mock.fetch('/_mock/requests/export?format=vitest');
  assert.is(ok.status, 200);
  assert.is(ok.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.is(ok.headers.get('content-disposition'), 'attachment; filename="replay.vitest.test.mjs"');
  assert.match(await ok.text(), "from 'vitest';");
});

test('bound: 10,000 requests export; the 10,001st makes it 413 export_too_large with the count, and nothing changes', async () => {
  const mock = await demo({ journal: { entries: 10_500 } });
  for (let i = 0; i < 10_000; i++) await mock.inject({ method: 'GET', url: '/nowhere' });
  const text = await mock.control.exportTest();
  assert.is(stepsOf(text).length, 10_000);
  await mock.inject({ method: 'GET', url: '/nowhere' });
  const r = await exportAnswer(mock, '');
  assert.is(r.status, 413);
  assert.equal(r.body, {
    detail: {
      reason_code: 'export_too_large',
      message:
        'The session holds 10001 requests (1..10001); an exported test replays at most 10000: start a new session closer to the failure (POST /_mock/reset, or a state or snapshot restore) and export that.',
    },
  });
  assert.is(mock.control.journal.size, 10_001);
});

test('lost entries: a session some of whose requests left the journal is 409 session_not_replayable; a new session exports', async () => {
  const mock = await demo({ journal: { entries: 3 } });
  for (let i = 0; i < 3; i++) await get(mock, '/api/v3/nowhere');
  assert.is((await exportAnswer(mock, '')).status, 200, 'a full journal is not a lost one');
  await get(mock, '/api/v3/nowhere');
  const r = await exportAnswer(mock, '');
  assert.is(r.status, 409);
  const detail = (r.body as { detail: { reason_code: string; message: string } }).detail;
  assert.is(detail.reason_code, 'session_not_replayable');
  assert.ok(detail.message.startsWith("1 of the session's 4 requests (from 1) have left the journal"), detail.message);
  mock.control.clearRequests();
  assert.is((await exportAnswer(mock, '')).status, 409, 'clearing the journal loses the session');
  mock.control.startSession();
  await get(mock, '/api/v3/nowhere');
  assert.equal(
    stepsOf(await mock.control.exportTest()).map((s) => s.id),
    [5],
  );
});

test('cut body: a request body the journal cut cannot be sent again: 409 naming the request', async () => {
  const mock = await demo({ journal: { bodyBytes: 64 } });
  await mock.fetch(`/api/v3/projects/${P}/budget`, {
    method: 'PUT',
    headers: { ...owner, 'Content-Type': 'application/json' },
    body: JSON.stringify({ funding_mode: 'invoiced', project_monthly_usd: 1000, user_daily_usd: 3, project_daily_usd: 50, user_monthly_usd: 30 }),
  });
  const r = await exportAnswer(mock, '');
  assert.is(r.status, 409);
  assert.match((r.body as { detail: { message: string } }).detail.message, "Request 1's body was cut to the journal's body limit");
});

test('no seed: 409 session_not_replayable saying how to get one', async () => {
  const mock = await createApp({ storage: 'memory', fixtures: demoFixture() });
  await get(mock, `/api/v3/projects/${P}/releases`);
  const r = await exportAnswer(mock, '');
  assert.is(r.status, 409);
  assert.match((r.body as { detail: { message: string } }).detail.message, /^This mock has no seed: .* \(createApp\(\{ seed \}\) or --seed\)/);
});

test('shape only: none for a seeded mock whose clock stood still (steps carry their time); timestamps under a running clock; ids of a given generator', async () => {
  const frozen = await demo();
  await get(frozen, `/api/v3/projects/${P}/releases`);
  let text = await frozen.control.exportTest();
  assert.equal(constOf(text, 'SHAPE_ONLY'), []);
  assert.is(stepsOf(text)[0].at, DEMO.now);

  const { now: _now, ...unfrozen } = demoFixture() as Record<string, unknown>;
  const running = await createApp({ storage: 'memory', fixtures: unfrozen, seed: 'session-1' });
  await get(running, `/api/v3/projects/${P}/releases`);
  text = await running.control.exportTest();
  assert.equal(constOf(text, 'SHAPE_ONLY'), ['*_at', 'at', 'now', 'since', 'until']);
  assert.is(stepsOf(text)[0].at, undefined, 'a running clock is not put back');

  let n = 0;
  const ids = await demo({ ids: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
  await get(ids, `/api/v3/projects/${P}/releases`);
  assert.equal(constOf(await ids.control.exportTest(), 'SHAPE_ONLY'), ['id', '*_id']);
});

test('options: the file builds its mock with the auth mode, body limit and journal body limit of the session', async () => {
  const mock = await demo({ auth: 'off', bodyLimit: 4096, journal: { bodyBytes: 2048 } });
  assert.equal(constOf(await mock.control.exportTest(), 'OPTIONS'), { auth: 'off', bodyLimit: 4096, journal: { bodyBytes: 2048 } });
});

test.run();
