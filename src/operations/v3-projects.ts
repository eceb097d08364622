// The project-level writes of v3 and the job list: budget (7), plan (9), archive (12), transfer (13), jobs (14).
import { setBudget } from '../domain/budget.js';
import { archiveProject, transferProject } from '../domain/project-operations.js';
import { planDesiredState } from '../domain/desired-state-store.js';
import { jobsOf } from '../domain/queries.js';
import { budgetView, jobView, projectView } from '../domain/views.js';
import { PlanRequestSchema, PlanResponseSchema } from '../schemas/desired-state.js';
import { JobListQuerySchema } from '../schemas/jobs.js';
import { BudgetRequestSchema, BudgetResponseSchema, DeleteProjectRequestSchema, ProjectResponseSchema, TransferRequestSchema } from '../schemas/projects.js';
import { JobPageSchema } from '../openapi/schemas.js';
import { BEARER, BEARER_OR_ADMIN_KEY, READ_ERRORS, WRITE_ERRORS, json, named } from '../openapi/operation-spec.js';
import { ProjectPath } from '../routes/path-params.js';
import { ADMIN, AUTH, declare } from './declare.js';

export const V3_PROJECT_OPERATIONS = [
  declare({
    operationId: 'setBudget',
    endpoint: 7,
    method: 'put',
    path: '/api/v3/projects/{project_id}/budget',
    tag: 'projects',
    summary: 'Set the project budget (spend limits and funding mode)',
    description:
      'Endpoint 7. Every field optional; amounts >= 0; per-user <= per-project and daily <= monthly (422); `clear: true` removes all limits. Each accepted PUT raises `runtime_config_epoch` by one.',
    security: BEARER,
    level: 'operator',
    project: true,
    pathParams: ProjectPath,
    body: { schema: named('BudgetRequestV3', BudgetRequestSchema), required: false },
    success: [json(200, 'BudgetResponseV3', BudgetResponseSchema, 'The budget after the change')],
    errors: WRITE_ERRORS,
    reasonCodes: [...AUTH, 'project_archived', 'payload_too_large'],
    client: { doc: 'Set the budget.' },
    handler:
      () =>
      async ({ path, body, deps }) =>
        budgetView(await setBudget(deps, path.project_id, body)),
  }),
  declare({
    operationId: 'planDesiredState',
    endpoint: 9,
    method: 'post',
    path: '/api/v3/projects/{project_id}/desired-state/plan',
    tag: 'desired-state',
    summary: 'Validate and diff a proposed desired state (bundle or mutation) without storing anything',
    description:
      'Endpoint 9. Exactly one of `bundle` and `mutation` (else 422). `base_revision_id` must be the current head (else 409 `stale_base_revision`); unknown references are 409 `unknown_reference`. Nothing stored changes.',
    security: BEARER,
    level: 'operator',
    project: true,
    // A plan writes nothing, so an archived (read-only) project may still be planned against.
    allowArchived: true,
    pathParams: ProjectPath,
    body: { schema: named('DesiredStatePlanRequestV3', PlanRequestSchema), required: true },
    success: [json(200, 'DesiredStatePlanResponseV3', PlanResponseSchema, 'The plan')],
    errors: WRITE_ERRORS,
    reasonCodes: [...AUTH, 'stale_base_revision', 'unknown_reference', 'duplicate_reference', 'payload_too_large'],
    client: { doc: 'Plan a desired state (bundle or mutation) without storing anything.' },
    handler:
      () =>
      ({ project, body, deps }) =>
        planDesiredState(deps, project, body),
  }),
  declare({
    operationId: 'deleteProject',
    endpoint: 12,
    method: 'delete',
    path: '/api/v3/projects/{project_id}',
    tag: 'projects',
    summary: 'Archive the project (nothing is removed)',
    description: 'Endpoint 12. `confirmation` must equal the project slug (else 409 `confirmation_mismatch`). Deleting an archived project again answers 200.',
    security: BEARER,
    level: 'owner',
    project: true,
    // Deleting an archived project again answers 200 with it.
    allowArchived: true,
    pathParams: ProjectPath,
    body: { schema: named('ProjectDeleteRequestV3', DeleteProjectRequestSchema), required: true },
    success: [json(200, 'ProjectResponseV3', ProjectResponseSchema, 'The archived project')],
    errors: WRITE_ERRORS,
    reasonCodes: [...AUTH, 'confirmation_mismatch', 'payload_too_large'],
    transitions: ['project: active -> archived'],
    client: { doc: 'Archive the project (`confirmation` = its slug).' },
    handler:
      () =>
      async ({ path, body, deps }) =>
        projectView(await archiveProject(deps, path.project_id, body.confirmation)),
  }),
  declare({
    operationId: 'transferProject',
    endpoint: 13,
    method: 'post',
    path: '/api/v3/projects/{project_id}/transfer',
    tag: 'projects',
    summary: 'Move an empty project to another workspace',
    description: 'Endpoint 13. 409 `project_not_empty`; 404 `workspace_not_found`; owner authority in both workspaces. A bearer token or the admin key.',
    security: BEARER_OR_ADMIN_KEY,
    level: 'owner',
    project: true,
    pathParams: ProjectPath,
    body: { schema: named('ProjectTransferRequestV3', TransferRequestSchema), required: true },
    success: [{ status: 200, description: 'The moved project', body: named('ProjectResponseV3', ProjectResponseSchema) }],
    errors: WRITE_ERRORS,
    reasonCodes: [...ADMIN, 'workspace_not_found', 'project_not_empty', 'project_archived', 'payload_too_large'],
    client: { doc: 'Move an empty project to another workspace (bearer or admin key).' },
    handler:
      () =>
      async ({ actor, path, body, deps }) =>
        projectView(await transferProject(deps, { actor, projectId: path.project_id, workspaceId: body.workspace_id })),
  }),
  declare({
    operationId: 'listJobs',
    endpoint: 14,
    method: 'get',
    path: '/api/v3/projects/{project_id}/jobs',
    tag: 'jobs',
    summary: 'List the scheduled jobs of a project',
    description: 'Endpoint 14. At most `limit` items (1..200, default 50), each with its free-form `context`, `schedule` and `retry_policy`.',
    security: BEARER,
    level: 'viewer',
    project: true,
    pathParams: ProjectPath,
    query: JobListQuerySchema,
    success: [json(200, 'JobPageV3', JobPageSchema, 'The jobs')],
    errors: READ_ERRORS,
    reasonCodes: AUTH,
    client: { doc: 'The scheduled jobs.' },
    handler:
      () =>
      ({ path, query, deps }) => {
        const jobs = jobsOf(deps.view, path.project_id).filter((j) => !query.status || j.status === query.status);
        return { items: jobs.slice(0, query.limit).map(jobView) };
      },
  }),
];
