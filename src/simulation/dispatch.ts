// One event's effect: the handler its kind names, run inside the transaction that executes it, stamped with its due time.
import type { Transaction } from '../storage/index.js';
import type { SimEventRecord } from '../schemas/index.js';
import { decideApproval, expireApproval, finishStep, startRun, type RunContext } from './runs.js';
import { ensureRollover, fireJobEvent, retryJobRun, rollOverEvent, scheduleJobRetry, trafficMessage, type Scheduler } from './sources.js';

/** What executing an event needs of the engine: scheduling, and the history that notes a simulated run's approvals. */
interface Dispatcher extends Scheduler {
  readonly history: { gated(tx: Transaction, runId: string, approvalId: string): void };
}

function context(engine: Dispatcher, tx: Transaction): RunContext {
  return {
    deps: engine.deps,
    seed: engine.settings(tx).seed!,
    schedule: (t, e) => engine.schedule(t, e),
    spent: (t, projectId, ms) => ensureRollover(engine, t, projectId, ms),
    failedJobRun: (t, run, ms) => scheduleJobRetry(engine, t, run, ms),
    gated: (t, runId, approvalId) => engine.history.gated(t, runId, approvalId),
  };
}

/** Runs the handler of `ev`'s kind in `tx` at `ms` (the event's due time). */
export function dispatch(engine: Dispatcher, tx: Transaction, ev: SimEventRecord, ms: number): void {
  switch (ev.kind) {
    case 'run.start':
      return startRun(context(engine, tx), tx, ev, ms);
    case 'step.finish':
      return finishStep(context(engine, tx), tx, ev, ms);
    case 'approval.decide':
      return decideApproval(context(engine, tx), tx, ev, ms);
    case 'approval.expire':
      return expireApproval(context(engine, tx), tx, ev, ms);
    case 'job.retry':
      return retryJobRun(engine, tx, ev, ms);
    case 'job.fire':
      return fireJobEvent(engine, tx, ev, ms);
    case 'traffic.message':
      return trafficMessage(engine, tx, ev, ms);
    case 'budget.rollover':
      return rollOverEvent(engine, tx, ev, ms);
  }
}
