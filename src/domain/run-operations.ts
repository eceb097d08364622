// Cancel and retry of runs (endpoints 4 and 6): state checks and every resulting write inside one transaction each.
import type { WriteDeps } from './write-deps.js';
import { ApiError } from '../errors.js';
import type { Transaction } from '../storage/index.js';
import type { RecordOf } from '../schemas/index.js';
import { effectiveApprovalStatus } from './views.js';
import { writableProject } from './write-guard.js';
import { CANCELLABLE } from './run-lifecycle.js';

type Run = RecordOf<'runs'>;

const cancellable: ReadonlySet<Run['status']> = new Set(CANCELLABLE);

/** The run if it belongs to the project; another project's run reads as missing. */
function runInProject(tx: Transaction, projectId: string, runId: string): Run {
  const run = tx.get('runs', runId);
  if (!run || run.project_id !== projectId) throw new ApiError('run_not_found', { affected_resource: `run:${runId}` });
  return run;
}

export interface CancelInput {
  projectId: string;
  runId: string;
  reason?: string;
}

/**
 * Cancels the run, its pending steps and its pending approvals in one transaction (one persisted
 * write), so no reader ever sees a cancelled run with a live checkpoint. Running steps are left as
 * they are: the contract cancels only pending checkpoints.
 */
export async function cancelRun(deps: WriteDeps, input: CancelInput): Promise<Run> {
  return deps.store.transact((tx) => {
    const now = tx.now();
    const nowMs = tx.nowMs();
    writableProject(tx, input.projectId);
    const run = runInProject(tx, input.projectId, input.runId);
    if (!cancellable.has(run.status)) {
      throw new ApiError('run_not_cancellable', {
        affected_resource: `run:${run.id}`,
        message: `The run is ${run.status}; only ${CANCELLABLE.slice(0, -1).join(', ')} or ${CANCELLABLE.at(-1)} runs can be cancelled.`,
      });
    }
    const events: unknown[] = [...run.events, { type: 'run.cancelled', at: now, ...(input.reason !== undefined ? { reason: input.reason } : {}) }];
    // An approval already past its expiry is expired "for every purpose", so it is not cancelled.
    const pending = tx.where('approvals', 'run_id', run.id, (a) => a.project_id === run.project_id && effectiveApprovalStatus(a, nowMs) === 'pending');
    for (const a of pending) {
      tx.put('approvals', { ...a, status: 'cancelled', decided_at: now, decision_reason: input.reason ?? null });
      events.push({ type: 'approval.cancelled', at: now, approval_id: a.approval_id });
    }
    const cancelled: Run = {
      ...run,
      status: 'cancelled',
      steps: run.steps.map((s) => (s.status === 'pending' ? { ...s, status: 'cancelled' as const } : s)),
      result: input.reason !== undefined ? { ...run.result, cancel_reason: input.reason } : { ...run.result },
      events,
    };
    return tx.put('runs', deps.runHooks ? deps.runHooks.cancelled(tx, cancelled, nowMs) : cancelled);
  });
}

export interface RetryInput {
  projectId: string;
  runId: string;
  metadata?: Record<string, unknown>;
  reason?: string;
}

/** Creates a new queued run pinned to the failed run's release; the old run is left untouched. */
export async function retryRun(deps: WriteDeps, input: RetryInput): Promise<Run> {
  return deps.store.transact((tx) => retryRunTx(deps, tx, input, tx.nowMs()));
}

/** The retry's transaction at `nowMs` (the simulation's retry policy uses it at the retry's due time). */
export function retryRunTx(deps: WriteDeps, tx: Transaction, input: RetryInput, nowMs: number): Run {
  const now = new Date(nowMs).toISOString();
  writableProject(tx, input.projectId);
  const old = runInProject(tx, input.projectId, input.runId);
  if (old.status !== 'failed' || old.surface !== 'background') {
    throw new ApiError('run_not_retryable', {
      affected_resource: `run:${old.id}`,
      message: `The run is a ${old.status} ${old.surface} run; only failed background runs can be retried.`,
    });
  }
  const run: Run = {
    id: deps.ids(),
    project_id: old.project_id,
    created_at: now,
    runtime_mode: old.runtime_mode,
    status: 'queued',
    surface: old.surface,
    user_id: old.user_id,
    release_id: old.release_id,
    trace_id: deps.ids(),
    // retry_of and retry_reason come last so a client's metadata cannot forge the lineage.
    request_metadata: { ...old.request_metadata, ...(input.metadata ?? {}), retry_of: old.id, retry_reason: input.reason ?? null },
    result: {},
    events: [],
    steps: [],
    timing: {},
    trace_content_status: 'available',
  };
  tx.put('runs', run);
  deps.runHooks?.queued(tx, run, nowMs, { retryOf: old.id });
  return run;
}
