// Whose each journal entry is: the simulation's own chat traffic (marked `simulated`, filtered, bounded as any entry,
// left out of verify and the client report), the principal its credentials name and the test its X-Test-Name header
// names (in summaries, and as filters); and GET /_mock/coverage/next, the coverage gate's gaps.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { simFixture } from '../helpers/simulation.js';
import { gate } from '../../src/control/coverage-gate.js';

const P = DEMO.projects.support;
const HOUR = 3_600_000;
const owner = { Authorization: `Bearer ${DEMO.tokens.owner}` };
const operator = { Authorization: `Bearer ${DEMO.tokens.operator}` };
type Json = Record<string, any>;

test('the simulation’s chat messages are journaled as the webhook requests they stand for, marked simulated', async () => {
  const m = await freshMock({ fixtures: simFixture(), seed: 7, simulation: { mode: 'auto', start: { traffic: 10 } } });
  await m.http.get(`/api/v3/projects/${P}/users?limit=1`).set(owner);
  await m.http.post('/_mock/clock').send({ advance_ms: 6 * HOUR });
  const all = (await m.http.get('/_mock/requests?summary=true')).body.items as Json[];
  const simulated = (await m.http.get('/_mock/requests?summary=true&simulated=true')).body.items as Json[];
  const clients = (await m.http.get('/_mock/requests?summary=true&simulated=false')).body.items as Json[];
  assert.equal(
    simulated.map((e) => e.id),
    all.filter((e) => e.simulated).map((e) => e.id),
  );
  assert.equal(
    clients.map((e) => e.id),
    [1],
  );
  assert.is(simulated.length + clients.length, all.length);
  // Each is the webhook request it stands for, at its time on the mock clock; its run is in the state.
  const state = (await m.http.get('/_mock/state')).body;
  const first = (await m.http.get(`/_mock/requests/${simulated[0].id}`)).body;
  assert.equal(
    { method: first.method, path: first.path, status: first.status, operation: first.operation, simulated: first.simulated },
    { method: 'POST', path: `/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`, status: 200, operation: 'chatWebhook', simulated: true },
  );
  const run = state.runs.find((r: Json) => r.id === first.response.body.run_id);
  assert.equal([first.response.body.accepted, run.created_at, run.surface], [true, first.at, 'chatapp']);
  assert.ok(first.request.body.update_id >= 1e12, 'a synthetic update id, far above a real one');
  assert.is(simulated.length, state.chat_updates.length);
  // Not the client's: verify and the client report read the client's requests only.
  assert.equal((await m.http.post('/_mock/verify/only').send({ requests: [{ operation: 'listUsers' }] })).body, { matched: 1, ids: [1] });
  assert.is((await m.http.post('/_mock/verify').send({ request: { operation: 'chatWebhook' }, count: { exactly: 0 } })).status, 200);
  await m.mock.close();
});

test('the simulated traffic is bounded by the journal as any traffic is: the newest entries stay', async () => {
  const m = await freshMock({ fixtures: simFixture(), seed: 7, simulation: { mode: 'auto', start: { traffic: 10 } }, journal: { entries: 20 } });
  await m.http.post('/_mock/clock').send({ advance_ms: 12 * HOUR });
  const items = (await m.http.get('/_mock/requests?summary=true')).body.items as Json[];
  const updates = (await m.http.get('/_mock/state')).body.chat_updates.length;
  assert.ok(updates > 50, `${updates} messages`);
  assert.is(items.length, 20);
  assert.equal(
    items.map((e) => e.id),
    Array.from({ length: 20 }, (_, i) => updates - 19 + i),
  );
  await m.mock.close();
});

test('summaries name the principal and the X-Test-Name test; both filter; a test name is cut to 200 characters', async () => {
  const m = await freshMock();
  await m.http.get(`/api/v3/projects/${P}/users?limit=1`).set(owner).set('X-Test-Name', 'lists users');
  await m.http.get(`/api/v3/projects/${P}/jobs`).set(operator).set('X-Test-Name', 'lists users');
  await m.http.get(`/api/v3/projects/${P}/jobs`).set(owner).set('X-Test-Name', 'x'.repeat(250));
  await m.http.get(`/api/v3/projects/${P}/jobs`);
  const items = (await m.http.get('/_mock/requests?summary=true')).body.items as Json[];
  assert.equal(
    items.map((e) => [e.id, e.principal, e.test]),
    [
      [1, DEMO.principals.owner, 'lists users'],
      [2, DEMO.principals.operator, 'lists users'],
      [3, DEMO.principals.owner, 'x'.repeat(200)],
      [4, undefined, undefined],
    ],
  );
  const ids = async (q: string) => ((await m.http.get(`/_mock/requests?summary=true&${q}`)).body.items as Json[]).map((e) => e.id);
  assert.equal(await ids(`principal=${DEMO.principals.owner}`), [1, 3]);
  assert.equal(await ids('test=lists%20users'), [1, 2]);
  assert.equal(await ids(`test=lists%20users&principal=${DEMO.principals.operator}`), [2]);
  assert.equal(await ids(`test=${'x'.repeat(200)}`), [3]);
  assert.equal(await ids('test=nobody'), []);
  const long = await m.http.get(`/_mock/requests?test=${'x'.repeat(201)}`);
  assert.equal([long.status, long.body.detail[0].loc, long.body.detail[0].type], [422, ['query', 'test'], 'string_too_long']);
  await m.mock.close();
});

test('GET /_mock/coverage/next: the gaps the gate names at 100 %, each with its calls', async () => {
  const m = await freshMock();
  await m.http.get(`/api/v3/projects/${P}/runs/00000000-0000-4000-8000-000000000000`).set(owner);
  const next = (await m.http.get('/_mock/coverage/next')).body;
  const report = (await m.http.get('/_mock/coverage')).body;
  const want = gate(report, { failUnder: 100 });
  assert.equal(next, { percent: report.summary.percent, gaps: want.gaps });
  assert.is(next.gaps[0].what, 'threshold');
  const missing = report.operations.find((o: Json) => o.operation === 'getRun').missing.reason_codes as string[];
  assert.equal(
    next.gaps.map((g: Json) => g.what),
    ['threshold', ...missing.slice(0, 10).map((r) => `getRun:${r}`)],
  );
  assert.ok(
    next.gaps.slice(1).every((g: Json) => g.what.startsWith('getRun:')),
    'the missing reason codes of the one operation called',
  );
  assert.equal(m.mock.control.coverageNext(), next);
  await m.mock.close();
});

test.run();
