// Read-only, paged views of the state per project for the control surface (GET /_mock/projects/...) and the inspector
// page: the v3 views and keyset pages over the same indexes the v3 lists use, without v3 credentials.
import type { Deps } from '../deps.js';
import { ApiError } from '../errors.js';
import { keysetPage } from '../domain/index.js';
import {
  approvalsOf,
  jobsOf,
  projectKey,
  projectsSorted,
  releaseKey,
  releasesOf,
  runKey,
  runsOf,
  targetsByRelease,
  userKey,
  usersOf,
} from '../domain/index.js';
import { approvalView, budgetView, effectiveApprovalStatus, jobView, projectView, releaseView, runDetailView, runView, userView } from '../domain/index.js';
import { defaultBudget, readDesiredState, type DesiredStateView } from '../domain/index.js';
import { ApprovalStatus } from '../schemas/index.js';
import { JobStatus } from '../schemas/index.js';
import { RunStatus } from '../schemas/index.js';
import {
  ControlApprovalPageQuerySchema,
  ControlJobPageQuerySchema,
  ControlPageQuerySchema,
  ControlProjectPageQuerySchema,
  ControlRunPageQuerySchema,
  type ControlApprovalPageQuery,
  type ControlJobPageQuery,
  type ControlPageQuery,
  type ControlProjectPageQuery,
  type ControlRunPageQuery,
} from '../schemas/index.js';
import { parse } from '../validation.js';
import type { RecordOf } from '../schemas/index.js';

/** A project's place in the state (fixture order, then creation): a key that sorts descending as the positions ascend. */
type Placed = RecordOf<'projects'> & { readonly place: string };
const storedKey = (p: Placed) => [p.place, p.id];
const projectsStored = (view: Deps['view']): Placed[] =>
  view.derive('projects:stored', ['projects'], () => [...view.values('projects')].map((p, i) => ({ ...p, place: String(1e15 - i) })));

const approvalKey = (a: RecordOf<'approvals'>) => [a.requested_at, a.id];
const jobKey = (j: RecordOf<'jobs'>) => [j.created_at, j.id];

/** Every value of a status picklist with 0, then the counts: the answer always names all of them. */
function tally(options: readonly string[], statuses: Iterable<string>): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(options.map((s) => [s, 0]));
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

export class ProjectReads {
  constructor(private readonly deps: Deps) {}

  private project(projectId: string): RecordOf<'projects'> {
    const p = this.deps.view.get('projects', projectId);
    if (!p) throw new ApiError('project_not_found', { affected_resource: `project:${projectId}` });
    return p;
  }

  /** Every project (archived ones too), newest first or in the order the state holds them, in keyset pages. */
  projects(query: Partial<ControlProjectPageQuery> = {}) {
    const q = parse(ControlProjectPageQuerySchema, query, 'query');
    const page =
      q.order === 'stored'
        ? keysetPage(projectsStored(this.deps.view), storedKey, 2, q.limit, q.cursor, { list: 'control:projects:stored' })
        : keysetPage(projectsSorted(this.deps.view), projectKey, 2, q.limit, q.cursor, { list: 'control:projects' });
    return { items: page.items.map(projectView), next_cursor: page.next_cursor };
  }

  /**
   * One project at a glance: the project, its budget (the default one until a budget is set), runs and jobs by
   * status, approvals by their status as read now, how many users and releases, and what the targets point at.
   */
  projectOverview(projectId: string) {
    const { store } = this.deps;
    const project = this.project(projectId);
    const runs = runsOf(store, projectId);
    const now = this.deps.clock.nowMs();
    const targets = (name: 'live' | 'candidate') => store.get('targets', `${projectId}:${name}`)?.release_id ?? null;
    return {
      project: projectView(project),
      budget: budgetView(store.get('budgets', projectId) ?? defaultBudget(projectId)),
      runs: Object.fromEntries(RunStatus.options.map((s) => [s, runs.byStatus.get(s)?.length ?? 0])),
      approvals: tally(
        ApprovalStatus.options,
        approvalsOf(store, projectId).map((a) => effectiveApprovalStatus(a, now)),
      ),
      jobs: tally(
        JobStatus.options,
        jobsOf(store, projectId).map((j) => j.status),
      ),
      users: usersOf(store, projectId).length,
      releases: releasesOf(store, projectId).length,
      targets: { live: targets('live'), candidate: targets('candidate') },
    };
  }

  /** The project's runs, newest first, optionally of one status. */
  runs(projectId: string, query: Partial<ControlRunPageQuery> = {}) {
    const q = parse(ControlRunPageQuerySchema, query, 'query');
    this.project(projectId);
    const runs = runsOf(this.deps.view, projectId);
    const list = q.status ? (runs.byStatus.get(q.status) ?? []) : runs.all;
    const page = keysetPage(list, runKey, 2, q.limit, q.cursor, { list: 'control:runs', projectId });
    return { items: page.items.map(runView), next_cursor: page.next_cursor };
  }

  /** One run in full (steps, events, result), with its surface, user and every approval it asked for. */
  run(projectId: string, runId: string) {
    this.project(projectId);
    const run = this.deps.view.get('runs', runId);
    if (!run || run.project_id !== projectId) throw new ApiError('run_not_found', { affected_resource: `run:${runId}` });
    const now = this.deps.clock.nowMs();
    const approvals = approvalsOf(this.deps.view, projectId).filter((a) => a.run_id === runId);
    return { ...runDetailView(run), surface: run.surface, user_id: run.user_id ?? null, approvals: approvals.map((a) => approvalView(a, now)) };
  }

  /** The project's approvals, newest request first, optionally of one status as read now (`expired` once past expiry). */
  approvals(projectId: string, query: Partial<ControlApprovalPageQuery> = {}) {
    const q = parse(ControlApprovalPageQuerySchema, query, 'query');
    this.project(projectId);
    const now = this.deps.clock.nowMs();
    const all = approvalsOf(this.deps.view, projectId);
    const list = q.status ? all.filter((a) => effectiveApprovalStatus(a, now) === q.status) : all;
    const page = keysetPage(list, approvalKey, 2, q.limit, q.cursor, { list: 'control:approvals', projectId });
    return { items: page.items.map((a) => approvalView(a, now)), next_cursor: page.next_cursor };
  }

  /** The project's app users (deleted ones left out, as v3 lists them), newest first. */
  users(projectId: string, query: Partial<ControlPageQuery> = {}) {
    const q = parse(ControlPageQuerySchema, query, 'query');
    this.project(projectId);
    const page = keysetPage(usersOf(this.deps.view, projectId), userKey, 2, q.limit, q.cursor, { list: 'users', projectId });
    return { items: page.items.map(userView), next_cursor: page.next_cursor };
  }

  /** The project's jobs, newest first, optionally of one status. */
  jobs(projectId: string, query: Partial<ControlJobPageQuery> = {}) {
    const q = parse(ControlJobPageQuerySchema, query, 'query');
    this.project(projectId);
    const all = jobsOf(this.deps.view, projectId);
    const list = q.status ? all.filter((j) => j.status === q.status) : all;
    const page = keysetPage(list, jobKey, 2, q.limit, q.cursor, { list: 'control:jobs', projectId });
    return { items: page.items.map(jobView), next_cursor: page.next_cursor };
  }

  /** The project's releases, newest generation first, with the targets that point at each. */
  releases(projectId: string, query: Partial<ControlPageQuery> = {}) {
    const q = parse(ControlPageQuerySchema, query, 'query');
    this.project(projectId);
    const page = keysetPage(releasesOf(this.deps.view, projectId), releaseKey, 1, q.limit, q.cursor, { list: 'releases', projectId });
    const targets = targetsByRelease(this.deps.view, projectId);
    return { items: page.items.map((r) => releaseView(r, targets.get(r.id) ?? [])), next_cursor: page.next_cursor };
  }

  /** The project's desired-state head identity and document (GET /_mock/projects/{id}/desired-state). */
  getDesiredState(projectId: string): DesiredStateView {
    return readDesiredState({ store: this.deps.view }, projectId);
  }
}
