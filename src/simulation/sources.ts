// What fires by itself: jobs by cron (and their retries), synthetic chat traffic, and the day and month resets of spend.
import type { Transaction } from '../storage/index.js';
import type { RecordOf } from '../schemas/index.js';
import type { SimEventRecord, SimulationRecord } from '../schemas/index.js';
import { ApiError } from '../errors.js';
import { retryRunTx } from '../domain/index.js';
import type { WriteDeps } from '../deps.js';
import { runKey, type NewEvent } from './runs.js';
import { fireJob, nextRunAfter, retryPolicy } from './jobs.js';
import { gapMs, sendMessage, type SentMessage } from './traffic.js';
import { nextRollover, rollOver } from './spend.js';

type Run = RecordOf<'runs'>;

/** What the sources need of the engine: its collaborators, its settings, and scheduling (the engine is one). */
export interface Scheduler {
  /** The domain's write face: an event handler reads time and state through its transaction only. */
  readonly deps: WriteDeps;
  settings(tx: Transaction): SimulationRecord;
  schedule(tx: Transaction, ev: NewEvent): void;
  queued(tx: Transaction, run: Run, nowMs: number): void;
  /** A synthetic chat message was sent (the timeline shows it). */
  messageSent(m: SentMessage): void;
}
const EVENTS = 'simulation_events' as const;

/** job.fire: a background run for the job, and the job's next firing by its schedule. */
export function fireJobEvent(engine: Scheduler, tx: Transaction, ev: SimEventRecord, ms: number): void {
  const job = tx.get('jobs', ev.job_id!);
  if (!job || job.status !== 'active') return;
  const next = nextRunAfter(job.schedule, ms);
  const run = fireJob(engine.deps, tx, job, ms, next);
  if (run) engine.queued(tx, run, ms);
  if (next !== null) engine.schedule(tx, { key: ev.key, kind: 'job.fire', at: next, job_id: job.id, project_id: job.project_id });
}

/** A failed job run: its retry after the backoff, while the policy allows another attempt. */
export function scheduleJobRetry(engine: Scheduler, tx: Transaction, run: Run, ms: number): void {
  const jobId = run.request_metadata.job_id;
  if (run.surface !== 'background' || typeof jobId !== 'string') return;
  const job = tx.get('jobs', jobId);
  const attempt = Number(run.request_metadata.attempt ?? 1);
  const policy = retryPolicy(job);
  if (job?.status !== 'active' || !(attempt < policy.maxAttempts)) return;
  engine.schedule(tx, {
    key: runKey(run.id),
    kind: 'job.retry',
    at: ms + policy.backoffMs,
    run_id: run.id,
    job_id: jobId,
    project_id: run.project_id,
    count: attempt,
  });
}

/** job.retry: the retry, through endpoint 6's transaction. */
export function retryJobRun(engine: Scheduler, tx: Transaction, ev: SimEventRecord, ms: number): void {
  try {
    retryRunTx(engine.deps, tx, { projectId: ev.project_id!, runId: ev.run_id!, metadata: { attempt: (ev.count ?? 1) + 1 }, reason: 'retry_policy' }, ms);
  } catch (err) {
    // The retry refuses before it writes (an archived project, a run no longer failed): the attempt is not made.
    if (!(err instanceof ApiError)) throw err;
  }
}

/** traffic.message: one synthetic chat message, and the next one of its source. */
export function trafficMessage(engine: Scheduler, tx: Transaction, ev: SimEventRecord, ms: number): void {
  const r = engine.settings(tx);
  const index = ev.traffic ?? 0;
  const t = r.traffic[index];
  if (!t) return;
  const n = ev.count ?? 0;
  const out = sendMessage(engine.deps, tx, r.seed!, index, n, t, ms, (m) => engine.messageSent(m));
  if ('stop' in out) return;
  engine.schedule(tx, {
    key: ev.key,
    kind: 'traffic.message',
    at: ms + gapMs(r.seed!, index, n + 1, t),
    traffic: index,
    count: n + 1,
    project_id: tx.get('connections', t.binding_id)?.project_id,
  });
}

/** Keeps the project's reset event at the earliest boundary its totals need (a day's spend needs the next midnight). */
export function ensureRollover(engine: Scheduler, tx: Transaction, projectId: string, ms: number): void {
  const key = `budget:${projectId}`;
  const next = nextRollover(tx.get('budgets', projectId), ms);
  if (next === null) return;
  const current = tx.get(EVENTS, key);
  if (current && Date.parse(current.at) <= next) return;
  engine.schedule(tx, { key, kind: 'budget.rollover', at: next, project_id: projectId });
}

/** What runs by itself: each active job at its next_run_at (a past one at once), each traffic source, each budget with spend. */
export function ensureSources(engine: Scheduler, tx: Transaction, ms: number): void {
  const r = engine.settings(tx);
  for (const job of tx.where('jobs', 'status', 'active')) {
    const key = `job:${job.id}`;
    if (tx.get(EVENTS, key)) continue;
    engine.schedule(tx, { key, kind: 'job.fire', at: Math.max(Date.parse(job.next_run_at), ms), job_id: job.id, project_id: job.project_id });
  }
  r.traffic.forEach((t, index) => {
    const key = `traffic:${index}`;
    if (tx.get(EVENTS, key)) return;
    engine.schedule(tx, {
      key,
      kind: 'traffic.message',
      at: ms + gapMs(r.seed!, index, 0, t),
      traffic: index,
      count: 0,
      project_id: tx.get('connections', t.binding_id)?.project_id,
    });
  });
  for (const b of tx.filter('budgets', () => true)) ensureRollover(engine, tx, b.project_id, ms);
}

/** budget.rollover: the day's totals reset (and on the 1st the month's); the next reset if spend remains. */
export function rollOverEvent(engine: Scheduler, tx: Transaction, ev: SimEventRecord, ms: number): void {
  const next = nextRollover(rollOver(tx, ev.project_id!, ms), ms);
  if (next !== null) engine.schedule(tx, { key: ev.key, kind: 'budget.rollover', at: next, project_id: ev.project_id });
}
