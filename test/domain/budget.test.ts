// Budget (endpoint 7): merged limits checked as a whole, 422 at the offending field, clear, the epoch, refusals that change nothing, authority.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshMock, stateOf } from '../helpers/app.js';
import { DEMO } from '../helpers/demo.js';
import { AS, refusals, assertError, assertInvalidAt } from '../helpers/ops.js';

const P = DEMO.projects.support;
const budgetPath = (project: string = P) => `/api/v3/projects/${project}/budget`;
// The demo's support project: limits 100 / 2000 per project, 5 / 50 per user, epoch 7, prepaid.
const STORED = { project_daily_usd: 100, project_monthly_usd: 2000, user_daily_usd: 5, user_monthly_usd: 50 };

test('budget: a valid PUT answers the budget with the merged limits and epoch + 1', async () => {
  const { http } = await freshMock();
  const res = await http.put(budgetPath()).set(AS.operator).send({ funding_mode: 'invoiced', user_daily_usd: 3, project_monthly_usd: 1500 });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body, {
    project_id: P,
    funding_mode: 'invoiced',
    credit_balance_usd: 1250,
    current_daily_spend_usd: 18.42,
    current_monthly_spend_usd: 387.15,
    runtime_config_epoch: 8,
    limits: { ...STORED, user_daily_usd: 3, project_monthly_usd: 1500 },
  });
});

test('budget: every accepted PUT raises runtime_config_epoch by exactly one, an empty one too', async () => {
  const { http } = await freshMock();
  const epochs: number[] = [];
  for (const body of [{}, { user_daily_usd: 4 }, { funding_mode: 'prepaid' }, undefined]) {
    const req = http.put(budgetPath()).set(AS.operator);
    const res = body === undefined ? await req : await req.send(body);
    assert.is(res.status, 200, JSON.stringify(res.body));
    epochs.push(res.body.runtime_config_epoch);
  }
  assert.equal(epochs, [8, 9, 10, 11]);
});

test('budget: zero amounts are allowed', async () => {
  const { http } = await freshMock();
  const res = await http.put(budgetPath()).set(AS.operator).send({ project_daily_usd: 0, project_monthly_usd: 0, user_daily_usd: 0, user_monthly_usd: 0 });
  assert.is(res.status, 200);
  assert.equal(res.body.limits, { project_daily_usd: 0, project_monthly_usd: 0, user_daily_usd: 0, user_monthly_usd: 0 });
});

test('budget: lowering related limits together is checked after merging, so it is accepted', async () => {
  const { http } = await freshMock();
  const res = await http.put(budgetPath()).set(AS.operator).send({ project_daily_usd: 4, user_daily_usd: 2 });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.limits, { ...STORED, project_daily_usd: 4, user_daily_usd: 2 });
});

// body -> the loc of the refused field (checked against the stored limits after merging).
const VIOLATIONS: [string, Record<string, number>, string][] = [
  ['user daily above project daily', { user_daily_usd: 101 }, 'user_daily_usd'],
  ['user monthly above project monthly', { user_monthly_usd: 2001 }, 'user_monthly_usd'],
  ['project daily lowered below the stored user daily', { project_daily_usd: 4 }, 'project_daily_usd'],
  ['project monthly lowered below the stored project daily', { project_monthly_usd: 99 }, 'project_monthly_usd'],
  ['project daily above project monthly', { project_daily_usd: 2500 }, 'project_daily_usd'],
  ['user daily above user monthly', { user_daily_usd: 60, project_daily_usd: 100 }, 'user_daily_usd'],
  ['user monthly lowered below the stored user daily', { user_monthly_usd: 4 }, 'user_monthly_usd'],
  ['both given: the per-user one is blamed', { project_daily_usd: 10, user_daily_usd: 20 }, 'user_daily_usd'],
];

for (const [name, body, field] of VIOLATIONS) {
  test(`budget: ${name} -> 422 at ['body', '${field}'], nothing changes`, async () => {
    const { mock, http } = await freshMock();
    const before = stateOf(mock);
    const res = await http.put(budgetPath()).set(AS.operator).send(body);
    assertInvalidAt(res, ['body', field]);
    assert.is(stateOf(mock), before);
  });
}

test('budget: negative, non-numeric amounts and unknown funding modes -> 422 at the field, nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  for (const [body, field] of [
    [{ user_daily_usd: -1 }, 'user_daily_usd'],
    [{ project_monthly_usd: 'ten' }, 'project_monthly_usd'],
    [{ project_daily_usd: null }, 'project_daily_usd'],
    [{ funding_mode: 'credit_card' }, 'funding_mode'],
    [{ clear: 'maybe' }, 'clear'],
  ] as const) {
    assertInvalidAt(await http.put(budgetPath()).set(AS.operator).send(body), ['body', field]);
  }
  assert.is(stateOf(mock), before);
});

test('budget: clear: true removes every limit, keeps spend, may change funding_mode', async () => {
  const { http } = await freshMock();
  const res = await http.put(budgetPath()).set(AS.operator).send({ clear: true, funding_mode: 'free_sandbox' });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.limits, { project_daily_usd: null, project_monthly_usd: null, user_daily_usd: null, user_monthly_usd: null });
  assert.is(res.body.funding_mode, 'free_sandbox');
  assert.is(res.body.current_monthly_spend_usd, 387.15);
  assert.is(res.body.runtime_config_epoch, 8);
  // With no project limits left, a per-user limit alone is fine.
  const next = await http.put(budgetPath()).set(AS.operator).send({ user_daily_usd: 500 });
  assert.is(next.status, 200);
  assert.equal(next.body.limits, { project_daily_usd: null, project_monthly_usd: null, user_daily_usd: 500, user_monthly_usd: null });
});

test('budget: clear: true with an amount -> 422 at that amount, nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  const res = await http.put(budgetPath()).set(AS.operator).send({ clear: true, user_monthly_usd: 10 });
  assertInvalidAt(res, ['body', 'user_monthly_usd']);
  assert.is(stateOf(mock), before);
});

test('budget: clear: false is an ordinary PUT', async () => {
  const { http } = await freshMock();
  const res = await http.put(budgetPath()).set(AS.operator).send({ clear: false, user_daily_usd: 1 });
  assert.is(res.status, 200);
  assert.equal(res.body.limits, { ...STORED, user_daily_usd: 1 });
});

test('budget: a refused PUT does not raise the epoch', async () => {
  const { http } = await freshMock();
  assertInvalidAt(await http.put(budgetPath()).set(AS.operator).send({ user_daily_usd: 9999 }), ['body', 'user_daily_usd']);
  const ok = await http.put(budgetPath()).set(AS.operator).send({});
  assert.is(ok.body.runtime_config_epoch, 8);
});

test('budget: authority per actor (viewer/read-only 403, other workspace 404, no credentials 401), nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  for (const [actor, status, reason] of refusals('operator', false)) {
    assertError(await http.put(budgetPath()).set(AS[actor]).send({ user_daily_usd: 1 }), status, reason);
  }
  assertError(await http.put(budgetPath('00000000-0000-4000-8000-000000000000')).set(AS.operator).send({}), 404, 'project_not_found');
  assertInvalidAt(await http.put(budgetPath('nope')).set(AS.operator).send({}), ['path', 'project_id']);
  assert.is(stateOf(mock), before);
  assert.is((await http.put(budgetPath()).set(AS.owner).send({})).status, 200);
});

test('budget: archived project -> 409 project_archived, nothing changes', async () => {
  const { mock, http } = await freshMock();
  const before = stateOf(mock);
  assertError(await http.put(budgetPath(DEMO.projects.legacy)).set(AS.operator).send({ user_daily_usd: 1 }), 409, 'project_archived');
  assert.is(stateOf(mock), before);
});

test.run();
