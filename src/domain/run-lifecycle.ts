// Driving runs through their lifecycle (control surface): creation in any mode and surface, and transitions along legal edges only.
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import canonicalize from 'canonicalize';
import type { WriteDeps } from './write-deps.js';
import { ApiError, invalid } from '../errors.js';
import { parse } from '../validation.js';
import type { Transaction } from '../storage/index.js';
import type { RecordOf } from '../schemas/index.js';
import type { RunStatus, RunStep } from '../schemas/index.js';
import {
  ApprovalInputSchema,
  CreateRunSchema,
  StepInputSchema,
  TransitionSchema,
  type ApprovalInput,
  type CreateRunInput,
  type TransitionInput,
} from '../schemas/index.js';
import { approvalView, effectiveApprovalStatus, runDetailView } from './views.js';
import { inProject } from './queries.js';
import { msAfter } from './clock.js';

/**
 * The legal edges. queued -> running | cancelled; running -> waiting_approval | succeeded | failed | cancelled;
 * waiting_approval -> running (approved) | queued (denied, re-enqueued) | cancelled | failed; terminal states have none.
 */
export const RUN_TRANSITIONS: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
  queued: ['running', 'cancelled'],
  running: ['waiting_approval', 'succeeded', 'failed', 'cancelled'],
  waiting_approval: ['running', 'queued', 'cancelled', 'failed'],
  succeeded: [],
  failed: [],
  cancelled: [],
};

/** The statuses a run can be cancelled from (endpoint 4, the conformance probe): those with an edge to `cancelled`. */
export const CANCELLABLE: readonly RunStatus[] = (Object.keys(RUN_TRANSITIONS) as RunStatus[]).filter((s) => RUN_TRANSITIONS[s].includes('cancelled'));

/** What leaving waiting_approval does to the run's pending approvals (so approval and run never disagree). */
const APPROVAL_OUTCOME: Partial<Record<RunStatus, RecordOf<'approvals'>['status']>> = {
  running: 'approved',
  queued: 'denied',
  cancelled: 'cancelled',
  failed: 'cancelled',
};

/** The event a transition appends (the demo fixture's vocabulary: run.started, run.succeeded, ...). */
export const LIFECYCLE_EVENT: Record<RunStatus, string> = {
  queued: 'run.queued',
  running: 'run.started',
  waiting_approval: 'run.waiting_approval',
  succeeded: 'run.succeeded',
  failed: 'run.failed',
  cancelled: 'run.cancelled',
};

export const isLegalTransition = (from: RunStatus, to: RunStatus): boolean => RUN_TRANSITIONS[from].includes(to);

type StepInput = v.InferOutput<typeof StepInputSchema>;
type RunRecord = RecordOf<'runs'>;

function buildSteps(deps: WriteDeps, run: Pick<RunRecord, 'surface'>, existing: RunStep[], inputs: StepInput[], now: string): RunStep[] {
  let seq = existing.reduce((m, s) => Math.max(m, s.sequence), 0);
  return inputs.map((s) => {
    const step: RunStep = {
      id: s.id ?? deps.ids(),
      created_at: s.created_at ?? now,
      name: s.name,
      sequence: s.sequence ?? ++seq,
      status: s.status,
      step_type: s.step_type,
      surface: s.surface ?? run.surface,
    };
    if (s.sequence !== undefined) seq = Math.max(seq, s.sequence);
    for (const k of ['attempt', 'content_available', 'guardrail_decisions', 'input_summary', 'output_summary', 'metadata'] as const) {
      if (s[k] !== undefined) (step as Record<string, unknown>)[k] = s[k];
    }
    return step;
  });
}

export function pendingApproval(deps: WriteDeps, run: RunRecord, input: ApprovalInput | undefined, now: number): RecordOf<'approvals'> {
  const a = input ?? v.parse(ApprovalInputSchema, {});
  const toolArguments = a.tool_arguments ?? {};
  return {
    id: deps.ids(),
    approval_id: `apr_${deps.tokens(12)}`,
    project_id: run.project_id,
    // A run without a user still needs an approval subject: a fresh id stands for the anonymous caller.
    session_id: a.session_id ?? (typeof run.request_metadata?.session_id === 'string' ? (run.request_metadata.session_id as string) : deps.ids()),
    user_id: a.user_id ?? run.user_id ?? deps.ids(),
    tool_id: a.tool_id,
    channel: a.channel ?? run.surface,
    action_summary: a.action_summary,
    runtime_mode: run.runtime_mode,
    status: 'pending',
    requested_at: new Date(now).toISOString(),
    expires_at: new Date(msAfter(now, a.expires_in_ms, ['body', 'approval', 'expires_in_ms'])).toISOString(),
    run_id: run.id,
    binding_fingerprint: createHash('sha256')
      .update(canonicalize({ tool_id: a.tool_id, tool_arguments: a.tool_arguments ?? null }) ?? '')
      .digest('hex'),
    decided_at: null,
    decision_reason: null,
    tool_arguments: toolArguments,
  };
}

/** The answer of both control run routes: the run detail, plus surface, user and the approval a transition opened. */
function runAnswer(run: RunRecord, approval: RecordOf<'approvals'> | undefined, nowMs: number) {
  const out: ReturnType<typeof runDetailView> & Pick<RunRecord, 'surface'> & { user_id: string | null; approval?: ReturnType<typeof approvalView> } = {
    ...runDetailView(run),
    surface: run.surface,
    user_id: run.user_id ?? null,
  };
  if (approval) out.approval = approvalView(approval, nowMs);
  return out;
}

const usageOf = (b: { cost_usd?: number; input_tokens?: number; output_tokens?: number; latency_ms?: number; trace_id?: string | null }) => {
  const out: Partial<RunRecord> = {};
  for (const k of ['cost_usd', 'input_tokens', 'output_tokens', 'latency_ms', 'trace_id'] as const)
    if (b[k] !== undefined) (out as Record<string, unknown>)[k] = b[k];
  return out;
};

export async function createRun(deps: WriteDeps, projectId: string, input: CreateRunInput) {
  const body = parse(CreateRunSchema, input, 'body');
  if (body.simulate && body.status !== 'queued') throw invalid(['body', 'simulate'], 'Only a queued run can be simulated', 'value_error', true);
  return deps.store.transact((tx: Transaction) => {
    const nowMs = tx.nowMs();
    const now = new Date(nowMs).toISOString();
    if (!tx.get('projects', projectId)) throw new ApiError('project_not_found', { affected_resource: `project:${projectId}` });
    if (body.id && tx.get('runs', body.id))
      throw new ApiError('duplicate_reference', { message: `Run ${body.id} already exists.`, affected_resource: `run:${body.id}` });
    let releaseId = body.release_id;
    if (releaseId === undefined) releaseId = tx.get('targets', `${projectId}:live`)?.release_id ?? null;
    else if (releaseId !== null && tx.get('releases', releaseId)?.project_id !== projectId) {
      throw new ApiError('release_not_found', { affected_resource: `release:${releaseId}` });
    }
    if (body.user_id && tx.get('users', body.user_id)?.project_id !== projectId)
      throw new ApiError('user_not_found', { affected_resource: `user:${body.user_id}` });
    const base = { surface: body.surface };
    const run: RunRecord = {
      id: body.id ?? deps.ids(),
      project_id: projectId,
      created_at: body.created_at ?? now,
      runtime_mode: body.runtime_mode,
      status: body.status,
      surface: body.surface,
      release_id: releaseId,
      user_id: body.user_id,
      request_metadata: body.request_metadata,
      result: body.result,
      events: body.events,
      steps: buildSteps(deps, base, [], body.steps, now),
      timing: body.timing,
      trace_content_status: body.trace_content_status ?? 'available',
      trace_id: null,
      ...usageOf(body),
    };
    tx.put('runs', run);
    const approval = run.status === 'waiting_approval' ? tx.put('approvals', pendingApproval(deps, run, body.approval, nowMs)) : undefined;
    if (body.simulate) deps.runHooks?.queued(tx, run, nowMs, { explicit: true });
    return runAnswer(run, approval, nowMs);
  });
}

export async function transitionRun(deps: WriteDeps, projectId: string, runId: string, input: TransitionInput) {
  const body = parse(TransitionSchema, input, 'body');
  return deps.store.transact((tx: Transaction) => {
    const nowMs = tx.nowMs();
    const now = new Date(nowMs).toISOString();
    if (!tx.get('projects', projectId)) throw new ApiError('project_not_found', { affected_resource: `project:${projectId}` });
    const run = inProject(tx, 'runs', runId, projectId);
    if (!run) throw new ApiError('run_not_found', { affected_resource: `run:${runId}` });
    if (!isLegalTransition(run.status, body.to)) {
      const legal = RUN_TRANSITIONS[run.status];
      throw new ApiError('illegal_transition', {
        affected_resource: `run:${runId}`,
        message: `A ${run.status} run cannot move to ${body.to}; legal: ${legal.length ? legal.join(', ') : 'none (terminal)'}.`,
      });
    }
    let steps = [...(run.steps ?? []), ...buildSteps(deps, run, run.steps ?? [], body.steps, now)];
    // Cancelling settles the pending checkpoints, as the cancel endpoint does.
    if (body.to === 'cancelled') steps = steps.map((s) => (s.status === 'pending' ? { ...s, status: 'cancelled' } : s));
    const next: RunRecord = {
      ...run,
      status: body.to,
      steps,
      // The lifecycle event first, as the real service records it; the caller's events follow.
      events: [...(run.events ?? []), { type: LIFECYCLE_EVENT[body.to], at: now }, ...body.events],
      timing: body.timing ? { ...run.timing, ...body.timing } : run.timing,
      result: body.result ? { ...run.result, ...body.result } : run.result,
      ...usageOf(body),
    };
    tx.put('runs', next);
    // A run moved by hand is no longer the simulation's: its pending event goes.
    deps.runHooks?.detached(tx, runId);
    const outcome = run.status === 'waiting_approval' ? APPROVAL_OUTCOME[body.to] : body.to === 'cancelled' ? 'cancelled' : undefined;
    if (outcome) {
      // An approval already past its expiry is expired "for every purpose" and stays as it is.
      for (const a of tx.where('approvals', 'run_id', runId, (a) => effectiveApprovalStatus(a, nowMs) === 'pending')) {
        tx.put('approvals', { ...a, status: outcome, decided_at: now, decision_reason: a.decision_reason ?? `run moved to ${body.to} by the control surface` });
      }
    }
    const approval = body.to === 'waiting_approval' ? tx.put('approvals', pendingApproval(deps, next, body.approval, nowMs)) : undefined;
    return runAnswer(next, approval, nowMs);
  });
}
