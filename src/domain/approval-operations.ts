// Denying a tool-call approval (endpoint 11): the checks, the approval's decision and the run's return to the queue, in one transaction.
import type { WriteDeps } from './write-deps.js';
import type { Transaction } from '../storage/index.js';
import { ApiError } from '../errors.js';
import type { RecordOf } from '../schemas/state.js';
import type { RunStep } from '../schemas/runs.js';
import { approvalView, effectiveApprovalStatus } from './views.js';
import { writableProject } from './write-guard.js';

type Approval = RecordOf<'approvals'>;
type Run = RecordOf<'runs'>;

export interface DenyInput {
  projectId: string;
  approvalId: string;
  runtimeMode?: 'live' | 'test';
  bindingFingerprint?: string;
  reason?: string;
}

export interface DenyResult {
  approval: ReturnType<typeof approvalView>;
  enqueued: boolean;
}

/**
 * The run's steps after a denial: the approval checkpoint becomes `failed` (the gate did not pass,
 * which a client can tell apart from a step that never ran) and the tool step it gated `skipped`,
 * as in the demo's already-denied run.
 */
function stepsAfterDenial(steps: RunStep[], approval: Approval): RunStep[] {
  const gate =
    steps.find((s) => s.status === 'pending' && s.step_type === 'approval' && s.metadata?.approval_id === approval.approval_id) ??
    steps.find((s) => s.status === 'pending' && s.step_type === 'approval');
  if (!gate) return steps;
  // The gated tool step: the one that names this approval (simulated runs), else the next pending one named for the tool.
  const tool =
    steps.find((s) => s.status === 'pending' && s.step_type === 'tool' && s.metadata?.gated_by === approval.approval_id) ??
    steps.find((s) => s.status === 'pending' && s.step_type === 'tool' && s.sequence > gate.sequence && s.name === approval.tool_id);
  return steps.map((s) => {
    if (s === gate) return { ...s, status: 'failed' as const, output_summary: { ...s.output_summary, decision: 'denied' } };
    if (s === tool) return { ...s, status: 'skipped' as const, metadata: { ...s.metadata, skipped_because: 'approval_denied' } };
    return s;
  });
}

/**
 * Denies one approval. The check and the write happen in one synchronous transaction, so of many
 * concurrent denies exactly one finds it pending. A refused deny stores nothing: in particular an
 * approval that only reads as expired keeps its stored `pending`.
 */
export async function denyApproval(deps: WriteDeps, input: DenyInput): Promise<DenyResult> {
  return deps.store.transact((tx) => {
    const nowMs = tx.nowMs();
    const [indexed] = tx.where('approvals', 'approval_id', input.approvalId, (a) => a.project_id === input.projectId);
    if (!indexed) throw new ApiError('approval_not_found', { affected_resource: `approval:${input.approvalId}` });
    return denyApprovalTx(deps, tx, input, indexed.id, nowMs);
  });
}

/** The deny's transaction for the approval stored under `recordId`, at `nowMs` (the simulated reviewer denies through it). */
export function denyApprovalTx(deps: WriteDeps, tx: Transaction, input: DenyInput, recordId: string, nowMs: number): DenyResult {
  const now = new Date(nowMs).toISOString();
  const notFound = () => new ApiError('approval_not_found', { affected_resource: `approval:${input.approvalId}` });
  writableProject(tx, input.projectId);
  const a = tx.get('approvals', recordId);
  if (!a || a.project_id !== input.projectId) throw notFound();
  // A runtime_mode filter that does not match hides the approval, as on GET (endpoint 17).
  if (input.runtimeMode && a.runtime_mode !== input.runtimeMode) throw notFound();
  const resource = `approval:${a.approval_id}`;
  const status = effectiveApprovalStatus(a, nowMs);
  if (status === 'expired') throw new ApiError('approval_expired', { affected_resource: resource });
  if (status !== 'pending') {
    throw new ApiError('approval_not_pending', { affected_resource: resource, message: `The approval is ${status}, not pending.` });
  }
  if (input.bindingFingerprint !== undefined && input.bindingFingerprint !== a.binding_fingerprint) {
    throw new ApiError('approval_binding_mismatch', { affected_resource: resource });
  }
  const denied = tx.put('approvals', { ...a, status: 'denied', decided_at: now, decision_reason: input.reason ?? null });

  let enqueued = false;
  const run = a.run_id ? tx.get('runs', a.run_id) : undefined;
  if (run && run.project_id === a.project_id && run.status === 'waiting_approval') {
    // The run waits on every pending approval; it goes back to the queue only when none is left.
    const stillWaiting = tx.where('approvals', 'run_id', run.id, (o) => o.id !== a.id && effectiveApprovalStatus(o, nowMs) === 'pending');
    const events: unknown[] = [...run.events, { type: 'approval.denied', at: now, approval_id: a.approval_id }];
    let next: Run = { ...run, steps: stepsAfterDenial(run.steps, a), events };
    if (stillWaiting.length === 0) {
      events.push({ type: 'run.queued', at: now });
      next = { ...next, status: 'queued' };
      enqueued = true;
      if (deps.runHooks) next = deps.runHooks.requeued(tx, next, nowMs);
    }
    tx.put('runs', next);
  }
  return { approval: approvalView(denied, nowMs), enqueued };
}
