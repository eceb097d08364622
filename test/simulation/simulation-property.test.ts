// A property of the simulation: any behaviour, any interleaving of chat messages, cancels, denies, retries, budget changes,
// steps and clock moves keeps every run on legal edges, its timing sums exact, its usage the sum of its steps', and spend
// equal to the sum of step costs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { DEMO } from '../helpers/demo.js';
import { P, SECRET, owner, simFixture, statusPath } from '../helpers/simulation.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 40);

/** The contract's edges, written out here (not read from the code under test). */
const LEGAL: Record<string, string[]> = {
  queued: ['running', 'cancelled'],
  running: ['waiting_approval', 'succeeded', 'failed', 'cancelled'],
  waiting_approval: ['running', 'queued', 'cancelled', 'failed'],
};
const micros = (usd: unknown) => Math.round(Number(usd ?? 0) * 1e6);
/** PROPERTY_STATS=1 prints what the cases reached (final statuses, errors, re-queues), to see the generators cover the rules. */
const stats = new Map<string, number>();
const note = (k: string) => stats.set(k, (stats.get(k) ?? 0) + 1);
test.after(() => {
  if (process.env.PROPERTY_STATS)
    console.log(
      [...stats]
        .sort()
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n'),
    );
});

const step = fc
  .record({
    name: fc.constantFrom('recall', 'think', 'lookup', 'refund', 'reply'),
    step_type: fc.constantFrom('model', 'tool', 'tool', 'skill', 'memory'),
    duration_ms: fc.integer({ min: 0, max: 20_000 }),
    cost_usd: fc.integer({ min: 0, max: 5000 }).map((n) => n / 1e6),
    input_tokens: fc.nat(3000),
    output_tokens: fc.nat(500),
    approval: fc.option(
      fc.record({
        decision: fc.constantFrom('approve', 'deny', 'none'),
        decide_after_ms: fc.integer({ min: 0, max: 60_000 }),
        expires_in_ms: fc.integer({ min: 1, max: 240_000 }),
      }),
      { nil: undefined, freq: 2 },
    ),
  })
  .map(({ approval, ...s }) => (s.step_type === 'tool' && approval ? { ...s, approval } : s));

const behaviour = fc.record({
  queue_wait_ms: fc.integer({ min: 0, max: 5000 }),
  steps: fc.array(step, { maxLength: 4 }),
  outcome: fc.oneof(
    fc.constant({ status: 'succeeded' }),
    fc.constant({ status: 'failed', error: 'boom' }),
    fc.record({ probabilities: fc.record({ succeeded: fc.integer({ min: 0, max: 3 }), failed: fc.integer({ min: 1, max: 3 }) }) }),
  ),
});

const limit = fc.option(
  fc.integer({ min: 1, max: 200 }).map((n) => n / 1000),
  { nil: null, freq: 2 },
);
const budget = fc.record({
  funding_mode: fc.constantFrom('prepaid', 'invoiced', 'free_sandbox'),
  credit_balance_usd: fc.integer({ min: 0, max: 300 }).map((n) => n / 1000),
  limits: fc.record({ project_daily_usd: limit, user_daily_usd: limit }).map((l) => ({
    project_daily_usd: l.project_daily_usd,
    user_daily_usd: l.user_daily_usd !== null && l.project_daily_usd !== null ? Math.min(l.user_daily_usd, l.project_daily_usd) : l.user_daily_usd,
  })),
});

const command = fc.oneof(
  { weight: 4, arbitrary: fc.record({ k: fc.constant('chat' as const), from: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 4, arbitrary: fc.record({ k: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 150_000 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('background' as const) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constantFrom('cancel' as const, 'deny' as const, 'deny' as const, 'retry' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('budget' as const), user_daily_usd: fc.integer({ min: 0, max: 20 }).map((n) => n / 1000) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('step' as const) }) },
);

test('property: legal edges, exact timing, usage and spend, whatever the behaviour and the interleaving', async () => {
  await fc.assert(
    fc.asyncProperty(behaviour, budget, fc.array(command, { minLength: 3, maxLength: 24 }), fc.boolean(), async (b, bud, commands, settle) => {
      const fixture = simFixture(
        { behaviours: { projects: [{ project_id: P, ...b }] } },
        (f) => ((f.projects as Record<string, unknown>[])[0].budget = { ...bud, current_monthly_spend_usd: 5 }),
      );
      const mock = await createApp({ storage: 'memory', fixtures: fixture, seed: 9, simulation: { mode: 'auto' } });
      const http = request(mock.callback());
      const start = mock.store.get('budgets', P)!;
      const ok = (res: { status: number; text: string }, what: string) => assert.ok(res.status < 500, `${what}: ${res.status} ${res.text}`);
      const simRuns = () => [...mock.store.values('runs')].filter((r) => r.created_at >= DEMO.now && r.project_id === P);
      let update = 1;
      for (const c of commands) {
        const runs = simRuns();
        const pick = <T>(xs: T[], n: number) => (xs.length ? xs[n % xs.length] : undefined);
        if (c.k === 'chat')
          ok(
            await http
              .post(`/api/v3/connections/${DEMO.connections.chatBinding}/chatapp/webhook`)
              .set(SECRET)
              .send({ update_id: update++, message: { from: { id: c.from }, text: 'hi' } }),
            'chat',
          );
        else if (c.k === 'advance') ok(await http.post('/_mock/clock').send({ advance_ms: c.ms }), 'clock');
        else if (c.k === 'background') ok(await http.post(`/_mock/projects/${P}/runs`).send({ simulate: true, surface: 'background' }), 'create');
        else if (c.k === 'step') ok(await http.post('/_mock/simulation/step'), 'step');
        else if (c.k === 'budget')
          ok(await http.put(`/api/v3/projects/${P}/budget`).set(owner).send({ user_daily_usd: c.user_daily_usd, project_daily_usd: 1 }), 'budget');
        else if (c.k === 'cancel') {
          const r = pick(runs, c.pick);
          if (r) ok(await http.post(`/api/v3/projects/${P}/runs/${r.id}/cancel`).set(owner).send({}), 'cancel');
        } else if (c.k === 'retry') {
          const r = pick(
            runs.filter((x) => x.status === 'failed' && x.surface === 'background'),
            c.pick,
          );
          if (r) ok(await http.post(`/api/v3/projects/${P}/runs/${r.id}/retry`).set(owner).send({}), 'retry');
        } else {
          const a = pick(
            [...mock.store.values('approvals')].filter((x) => x.status === 'pending' && x.requested_at >= DEMO.now),
            c.pick,
          );
          if (a) ok(await http.post(`/api/v3/projects/${P}/approvals/${a.approval_id}/deny`).set(owner).send({}), 'deny');
        }
      }
      if (settle) ok(await http.post('/_mock/simulation/run').send({ idle: true }), 'idle');

      let spent = 0;
      for (const run of simRuns()) {
        const path = statusPath(run);
        for (let i = 1; i < path.length; i++) assert.ok(LEGAL[path[i - 1]]?.includes(path[i]), `${run.id}: ${path.join(' -> ')}`);
        assert.is(path.at(-1), run.status, `${run.id}: events end in ${path.at(-1)}, status ${run.status}`);
        const t = run.timing as Record<string, number>;
        if (t.active_ms !== undefined) assert.is(t.active_ms, t.model_ms + t.tool_ms + t.skill_ms + t.memory_ms, `${run.id} active`);
        if (t.end_to_end_ms !== undefined) {
          assert.is(t.end_to_end_ms, t.queue_wait_ms + t.approval_wait_ms + t.active_ms, `${run.id} end to end`);
          assert.is(run.latency_ms, t.end_to_end_ms);
          assert.is(Date.parse(run.created_at) + t.end_to_end_ms, Date.parse((run.events.at(-1) as { at: string }).at), `${run.id} ends at its last event`);
        }
        const counted = run.steps.filter((s) => s.metadata?.cost_usd !== undefined);
        assert.is(
          micros(run.cost_usd),
          counted.reduce((sum, s) => sum + micros(s.metadata!.cost_usd), 0),
          `${run.id} cost`,
        );
        assert.is(
          run.input_tokens ?? 0,
          counted.reduce((sum, s) => sum + Number(s.metadata!.input_tokens), 0),
          `${run.id} tokens`,
        );
        // A waiting run has its one undecided approval. Any other run has none still open: an approval past its expiry
        // is expired for every purpose even while stored as pending (a cancel at the very instant it expires leaves
        // it so, and removes the simulation's expiry event with the run's other events).
        const undecided = [...mock.store.values('approvals')].filter((a) => a.run_id === run.id && a.status === 'pending');
        const open = undecided.filter((a) => Date.parse(a.expires_at) > Date.parse(mock.control.now()));
        if (run.status === 'waiting_approval') assert.is(undecided.length, 1, `${run.id} (waiting_approval) pending approvals`);
        else assert.is(open.length, 0, `${run.id} (${run.status}) approvals still open`);
        spent += micros(run.cost_usd);
        note(`status ${run.status}${run.result.error ? ` (${run.result.error})` : ''}`);
        if (path.includes('waiting_approval')) note(path.join(' > '));
      }
      for (const t of mock.control.coverage().simulated.transitions) note(`transition ${t}`);
      const end = mock.store.get('budgets', P)!;
      assert.is(micros(end.current_monthly_spend_usd) - micros(start.current_monthly_spend_usd), spent, 'monthly spend = the sum of step costs');
      const credit = micros(start.credit_balance_usd) - micros(end.credit_balance_usd);
      assert.is(credit, end.funding_mode === 'free_sandbox' ? 0 : spent, `credit (${end.funding_mode})`);
      if (end.funding_mode === 'prepaid') assert.ok(end.credit_balance_usd >= 0, 'prepaid credit never goes below zero');
      await mock.close();
    }),
    { numRuns: RUNS },
  );
});

test.run();
