// Catalog rows of the project-level v3 endpoints: connection, releases and their diff, budget, plan, archive, transfer, jobs.
import { ConnectionBindingResponseSchema } from '../schemas/connections.js';
import { PlanRequestSchema, PlanResponseSchema, ReleaseDiffResponseSchema } from '../schemas/desired-state.js';
import { JobListQuerySchema } from '../schemas/jobs.js';
import { BudgetRequestSchema, BudgetResponseSchema, DeleteProjectRequestSchema, ProjectResponseSchema, TransferRequestSchema } from '../schemas/projects.js';
import { ReleaseDiffQuerySchema, ReleasePageQuerySchema } from '../schemas/releases.js';
import { ConnectionPath, ProjectPath, ReleasePath } from '../routes/path-params.js';
import { JobPageSchema, ReleasePageSchema } from './schemas.js';
import { BEARER, BEARER_OR_ADMIN_KEY, READ_ERRORS, WRITE_ERRORS, json, named, type OperationSpec } from './operation-spec.js';

const Project = named('ProjectResponseV3', ProjectResponseSchema);

export const V3_PROJECT_OPERATIONS: OperationSpec[] = [
  {
    operationId: 'getConnection',
    endpoint: 2,
    method: 'get',
    path: '/api/v3/projects/{project_id}/connections/{connection_name}',
    tag: 'connections',
    summary: 'Show one named connection of a project (observed provider state, never a secret)',
    description:
      'Endpoint 2. The exact observed state of one named connection: status, provider reconciliation flags and the free-form `configuration`, `external_identifiers` and `health`. Never a credential or webhook secret. A bearer token or the admin key.',
    security: BEARER_OR_ADMIN_KEY,
    pathParams: ConnectionPath,
    success: [json(200, 'ConnectionBindingResponseV3', ConnectionBindingResponseSchema, 'The connection binding')],
    errors: READ_ERRORS,
  },
  {
    operationId: 'diffRelease',
    endpoint: 3,
    method: 'get',
    path: '/api/v3/projects/{project_id}/releases/{release_id}/diff',
    tag: 'releases',
    summary: 'Semantic diff of a release against an explicit baseline or the preceding release',
    description:
      'Endpoint 3. The changes from `baseline_release_id` (or, without it, from the preceding release; for the first release `baseline_release_id` is null and every entity reads `created`) to this release, with their `semantic_diff_fingerprint`. A bearer token or the admin key.',
    security: BEARER_OR_ADMIN_KEY,
    pathParams: ReleasePath,
    query: ReleaseDiffQuerySchema,
    success: [json(200, 'ProjectReleaseDiffResponseV3', ReleaseDiffResponseSchema, 'The semantic diff')],
    errors: READ_ERRORS,
  },
  {
    operationId: 'setBudget',
    endpoint: 7,
    method: 'put',
    path: '/api/v3/projects/{project_id}/budget',
    tag: 'projects',
    summary: 'Set the project budget (spend limits and funding mode)',
    description:
      'Endpoint 7. Every field optional; amounts >= 0; per-user <= per-project and daily <= monthly (422); `clear: true` removes all limits. Each accepted PUT raises `runtime_config_epoch` by one.',
    security: BEARER,
    pathParams: ProjectPath,
    body: { schema: named('BudgetRequestV3', BudgetRequestSchema), required: false },
    success: [json(200, 'BudgetResponseV3', BudgetResponseSchema, 'The budget after the change')],
    errors: WRITE_ERRORS,
  },
  {
    operationId: 'planDesiredState',
    endpoint: 9,
    method: 'post',
    path: '/api/v3/projects/{project_id}/desired-state/plan',
    tag: 'desired-state',
    summary: 'Validate and diff a proposed desired state (bundle or mutation) without storing anything',
    description:
      'Endpoint 9. Exactly one of `bundle` and `mutation` (else 422). `base_revision_id` must be the current head (else 409 `stale_base_revision`); unknown references are 409 `unknown_reference`. Nothing stored changes.',
    security: BEARER,
    pathParams: ProjectPath,
    body: { schema: named('DesiredStatePlanRequestV3', PlanRequestSchema), required: true },
    success: [json(200, 'DesiredStatePlanResponseV3', PlanResponseSchema, 'The plan')],
    errors: WRITE_ERRORS,
  },
  {
    operationId: 'listReleases',
    endpoint: 10,
    method: 'get',
    path: '/api/v3/projects/{project_id}/releases',
    tag: 'releases',
    summary: 'List immutable releases by generation, newest first, in cursor pages',
    description:
      'Endpoint 10. Each release carries its desired-state head and its compiled `document`. `limit` 1..200 (default 50); `cursor` is opaque (a tampered cursor is 422); `next_cursor` is null on the last page.',
    security: BEARER,
    pathParams: ProjectPath,
    query: ReleasePageQuerySchema,
    success: [json(200, 'ReleasePageV3', ReleasePageSchema, 'One page of releases')],
    errors: READ_ERRORS,
  },
  {
    operationId: 'deleteProject',
    endpoint: 12,
    method: 'delete',
    path: '/api/v3/projects/{project_id}',
    tag: 'projects',
    summary: 'Archive the project (nothing is removed)',
    description: 'Endpoint 12. `confirmation` must equal the project slug (else 409 `confirmation_mismatch`). Deleting an archived project again answers 200.',
    security: BEARER,
    pathParams: ProjectPath,
    body: { schema: named('ProjectDeleteRequestV3', DeleteProjectRequestSchema), required: true },
    success: [json(200, 'ProjectResponseV3', ProjectResponseSchema, 'The archived project')],
    errors: WRITE_ERRORS,
  },
  {
    operationId: 'transferProject',
    endpoint: 13,
    method: 'post',
    path: '/api/v3/projects/{project_id}/transfer',
    tag: 'projects',
    summary: 'Move an empty project to another workspace',
    description: 'Endpoint 13. 409 `project_not_empty`; 404 `workspace_not_found`; owner authority in both workspaces. A bearer token or the admin key.',
    security: BEARER_OR_ADMIN_KEY,
    pathParams: ProjectPath,
    body: { schema: named('ProjectTransferRequestV3', TransferRequestSchema), required: true },
    success: [{ status: 200, description: 'The moved project', body: Project }],
    errors: WRITE_ERRORS,
  },
  {
    operationId: 'listJobs',
    endpoint: 14,
    method: 'get',
    path: '/api/v3/projects/{project_id}/jobs',
    tag: 'jobs',
    summary: 'List the scheduled jobs of a project',
    description: 'Endpoint 14. At most `limit` items (1..200, default 50), each with its free-form `context`, `schedule` and `retry_policy`.',
    security: BEARER,
    pathParams: ProjectPath,
    query: JobListQuerySchema,
    success: [json(200, 'JobPageV3', JobPageSchema, 'The jobs')],
    errors: READ_ERRORS,
  },
];
