// Races over HTTP on every storage (memory, the JSON file, PostgreSQL): a write reads through its own transaction and
// re-checks its authority there, so conflicting writes have exactly one winner and every 200 is what was stored.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { needsPostgres, dropCreated, freshSchema } from '../helpers/postgres.js';
import { demoFixture } from '../../src/fixtures.js';
import { STORAGES, call, listen, removeDirs, type Answer } from '../helpers/storages.js';
import { DEMO } from '../helpers/demo.js';

needsPostgres();
const P = DEMO.projects.support;
const TERMINAL = new Set(['run.succeeded', 'run.failed', 'run.cancelled']);
const typesOf = (run: { events: { type: string }[] }) => run.events.map((e) => e.type);

test.after(async () => {
  removeDirs();
  await dropCreated();
});

for (const storage of STORAGES) {
  test(`${storage.name}: 20 parallel transitions of one running run to succeeded or failed: one winner, and its answer is what was stored`, async () => {
    const m = await listen(storage.make());
    try {
      const created = await call(m.base, 'POST', `/_mock/projects/${P}/runs`, { status: 'running' });
      assert.is(created.status, 200, JSON.stringify(created.body));
      const id = created.body.id as string;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => call(m.base, 'POST', `/_mock/projects/${P}/runs/${id}/transition`, { to: i % 2 ? 'failed' : 'succeeded' })),
      );
      const ok = answers.filter((a) => a.status === 200);
      assert.is(ok.length, 1, answers.map((a) => a.status).join(' '));
      const refused = answers.filter((a) => a.status !== 200);
      assert.is(refused.length, 19);
      for (const r of refused) assert.is(r.body.detail.reason_code, 'illegal_transition');
      const stored = (await call(m.base, 'GET', `/api/v3/projects/${P}/runs/${id}`, undefined, DEMO.tokens.operator)).body;
      assert.is(stored.status, ok[0].body.status);
      assert.equal(stored.events, ok[0].body.events);
      assert.is(typesOf(stored).filter((t) => TERMINAL.has(t)).length, 1);
      // Exactly one change set wrote the run after its creation.
      assert.is(m.log.filter((s) => s.changes.some((c) => c.collection === 'runs' && c.key === id)).length, 2);
    } finally {
      await m.close();
    }
  });

  test(`${storage.name}: transitions, v3 cancels and retries racing on one run: it ends once, and retries only from failed`, async () => {
    const m = await listen(storage.make());
    try {
      const created = await call(m.base, 'POST', `/_mock/projects/${P}/runs`, { status: 'running', surface: 'background' });
      const id = created.body.id as string;
      const targets = ['failed', 'succeeded', 'cancelled', 'failed'];
      const requests: Promise<[string, Answer]>[] = [];
      for (let i = 0; i < 30; i++) {
        const kind = ['transition', 'cancel', 'retry'][i % 3];
        const path = kind === 'transition' ? `/_mock/projects/${P}/runs/${id}/transition` : `/api/v3/projects/${P}/runs/${id}/${kind}`;
        const body = kind === 'transition' ? { to: targets[((i / 3) % 4) | 0] } : {};
        requests.push(call(m.base, 'POST', path, body, kind === 'transition' ? undefined : DEMO.tokens.operator).then((a) => [kind, a]));
      }
      const answers = await Promise.all(requests);
      const stored = (await call(m.base, 'GET', `/api/v3/projects/${P}/runs/${id}`, undefined, DEMO.tokens.operator)).body;
      // One terminal event, written by the one request that ended the run, and its answer shows the stored status.
      assert.is(typesOf(stored).filter((t) => TERMINAL.has(t)).length, 1, typesOf(stored).join(' '));
      const enders = answers.filter(([k, a]) => k !== 'retry' && a.status === 200);
      assert.is(enders.length, 1, answers.map(([k, a]) => `${k}:${a.status}`).join(' '));
      assert.is(enders[0][1].body.status, stored.status);
      for (const [k, a] of answers) {
        if (k === 'cancel' && a.status !== 200) assert.is(a.body.detail.reason_code, 'run_not_cancellable');
        if (k === 'transition' && a.status !== 200) assert.is(a.body.detail.reason_code, 'illegal_transition');
      }
      const retries = answers.filter(([k, a]) => k === 'retry' && a.status === 201).map(([, a]) => a.body);
      const lineage = [...m.mock.store.values('runs')].filter((r) => r.request_metadata?.retry_of === id);
      // Every retry that answered 201 is stored, and none exists unless the run ended failed.
      assert.equal(lineage.map((r) => r.id).sort(), retries.map((r) => r.id).sort());
      if (stored.status !== 'failed') assert.is(retries.length, 0);
      for (const [k, a] of answers) if (k === 'retry' && a.status !== 201) assert.is(a.body.detail.reason_code, 'run_not_retryable');
    } finally {
      await m.close();
    }
  });

  test(`${storage.name}: an operator's parallel budget writes racing a transfer away from them: none is stored after the transfer`, async () => {
    const m = await listen(storage.make());
    try {
      const SANDBOX = DEMO.projects.sandbox;
      const budget = (i: number) => call(m.base, 'PUT', `/api/v3/projects/${SANDBOX}/budget`, { project_daily_usd: 1 + i / 4 }, DEMO.tokens.operator);
      const transfer = () => call(m.base, 'POST', `/api/v3/projects/${SANDBOX}/transfer`, { workspace_id: DEMO.workspaces.acmeLabs }, DEMO.tokens.owner);
      const before = m.mock.store.get('budgets', SANDBOX)!;
      const calls: Promise<Answer>[] = [];
      for (let i = 0; i < 20; i++) {
        calls.push(budget(i));
        if (i === 5) calls.push(transfer());
      }
      const answers = await Promise.all(calls);
      const moved = answers[6];
      assert.is(moved.status, 200, JSON.stringify(moved.body));
      assert.is(moved.body.workspace_id, DEMO.workspaces.acmeLabs);
      const writes = answers.filter((_, i) => i !== 6);
      const ok = writes.filter((a) => a.status === 200);
      for (const a of writes.filter((x) => x.status !== 200)) assert.is(a.body.detail.reason_code, 'project_not_found', JSON.stringify(a.body));
      // In the order stored: the transfer, and after it no budget write of the sandbox.
      const at = m.log.findIndex((s) => s.changes.some((c) => c.collection === 'projects' && c.key === SANDBOX));
      assert.ok(at >= 0);
      const budgetWrites = m.log.map((s, i) => [s, i] as const).filter(([s]) => s.changes.some((c) => c.collection === 'budgets' && c.key === SANDBOX));
      assert.ok(
        budgetWrites.every(([, i]) => i < at),
        `budget writes at ${budgetWrites.map(([, i]) => i)}, transfer at ${at}`,
      );
      // Every 200 is stored (one epoch each), and the stored budget is the last one acknowledged.
      const after = m.mock.store.get('budgets', SANDBOX)!;
      assert.is(budgetWrites.length, ok.length);
      assert.is(after.runtime_config_epoch, before.runtime_config_epoch + ok.length);
      assert.equal(
        ok.map((a) => a.body.runtime_config_epoch as number).sort((a, b) => a - b),
        ok.map((_, i) => before.runtime_config_epoch + i + 1),
      );
      assert.is(after.limits.project_daily_usd, ok.find((a) => a.body.runtime_config_epoch === after.runtime_config_epoch)!.body.limits.project_daily_usd);
      // And the operator now sees no such project.
      assert.is((await budget(99)).status, 404);
    } finally {
      await m.close();
    }
  });
}

const pg = STORAGES.find((s) => s.name === 'postgres');
if (pg) {
  test('postgres: 100 whole-state replaces (reset, fixtures, PUT state) while 2 other instances write: none answers 503', async () => {
    const schema = freshSchema();
    const a = await listen(pg.make(schema));
    const others = [await listen(pg.make(schema), { reset: false }), await listen(pg.make(schema), { reset: false })];
    const all = [a, ...others];
    try {
      const exported = await (await fetch(`${a.base}/_mock/state`)).json();
      let busy = true;
      const load = others.map(async (o, n) => {
        const statuses: number[] = [];
        for (let i = 0; busy; i++) {
          const created = await call(o.base, 'POST', `/_mock/projects/${P}/runs`, { status: 'running' });
          statuses.push(created.status);
          if (created.status === 200)
            statuses.push((await call(o.base, 'POST', `/_mock/projects/${P}/runs/${created.body.id}/transition`, { to: 'failed' })).status);
          statuses.push(
            (await call(o.base, 'PUT', `/api/v3/projects/${P}/budget`, { funding_mode: n ? 'prepaid' : 'free_sandbox' }, DEMO.tokens.operator)).status,
          );
        }
        return statuses;
      });
      const replaces: Answer[] = [];
      for (let batch = 0; batch < 25; batch++) {
        replaces.push(
          ...(await Promise.all(
            [0, 1, 2, 3].map((k) => {
              const i = batch * 4 + k;
              if (i % 3 === 0) return call(a.base, 'POST', '/_mock/reset');
              if (i % 3 === 1) return call(a.base, 'POST', '/_mock/fixtures', demoFixture());
              return call(a.base, 'PUT', '/_mock/state', exported);
            }),
          )),
        );
      }
      busy = false;
      const loadStatuses = (await Promise.all(load)).flat();
      assert.is(replaces.length, 100);
      assert.equal(
        replaces.filter((r) => r.status !== 200),
        [],
        'every replace answers 200',
      );
      assert.is(replaces.filter((r) => r.body.reset === true).length, 34);
      assert.is(replaces.filter((r) => r.body.loaded === true).length, 33);
      assert.is(replaces.filter((r) => r.body.restored === true).length, 33);
      // The writers' requests were not refused by storage either (a 409 is a run reset away meanwhile).
      assert.ok(loadStatuses.length > 0 && loadStatuses.every((s) => s === 200 || s === 404 || s === 409), loadStatuses.join(' '));
      // Quiet again: one reset, and every instance serves the fixture's state.
      assert.is((await call(a.base, 'POST', '/_mock/reset')).status, 200);
      const states = await Promise.all(all.map(async (m) => (await fetch(`${m.base}/_mock/state`)).json() as Promise<{ runs: unknown[] }>));
      assert.is(states[0].runs.length, (demoFixture() as unknown as { runs: unknown[] }).runs.length);
      assert.equal(states[1], states[0]);
      assert.equal(states[2], states[0]);
    } finally {
      for (const m of all) await m.close();
    }
  });
}

test.run();
