// The read-only project views of /_mock (GET /_mock/projects/...): paged state for the inspector page and for tests.
import {
  ControlApprovalPageQuerySchema,
  ControlJobPageQuerySchema,
  ControlPageQuerySchema,
  ControlProjectPageQuerySchema,
  ControlRunPageQuerySchema,
} from '../schemas/index.js';
import { controlSchemas as A } from '../openapi/index.js';
import { ProjectPath, RunPath } from '../pipeline/index.js';
import { answer } from './answers.js';
import { declareControl } from './declare.js';

// One page of a project's records each: the in-process method validates the query again (it is also called directly).
// prettier-ignore
export const CONTROL_PROJECT_OPERATIONS = [
  declareControl({
    operationId: 'controlListProjects',
    method: 'get',
    path: '/_mock/projects',
    summary: 'Every project, newest first (or in the order the state holds them), in pages',
    description: 'Archived projects included. `limit` 1..200 (default 50); `cursor` is the `next_cursor` of the previous page; `order` is `newest` (by creation, the default) or `stored` (the fixture\'s order, then each project created since).',
    query: ControlProjectPageQuerySchema,
    errors: [422],
    success: [answer('ControlProjectPage', A.ProjectPageSchema, 'A page of projects')],
    handler: () => ({ query, control }) => control.projects(query),
  }),
  declareControl({
    operationId: 'controlGetProject',
    method: 'get',
    path: '/_mock/projects/{project_id}',
    summary: 'One project at a glance',
    description: 'The project, its budget (the default one until a budget is set), runs and jobs by status, approvals by their status as read now, how many users and releases, and the releases the `live` and `candidate` targets point at.',
    pathParams: ProjectPath,
    success: [answer('ControlProjectOverview', A.ProjectOverviewSchema, 'The project and its counts')],
    handler: () => ({ path, control }) => control.projectOverview(path.project_id),
  }),
  declareControl({
    operationId: 'controlListRuns',
    method: 'get',
    path: '/_mock/projects/{project_id}/runs',
    summary: "The project's runs, newest first, in pages",
    description: 'Optionally of one `status`. Each item is the run as endpoint 5 shows it, without steps, events and result.',
    pathParams: ProjectPath,
    query: ControlRunPageQuerySchema,
    success: [answer('ControlRunPage', A.RunPageSchema, 'A page of runs')],
    handler: () => ({ path, query, control }) => control.runs(path.project_id, query),
  }),
  declareControl({
    operationId: 'controlGetRun',
    method: 'get',
    path: '/_mock/projects/{project_id}/runs/{run_id}',
    summary: 'One run in full, with its approvals',
    description: 'The run detail (steps, events, result), its surface and user, and every approval it asked for.',
    pathParams: RunPath,
    success: [answer('ControlRunDetail', A.RunInspectSchema, 'The run')],
    handler: () => ({ path, control }) => control.run(path.project_id, path.run_id),
  }),
  declareControl({
    operationId: 'controlListApprovals',
    method: 'get',
    path: '/_mock/projects/{project_id}/approvals',
    summary: "The project's approvals, newest request first, in pages",
    description: '`status` filters by the status as read now: a pending approval past its expiry is `expired`.',
    pathParams: ProjectPath,
    query: ControlApprovalPageQuerySchema,
    success: [answer('ControlApprovalPage', A.ApprovalPageSchema, 'A page of approvals')],
    handler: () => ({ path, query, control }) => control.approvals(path.project_id, query),
  }),
  declareControl({
    operationId: 'controlListUsers',
    method: 'get',
    path: '/_mock/projects/{project_id}/users',
    summary: "The project's app users, newest first, in pages",
    description: 'Deleted users are left out, as endpoint 8 does.',
    pathParams: ProjectPath,
    query: ControlPageQuerySchema,
    success: [answer('ControlUserPage', A.UserPageSchema, 'A page of users')],
    handler: () => ({ path, query, control }) => control.users(path.project_id, query),
  }),
  declareControl({
    operationId: 'controlListJobs',
    method: 'get',
    path: '/_mock/projects/{project_id}/jobs',
    summary: "The project's jobs, newest first, in pages",
    description: 'Optionally of one `status`.',
    pathParams: ProjectPath,
    query: ControlJobPageQuerySchema,
    success: [answer('ControlJobPage', A.JobPageSchema, 'A page of jobs')],
    handler: () => ({ path, query, control }) => control.jobs(path.project_id, query),
  }),
  declareControl({
    operationId: 'controlListReleases',
    method: 'get',
    path: '/_mock/projects/{project_id}/releases',
    summary: "The project's releases, newest generation first, in pages",
    description: 'Each with the targets (`live`, `candidate`) that point at it.',
    pathParams: ProjectPath,
    query: ControlPageQuerySchema,
    success: [answer('ControlReleasePage', A.ReleasePageSchema, 'A page of releases')],
    handler: () => ({ path, query, control }) => control.releases(path.project_id, query),
  }),
];
