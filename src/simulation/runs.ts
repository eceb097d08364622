// What a simulated run does at each of its events: start, step by step, approval gates, outcome; legal edges only, timing exact.
import type { WriteDeps } from '../deps.js';
import type { Transaction } from '../storage/index.js';
import type { RecordOf } from '../schemas/index.js';
import type { RunStatus, RunStep } from '../schemas/index.js';
import type { Behaviour, SimEventRecord } from '../schemas/index.js';
import { ApprovalInputSchema } from '../schemas/index.js';
import * as v from 'valibot';
import { isLegalTransition, LIFECYCLE_EVENT, pendingApproval } from '../domain/index.js';
import { denyApprovalTx } from '../domain/index.js';
import { seededFraction } from '../domain/index.js';
import { MAX_TIMESTAMP_MS } from '../domain/index.js';
import { accrue, fromMicros, limitCrossed, toMicros } from './spend.js';

type Run = RecordOf<'runs'>;
type Timing = Run['timing'];
export type NewEvent = Omit<SimEventRecord, 'seq' | 'at'> & { at: number };

/** What the run handlers need from the engine. */
export interface RunContext {
  /** The domain's write face: an event handler reads time and state through its transaction only. */
  deps: WriteDeps;
  seed: string;
  schedule(tx: Transaction, ev: NewEvent): void;
  /** After spend moved: make sure the project's day and month totals reset at the next boundary. */
  spent(tx: Transaction, projectId: string, ms: number): void;
  /** A background job run failed: schedule its retry if the job's policy allows another attempt. */
  failedJobRun(tx: Transaction, run: Run, ms: number): void;
  /** A gate opened an approval for the run (retention removes it with a simulated run). */
  gated(tx: Transaction, runId: string, approvalRecordId: string): void;
}

export const runKey = (runId: string) => `run:${runId}`;
const iso = (ms: number) => new Date(ms).toISOString();
const TYPE_FIELD = { model: 'model_ms', tool: 'tool_ms', skill: 'skill_ms', memory: 'memory_ms' } as const;
const ZERO_TIMING = { queue_wait_ms: 0, model_ms: 0, tool_ms: 0, skill_ms: 0, memory_ms: 0, approval_wait_ms: 0, active_ms: 0 };

const plus = (t: Timing, field: keyof Timing, ms: number): Timing => ({ ...t, [field]: (t[field] ?? 0) + ms });

/** Moves a run along one legal edge, appending the lifecycle event; an illegal edge is a defect of the engine. */
function move(run: Run, to: RunStatus, ms: number, extra: unknown[] = []): Run {
  if (!isLegalTransition(run.status, to)) throw new Error(`simulation: illegal edge ${run.status} -> ${to} for run ${run.id}`);
  return { ...run, status: to, events: [...run.events, { type: LIFECYCLE_EVENT[to], at: iso(ms) }, ...extra] };
}

/** Closes the run's clock: end-to-end is exactly the queue, approval and active time that made it. */
function closeTiming(run: Run, ms: number): Run {
  const e2e = ms - Date.parse(run.created_at);
  return { ...run, timing: { ...run.timing, end_to_end_ms: e2e }, latency_ms: e2e };
}

const nextSequence = (run: Run) => run.steps.reduce((m, s) => Math.max(m, s.sequence), 0) + 1;

function newStep(deps: WriteDeps, run: Run, fields: Pick<RunStep, 'name' | 'status' | 'step_type'> & Partial<RunStep>, ms: number, sequence: number): RunStep {
  return {
    id: deps.ids(),
    created_at: iso(ms),
    sequence,
    surface: run.surface,
    attempt: 1,
    content_available: true,
    guardrail_decisions: [],
    input_summary: {},
    output_summary: {},
    metadata: {},
    ...fields,
  };
}

const replaceStep = (run: Run, id: string, patch: (s: RunStep) => RunStep): Run => ({ ...run, steps: run.steps.map((s) => (s.id === id ? patch(s) : s)) });

/** succeeded or failed: the behaviour's status, or a draw from the seeded generator keyed by the run. */
function outcomeOf(ctx: RunContext, run: Run, b: Behaviour): 'succeeded' | 'failed' {
  const p = b.outcome.probabilities;
  if (!p || p.succeeded + p.failed <= 0) return b.outcome.status;
  return seededFraction(ctx.seed, `${run.id}:outcome`) * (p.succeeded + p.failed) < p.failed ? 'failed' : 'succeeded';
}

function succeed(tx: Transaction, run: Run, b: Behaviour, ms: number): void {
  const done = move(run, 'succeeded', ms);
  tx.put('runs', closeTiming({ ...done, result: { ...done.result, output: `Simulated answer after ${b.steps.length} steps` } }, ms));
}

/** Fails the run at `ms`: steps not yet run are skipped, the error goes to result.error, and a job's retry policy applies. */
function fail(ctx: RunContext, tx: Transaction, run: Run, ms: number, error: string, extra: Record<string, unknown> = {}): void {
  const steps = run.steps.map((s) => (s.status === 'pending' ? { ...s, status: 'skipped' as const, metadata: { ...s.metadata, skipped_because: error } } : s));
  const done = move({ ...run, steps }, 'failed', ms);
  const failed = tx.put('runs', closeTiming({ ...done, result: { ...done.result, error, ...extra } }, ms));
  ctx.failedJobRun(tx, failed, ms);
}

/** The run is `running` at `ms` and about to do behaviour step `i` (the gated tool step already exists after an approval). */
function beginStep(ctx: RunContext, tx: Transaction, run: Run, b: Behaviour, i: number, ms: number, gatedStepId?: string): void {
  if (i >= b.steps.length) {
    // Only a behaviour without steps gets here: the last step's end decides the outcome otherwise.
    if (outcomeOf(ctx, run, b) === 'failed') fail(ctx, tx, run, ms, b.outcome.error);
    else succeed(tx, run, b, ms);
    return;
  }
  const s = b.steps[i];
  const limit = limitCrossed(tx, run, s.cost_usd, ms);
  if (limit) return fail(ctx, tx, run, ms, 'budget_exceeded', { limit, step: s.name });
  if (s.approval && !gatedStepId) return openGate(ctx, tx, run, b, i, ms);
  // A step is charged as it begins (so a limit is never overshot by steps under way) and its usage counts from then.
  const usage = { cost_usd: fromMicros(toMicros(s.cost_usd)), input_tokens: s.input_tokens, output_tokens: s.output_tokens };
  let step: RunStep;
  if (gatedStepId) {
    step = { ...run.steps.find((x) => x.id === gatedStepId)! };
    step = { ...step, status: 'running', metadata: { ...step.metadata, started_at: iso(ms), ...usage } };
    run = replaceStep(run, gatedStepId, () => step);
  } else {
    step = newStep(
      ctx.deps,
      run,
      { name: s.name, status: 'running', step_type: s.step_type, metadata: { simulated: true, started_at: iso(ms), ...usage } },
      ms,
      nextSequence(run),
    );
    run = { ...run, steps: [...run.steps, step] };
  }
  run = {
    ...run,
    cost_usd: fromMicros(toMicros(run.cost_usd ?? 0) + toMicros(s.cost_usd)),
    input_tokens: (run.input_tokens ?? 0) + s.input_tokens,
    output_tokens: (run.output_tokens ?? 0) + s.output_tokens,
    events: [...run.events, { type: 'step.started', at: iso(ms), step_id: step.id, sequence: step.sequence }],
  };
  tx.put('runs', run);
  accrue(tx, run, s.cost_usd, ms);
  ctx.spent(tx, run.project_id, ms);
  ctx.schedule(tx, {
    key: runKey(run.id),
    kind: 'step.finish',
    at: ms + s.duration_ms,
    run_id: run.id,
    project_id: run.project_id,
    step: i,
    step_id: step.id,
    behaviour: b,
  });
}

/** A gate: a pending approval, its checkpoint step and the tool step it holds; the run waits for the reviewer or expiry. */
function openGate(ctx: RunContext, tx: Transaction, run: Run, b: Behaviour, i: number, ms: number): void {
  const s = b.steps[i];
  const a = s.approval!;
  // An expiry past the last datetime is cut to it (the clock never gets there).
  const expiresIn = Math.min(a.expires_in_ms, MAX_TIMESTAMP_MS - ms);
  const input = v.parse(ApprovalInputSchema, {
    tool_id: a.tool_id ?? s.name,
    action_summary: a.action_summary,
    expires_in_ms: expiresIn,
    tool_arguments: { step: s.name },
  });
  const approval = tx.put('approvals', pendingApproval(ctx.deps, run, input, ms));
  ctx.gated(tx, run.id, approval.id);
  const seq = nextSequence(run);
  const gate = newStep(
    ctx.deps,
    run,
    {
      name: `approval: ${input.tool_id}`,
      status: 'pending',
      step_type: 'approval',
      input_summary: { tool_id: input.tool_id, action_summary: input.action_summary },
      metadata: { simulated: true, approval_id: approval.approval_id, requested_at: iso(ms) },
    },
    ms,
    seq,
  );
  const tool = newStep(
    ctx.deps,
    run,
    { name: s.name, status: 'pending', step_type: 'tool', metadata: { simulated: true, gated_by: approval.approval_id } },
    ms,
    seq + 1,
  );
  const waiting = move({ ...run, steps: [...run.steps, gate, tool] }, 'waiting_approval', ms, [
    { type: 'approval.requested', at: iso(ms), approval_id: approval.approval_id },
  ]);
  tx.put('runs', waiting);
  const decides = a.decision !== 'none' && a.decide_after_ms < expiresIn;
  ctx.schedule(tx, {
    key: runKey(run.id),
    kind: decides ? 'approval.decide' : 'approval.expire',
    at: ms + (decides ? a.decide_after_ms : expiresIn),
    run_id: run.id,
    project_id: run.project_id,
    approval_id: approval.approval_id,
    approval_record_id: approval.id,
    step: i,
    step_id: tool.id,
    gate_step_id: gate.id,
    since: iso(ms),
    behaviour: b,
  });
}

/** run.start: the queue wait ends; the run starts (or resumes after a deny) at behaviour step `ev.step`. */
export function startRun(ctx: RunContext, tx: Transaction, ev: SimEventRecord, ms: number): void {
  const run = tx.get('runs', ev.run_id!);
  if (!run || run.status !== 'queued' || !ev.behaviour) return;
  const timing = plus({ ...ZERO_TIMING, ...run.timing }, 'queue_wait_ms', ms - Date.parse(ev.since ?? run.created_at));
  beginStep(ctx, tx, move({ ...run, timing }, 'running', ms), ev.behaviour, ev.step ?? 0, ms);
}

/** step.finish: the step ends after its duration (its time counts); the next step begins at once. */
export function finishStep(ctx: RunContext, tx: Transaction, ev: SimEventRecord, ms: number): void {
  const run = tx.get('runs', ev.run_id!);
  const b = ev.behaviour;
  const step = run?.steps.find((s) => s.id === ev.step_id);
  if (!run || !b || run.status !== 'running' || step?.status !== 'running') return;
  const i = ev.step ?? 0;
  const s = b.steps[i];
  const started = Date.parse(String(step.metadata?.started_at ?? step.created_at));
  const d = ms - started;
  const failed = i === b.steps.length - 1 && outcomeOf(ctx, run, b) === 'failed';
  let next = replaceStep(run, step.id, (x) => ({
    ...x,
    status: failed ? 'failed' : 'succeeded',
    output_summary: { ...x.output_summary, input_tokens: s.input_tokens, output_tokens: s.output_tokens },
    metadata: { ...x.metadata, finished_at: iso(ms), duration_ms: d },
  }));
  next = {
    ...next,
    timing: plus(plus(next.timing, TYPE_FIELD[s.step_type], d), 'active_ms', d),
    events: [...next.events, { type: failed ? 'step.failed' : 'step.succeeded', at: iso(ms), step_id: step.id, sequence: step.sequence }],
  };
  if (failed) return fail(ctx, tx, next, ms, b.outcome.error, { step: s.name });
  beginStep(ctx, tx, next, b, i + 1, ms);
}

/** approval.decide: the simulated reviewer approves (the tool step runs) or denies (through endpoint 11's transaction). */
export function decideApproval(ctx: RunContext, tx: Transaction, ev: SimEventRecord, ms: number): void {
  const run = tx.get('runs', ev.run_id!);
  const approval = tx.get('approvals', ev.approval_record_id!);
  const b = ev.behaviour;
  if (!run || !b || run.status !== 'waiting_approval' || approval?.status !== 'pending') return;
  const decision = b.steps[ev.step ?? 0]?.approval?.decision;
  if (decision === 'deny') {
    // The deny re-queues the run, and the engine's requeued hook schedules where the behaviour goes on.
    denyApprovalTx(ctx.deps, tx, { projectId: run.project_id, approvalId: approval.approval_id, reason: 'denied by the simulated reviewer' }, approval.id, ms);
    return;
  }
  tx.put('approvals', { ...approval, status: 'approved', decided_at: iso(ms), decision_reason: 'approved by the simulated reviewer' });
  let next = replaceStep(run, ev.gate_step_id!, (g) => ({
    ...g,
    status: 'succeeded',
    output_summary: { ...g.output_summary, decision: 'approved' },
    metadata: { ...g.metadata, decided_at: iso(ms) },
  }));
  next = { ...next, timing: plus(next.timing, 'approval_wait_ms', ms - Date.parse(ev.since!)) };
  next = move(next, 'running', ms, [{ type: 'approval.approved', at: iso(ms), approval_id: approval.approval_id }]);
  beginStep(ctx, tx, next, b, ev.step ?? 0, ms, ev.step_id);
}

/** approval.expire: nobody decided in time; the approval is `expired`, its checkpoint fails and the run fails with `approval_expired`. */
export function expireApproval(ctx: RunContext, tx: Transaction, ev: SimEventRecord, ms: number): void {
  const run = tx.get('runs', ev.run_id!);
  const approval = tx.get('approvals', ev.approval_record_id!);
  if (!run || run.status !== 'waiting_approval' || approval?.status !== 'pending') return;
  tx.put('approvals', { ...approval, status: 'expired', decided_at: iso(ms), decision_reason: 'expired before a decision' });
  let next = replaceStep(run, ev.gate_step_id!, (g) => ({ ...g, status: 'failed', output_summary: { ...g.output_summary, decision: 'expired' } }));
  next = replaceStep(next, ev.step_id!, (t) => ({ ...t, status: 'skipped', metadata: { ...t.metadata, skipped_because: 'approval_expired' } }));
  next = {
    ...next,
    timing: plus(next.timing, 'approval_wait_ms', ms - Date.parse(ev.since!)),
    events: [...next.events, { type: 'approval.expired', at: iso(ms), approval_id: approval.approval_id }],
  };
  fail(ctx, tx, next, ms, 'approval_expired', { approval_id: approval.approval_id });
}

/** A cancel (endpoint 4) at `ms` closes the run's timing: the wait or step under way counts up to the cancel. */
export function timingAtCancel(run: Run, ev: SimEventRecord, ms: number): Run {
  let timing: Timing = { ...ZERO_TIMING, ...run.timing };
  if (ev.kind === 'run.start') timing = plus(timing, 'queue_wait_ms', ms - Date.parse(ev.since ?? run.created_at));
  else if (ev.kind === 'approval.decide' || ev.kind === 'approval.expire') timing = plus(timing, 'approval_wait_ms', ms - Date.parse(ev.since!));
  else if (ev.kind === 'step.finish') {
    const step = run.steps.find((s) => s.id === ev.step_id);
    const s = ev.behaviour?.steps[ev.step ?? 0];
    if (step && s) {
      const d = ms - Date.parse(String(step.metadata?.started_at ?? step.created_at));
      timing = plus(plus(timing, TYPE_FIELD[s.step_type], d), 'active_ms', d);
    }
  }
  return closeTiming({ ...run, timing }, ms);
}

/** A deny (endpoint 11, or the simulated reviewer) at `ms` ends the approval wait; the queue wait starts. */
export function timingAtRequeue(run: Run, ev: SimEventRecord, ms: number): Run {
  return { ...run, timing: plus({ ...ZERO_TIMING, ...run.timing }, 'approval_wait_ms', ms - Date.parse(ev.since!)) };
}
