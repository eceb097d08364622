// Jobs by cron: an active job fires a background run at next_run_at, and next_run_at moves on by its schedule in its time zone (croner).
import { createRequire } from 'node:module';
import type { Cron } from 'croner';
import type { WriteDeps } from '../deps.js';
import type { Transaction } from '../storage/index.js';
import type { RecordOf } from '../schemas/index.js';

type Job = RecordOf<'jobs'>;
type Run = RecordOf<'runs'>;

/** Parsed schedules by pattern and zone; jobs come from fixtures, so a few dozen at most, and the cache is capped anyway. */
const parsed = new Map<string, Cron | Error>();

let cronClass: typeof Cron | undefined;
/**
 * croner's class, required at the first schedule read, once per process: a mock whose fixture has no cron job never
 * loads it. The bundles read it from one file of their own (dist/croner.cjs, scripts/lazy-require.ts).
 */
const CronClass = (): typeof Cron => (cronClass ??= (createRequire(import.meta.url)('croner') as { Cron: typeof Cron }).Cron);

function cronOf(schedule: Record<string, unknown>): Cron | Error {
  const pattern = schedule.cron;
  const timezone = schedule.timezone ?? 'UTC';
  if (typeof pattern !== 'string') return new Error('schedule.cron: a cron pattern (string) is needed');
  if (typeof timezone !== 'string') return new Error('schedule.timezone: an IANA time zone name (string) is needed');
  const key = `${pattern}\u0000${timezone}`;
  let c = parsed.get(key);
  if (!c) {
    try {
      c = new (CronClass())(pattern, { timezone, paused: true });
      // An unknown zone only shows when a date is converted: try one now.
      c.nextRun(new Date(0));
    } catch (err) {
      c = new Error((err as Error).message);
    }
    if (parsed.size >= 1000) parsed.clear();
    parsed.set(key, c);
  }
  return c;
}

/**
 * The first occurrence strictly after `afterMs`, or null (no cron, or one that never matches again). Times are
 * wall-clock in the schedule's zone: a time skipped by a spring-forward change fires when the gap ends, and a
 * time that occurs twice on a fall-back day fires once, at its first occurrence.
 */
export function nextRunAfter(schedule: Record<string, unknown>, afterMs: number): number | null {
  const c = cronOf(schedule);
  if (c instanceof Error) return null;
  return c.nextRun(new Date(afterMs))?.getTime() ?? null;
}

/** What is wrong with a job's schedule, for fixture errors (`jobs[2].schedule.cron: ...`); null when it reads. */
export function scheduleProblem(schedule: Record<string, unknown>): { field: string; message: string } | null {
  if (schedule.cron === undefined) return null;
  const c = cronOf(schedule);
  if (!(c instanceof Error)) return null;
  const field = /^schedule\.timezone/.test(c.message) || /timezone/i.test(c.message) ? 'timezone' : 'cron';
  return { field, message: c.message.replace(/^schedule\.\w+: /, '') };
}

/** The job's retry policy, read defensively (the record's object is free-form). */
export function retryPolicy(job: Job | undefined): { maxAttempts: number; backoffMs: number } {
  const p = (job?.retry_policy ?? {}) as { max_attempts?: unknown; backoff_seconds?: unknown };
  const maxAttempts = typeof p.max_attempts === 'number' && Number.isFinite(p.max_attempts) ? Math.max(1, Math.floor(p.max_attempts)) : 1;
  const backoff = typeof p.backoff_seconds === 'number' && Number.isFinite(p.backoff_seconds) ? Math.max(0, p.backoff_seconds) : 0;
  return { maxAttempts, backoffMs: Math.round(backoff * 1000) };
}

/**
 * One firing: a queued background run for the job's agent and user on its target's release (none if the project
 * is archived or the target points nowhere), and the job's next_run_at moved on (or the job completed when there is
 * no next occurrence). Answers the new run, if any.
 */
export function fireJob(deps: WriteDeps, tx: Transaction, job: Job, ms: number, nextMs: number | null): Run | undefined {
  const now = new Date(ms).toISOString();
  // A job with no next occurrence (no cron, or one that never matches again) has run its course: completed.
  tx.put('jobs', nextMs === null ? { ...job, status: 'completed', updated_at: now } : { ...job, next_run_at: new Date(nextMs).toISOString(), updated_at: now });
  const project = tx.get('projects', job.project_id);
  const target = tx.get('targets', `${job.project_id}:${job.target}`);
  if (!project || project.status === 'archived' || !target) return undefined;
  return tx.put('runs', {
    id: deps.ids(),
    project_id: job.project_id,
    created_at: now,
    runtime_mode: 'live',
    status: 'queued',
    surface: 'background',
    release_id: target.release_id,
    trace_id: deps.ids(),
    user_id: job.user_id,
    request_metadata: { source: 'job', job_id: job.id, job_name: job.name, agent_id: job.agent_id, scheduled_for: job.next_run_at, attempt: 1 },
    result: {},
    events: [],
    steps: [],
    timing: {},
    trace_content_status: 'available',
  });
}
