// The operation catalog behind /openapi.json: one row per operation, naming the valibot schemas the routes use.
// build.ts turns this table into OpenAPI 3.1; nothing here is written by hand in JSON Schema.
import * as v from 'valibot';
import { Uuid } from '../schemas/common.js';
import { ApprovalListQuerySchema, ApprovalQuerySchema, ApprovalResponseSchema, DenyRequestSchema } from '../schemas/approvals.js';
import { TokenRequestSchema, TokenResponseSchema } from '../schemas/auth.js';
import { ConnectionBindingResponseSchema } from '../schemas/connections.js';
import { PlanRequestSchema, PlanResponseSchema, ReleaseDiffResponseSchema } from '../schemas/desired-state.js';
import { ApplyDesiredStateSchema, CompileReleaseSchema } from '../schemas/control-desired-state.js';
import { AuthCodeRequestSchema, ClockRequestSchema, CreateRunSchema, FaultRequestSchema, JournalQuerySchema, TransitionSchema } from '../schemas/control.js';
import { JobListQuerySchema } from '../schemas/jobs.js';
import { BudgetRequestSchema, BudgetResponseSchema, DeleteProjectRequestSchema, ProjectResponseSchema, TransferRequestSchema } from '../schemas/projects.js';
import { ReleaseDiffQuerySchema, ReleasePageQuerySchema } from '../schemas/releases.js';
import { CancelRequestSchema, RetryRequestSchema, RunDetailQuerySchema, RunDetailResponseSchema, RunResponseSchema } from '../schemas/runs.js';
import { DeleteUserRequestSchema, UserDeleteResponseSchema, UserPageQuerySchema, UserResponseSchema } from '../schemas/users.js';
import { ChatUpdateSchema } from '../domain/chat-webhook.js';
import { BrokerEventSchema } from '../domain/broker-events.js';
import { ApprovalPath, ConnectionPath, ProjectPath, ReleasePath, RunPath, UserPath } from '../routes/path-params.js';
import {
  AnyJsonSchema,
  ApprovalDecisionResponseSchema,
  ApprovalPageSchema,
  BrokerCallbackResponseSchema,
  ChatWebhookResponseSchema,
  JobPageSchema,
  ReleasePageSchema,
  UserPageSchema,
} from './schemas.js';

type AnySchema = v.GenericSchema<unknown, unknown>;
type ObjectSchema = v.ObjectSchema<v.ObjectEntries, undefined>;

/** A schema shown under its own name in components.schemas. */
export interface Named {
  name: string;
  schema: AnySchema;
}
const named = (name: string, schema: AnySchema): Named => ({ name, schema });

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422;

export interface HeaderParam {
  name: string;
  description: string;
  required?: boolean;
}

export interface SuccessResponse {
  status: number | '2XX';
  description: string;
  /** A named JSON body; `null` = no body; `{ contentType }` for non-JSON answers. */
  body: Named | null | { contentType: string };
  headers?: Record<string, { description: string; required: boolean }>;
}

export interface OperationSpec {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI path template. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** 'bearer' = management endpoint (Authorization: Bearer); 'none' = public or control. */
  security: 'bearer' | 'none';
  pathParams?: ObjectSchema;
  query?: ObjectSchema;
  headers?: HeaderParam[];
  body?: { schema: Named; required: boolean };
  success: SuccessResponse[];
  errors: ErrorStatus[];
}

// ---- shared pieces -------------------------------------------------------------------------------------------

const ADMIN_KEY: HeaderParam = {
  name: 'X-Admin-Key',
  description: 'Admin key (alternative to a bearer token on endpoints 2, 3, 13, 18 and 20). A valid key grants every authority; a wrong one is 401 `admin_key_invalid`.',
};
const json = (status: number, name: string, schema: AnySchema, description: string): SuccessResponse => ({ status, description, body: named(name, schema) });

/** Management endpoints: 401 authentication, 403 authority, 404 missing (or not visible), 422 validation. */
const READ_ERRORS: ErrorStatus[] = [401, 403, 404, 422];
/** Management writes add 409 invariants and 413 body limit. */
const WRITE_ERRORS: ErrorStatus[] = [401, 403, 404, 409, 413, 422];

const Project = named('ProjectResponseV3', ProjectResponseSchema);
const Approval = named('ApprovalResponseV3', ApprovalResponseSchema);

// ---- the 20 operations of interface-v3.md -----------------------------------------------------------------------

export const V3_OPERATIONS: OperationSpec[] = [
  {
    operationId: 'exchangeToken',
    method: 'post',
    path: '/api/v3/auth/token',
    tag: 'auth',
    summary: 'Exchange an authorization code (PKCE S256) or rotate a refresh token',
    description: 'Endpoint 1. `grant_type` `authorization_code` needs `code` and `code_verifier`; `refresh_token` needs `refresh_token`. Any failure of the grant is 400 `invalid_grant`; a replayed refresh token revokes its whole family.',
    security: 'none',
    body: { schema: named('InstallerTokenRequest', TokenRequestSchema), required: true },
    success: [
      {
        ...json(200, 'InstallerTokenResponse', TokenResponseSchema, 'Tokens issued'),
        headers: { 'Cache-Control': { description: '`no-store`', required: true } },
      },
    ],
    errors: [400, 413, 422],
  },
  {
    operationId: 'getConnection',
    method: 'get',
    path: '/api/v3/projects/{project_id}/connections/{connection_name}',
    tag: 'connections',
    summary: 'Show one named connection of a project (observed provider state, never a secret)',
    description: 'Endpoint 2.',
    security: 'bearer',
    pathParams: ConnectionPath,
    headers: [ADMIN_KEY],
    success: [json(200, 'ConnectionBindingResponseV3', ConnectionBindingResponseSchema, 'The connection binding')],
    errors: READ_ERRORS,
  },
  {
    operationId: 'diffRelease',
    method: 'get',
    path: '/api/v3/projects/{project_id}/releases/{release_id}/diff',
    tag: 'releases',
    summary: 'Semantic diff of a release against an explicit baseline or the preceding release',
    description: 'Endpoint 3.',
    security: 'bearer',
    pathParams: ReleasePath,
    query: ReleaseDiffQuerySchema,
    headers: [ADMIN_KEY],
    success: [json(200, 'ProjectReleaseDiffResponseV3', ReleaseDiffResponseSchema, 'The semantic diff')],
    errors: READ_ERRORS,
  },
  {
    operationId: 'cancelRun',
    method: 'post',
    path: '/api/v3/projects/{project_id}/runs/{run_id}/cancel',
    tag: 'runs',
    summary: 'Cancel a cancellable run and all its pending checkpoints in one transaction',
    description: 'Endpoint 4. Cancellable: queued, running, waiting_approval (else 409 `run_not_cancellable`). The reason is kept in `result.cancel_reason`.',
    security: 'bearer',
    pathParams: RunPath,
    body: { schema: named('RunCancelRequestV3', CancelRequestSchema), required: false },
    success: [json(200, 'RunDetailResponseV3', RunDetailResponseSchema, 'The cancelled run')],
    errors: WRITE_ERRORS,
  },
  {
    operationId: 'getRun',
    method: 'get',
    path: '/api/v3/projects/{project_id}/runs/{run_id}',
    tag: 'runs',
    summary: 'Show a run with its steps, events, result, usage, release and trace identity',
    description: 'Endpoint 5. A `runtime_mode` that is not the run\'s mode is 404.',
    security: 'bearer',
    pathParams: RunPath,
    query: RunDetailQuerySchema,
    success: [json(200, 'RunDetailResponseV3', RunDetailResponseSchema, 'The run detail')],
    errors: READ_ERRORS,
  },
  {
    operationId: 'retryRun',
    method: 'post',
    path: '/api/v3/projects/{project_id}/runs/{run_id}/retry',
    tag: 'runs',
    summary: 'Retry a failed background run as a new release-pinned durable run',
    description: 'Endpoint 6. Only `failed` runs with surface `background` (else 409 `run_not_retryable`).',
    security: 'bearer',
    pathParams: RunPath,
    body: { schema: named('RunRetryRequestV3', RetryRequestSchema), required: false },
    success: [
      {
        ...json(201, 'RunResponseV3', RunResponseSchema, 'The new run'),
        headers: { Location: { description: 'The new run: `/api/v3/projects/{project_id}/runs/{new_run_id}`', required: true } },
      },
    ],
    errors: WRITE_ERRORS,
  },
  {
    operationId: 'setBudget',
    method: 'put',
    path: '/api/v3/projects/{project_id}/budget',
    tag: 'projects',
    summary: 'Set the project budget (spend limits and funding mode)',
    description: 'Endpoint 7. Every field optional; amounts >= 0; per-user <= per-project and daily <= monthly (422); `clear: true` removes all limits. Each accepted PUT raises `runtime_config_epoch` by one.',
    security: 'bearer',
    pathParams: ProjectPath,
    body: { schema: named('BudgetRequestV3', BudgetRequestSchema), required: false },
    success: [json(200, 'BudgetResponseV3', BudgetResponseSchema, 'The budget after the change')],
    errors: WRITE_ERRORS,
  },
  {
    operationId: 'listUsers',
    method: 'get',
    path: '/api/v3/projects/{project_id}/users',
    tag: 'users',
    summary: 'List app users, newest first, in cursor pages',
    description: 'Endpoint 8. `limit` 1..200 (default 50); `cursor` is opaque (a tampered cursor is 422); `next_cursor` is null on the last page.',
    security: 'bearer',
    pathParams: ProjectPath,
    query: UserPageQuerySchema,
    success: [json(200, 'UserPageV3', UserPageSchema, 'One page of app users')],
    errors: READ_ERRORS,
  },
  {
    operationId: 'planDesiredState',
    method: 'post',
    path: '/api/v3/projects/{project_id}/desired-state/plan',
    tag: 'desired-state',
    summary: 'Validate and diff a proposed desired state (bundle or mutation) without storing anything',
    description: 'Endpoint 9. Exactly one of `bundle` and `mutation` (else 422). `base_revision_id` must be the current head (else 409 `stale_base_revision`); unknown references are 409 `unknown_reference`.',
    security: 'bearer',
    pathParams: ProjectPath,
    body: { schema: named('DesiredStatePlanRequestV3', PlanRequestSchema), required: true },
    success: [json(200, 'DesiredStatePlanResponseV3', PlanResponseSchema, 'The plan')],
    errors: WRITE_ERRORS,
  },
  {
    operationId: 'listReleases',
    method: 'get',
    path: '/api/v3/projects/{project_id}/releases',
    tag: 'releases',
    summary: 'List immutable releases by generation, newest first, in cursor pages',
    description: 'Endpoint 10.',
    security: 'bearer',
    pathParams: ProjectPath,
    query: ReleasePageQuerySchema,
    success: [json(200, 'ReleasePageV3', ReleasePageSchema, 'One page of releases')],
    errors: READ_ERRORS,
  },
  {
    operationId: 'denyApproval',
    method: 'post',
    path: '/api/v3/projects/{project_id}/approvals/{approval_id}/deny',
    tag: 'approvals',
    summary: 'Deny one pending approval',
    description: 'Endpoint 11. 409 `approval_not_pending`, `approval_expired` or `approval_binding_mismatch`. `enqueued` is true when the approval\'s run was waiting and is queued again.',
    security: 'bearer',
    pathParams: ApprovalPath,
    query: ApprovalQuerySchema,
    body: { schema: named('ApprovalDenyRequestV3', DenyRequestSchema), required: false },
    success: [json(200, 'ApprovalDecisionResponseV3', ApprovalDecisionResponseSchema, 'The decision')],
    errors: WRITE_ERRORS,
  },
  {
    operationId: 'deleteProject',
    method: 'delete',
    path: '/api/v3/projects/{project_id}',
    tag: 'projects',
    summary: 'Archive the project (nothing is removed)',
    description: 'Endpoint 12. `confirmation` must equal the project slug (else 409 `confirmation_mismatch`). Deleting an archived project again answers 200.',
    security: 'bearer',
    pathParams: ProjectPath,
    body: { schema: named('ProjectDeleteRequestV3', DeleteProjectRequestSchema), required: true },
    success: [json(200, 'ProjectResponseV3', ProjectResponseSchema, 'The archived project')],
    errors: WRITE_ERRORS,
  },
  {
    operationId: 'transferProject',
    method: 'post',
    path: '/api/v3/projects/{project_id}/transfer',
    tag: 'projects',
    summary: 'Move an empty project to another workspace',
    description: 'Endpoint 13. 409 `project_not_empty`; 404 `workspace_not_found`; owner authority in both workspaces.',
    security: 'bearer',
    pathParams: ProjectPath,
    headers: [ADMIN_KEY],
    body: { schema: named('ProjectTransferRequestV3', TransferRequestSchema), required: true },
    success: [{ status: 200, description: 'The moved project', body: Project }],
    errors: WRITE_ERRORS,
  },
  {
    operationId: 'listJobs',
    method: 'get',
    path: '/api/v3/projects/{project_id}/jobs',
    tag: 'jobs',
    summary: 'List the scheduled jobs of a project',
    description: 'Endpoint 14. At most `limit` items.',
    security: 'bearer',
    pathParams: ProjectPath,
    query: JobListQuerySchema,
    success: [json(200, 'JobPageV3', JobPageSchema, 'The jobs')],
    errors: READ_ERRORS,
  },
  {
    operationId: 'listApprovals',
    method: 'get',
    path: '/api/v3/projects/{project_id}/approvals',
    tag: 'approvals',
    summary: 'List approvals, redacted (never tool arguments)',
    description: 'Endpoint 15. A pending approval past `expires_at` reads and filters as `expired`.',
    security: 'bearer',
    pathParams: ProjectPath,
    query: ApprovalListQuerySchema,
    success: [json(200, 'ApprovalPageV3', ApprovalPageSchema, 'The approvals')],
    errors: READ_ERRORS,
  },
  {
    operationId: 'chatWebhook',
    method: 'post',
    path: '/api/v3/connections/{binding_id}/chatapp/webhook',
    tag: 'webhooks',
    summary: 'Messaging-channel webhook: upsert the app user and enqueue the live agent of the binding',
    description: 'Endpoint 16. Unknown binding 404 `binding_not_found`; wrong or absent secret 401 `webhook_secret_invalid`; no live agent 409 `no_live_agent`. A repeated `update_id` changes nothing and answers `duplicate: true`.',
    security: 'none',
    pathParams: v.object({ binding_id: Uuid }),
    headers: [{ name: 'X-Chatapp-Secret-Token', description: 'The binding-specific webhook secret (constant-time compare); wrong or absent: 401 `webhook_secret_invalid`.' }],
    body: { schema: named('ChatUpdate', ChatUpdateSchema), required: true },
    success: [json(200, 'ChatWebhookResponseV3', ChatWebhookResponseSchema, 'The update was accepted')],
    errors: [401, 404, 409, 413, 422],
  },
  {
    operationId: 'getApproval',
    method: 'get',
    path: '/api/v3/projects/{project_id}/approvals/{approval_id}',
    tag: 'approvals',
    summary: 'Show one approval, redacted',
    description: 'Endpoint 17.',
    security: 'bearer',
    pathParams: ApprovalPath,
    query: ApprovalQuerySchema,
    success: [{ status: 200, description: 'The approval', body: Approval }],
    errors: READ_ERRORS,
  },
  {
    operationId: 'getUser',
    method: 'get',
    path: '/api/v3/projects/{project_id}/users/{user_id}',
    tag: 'users',
    summary: 'Show one app user',
    description: 'Endpoint 18. A deleted user is 404.',
    security: 'bearer',
    pathParams: UserPath,
    headers: [ADMIN_KEY],
    success: [json(200, 'UserResponseV3', UserResponseSchema, 'The app user')],
    errors: READ_ERRORS,
  },
  {
    operationId: 'brokerWebhook',
    method: 'post',
    path: '/api/v3/webhooks/broker',
    tag: 'webhooks',
    summary: 'OAuth connection-broker lifecycle callback: verify, then reconcile',
    description: 'Endpoint 19. `stored` is false for a repeated `event_id` or an unknown connection (nothing changes). A connection of an archived project is read-only: the event is accepted but not stored (so the broker stops retrying).',
    security: 'none',
    headers: [{ name: 'X-Broker-Hmac-Sha256', description: 'Lowercase hex HMAC-SHA256 of the exact raw body with the broker secret; missing or wrong: 401 `broker_signature_invalid`.' }],
    body: { schema: named('BrokerEvent', BrokerEventSchema), required: true },
    success: [json(200, 'BrokerCallbackResponseV3', BrokerCallbackResponseSchema, 'The callback was verified')],
    errors: [401, 413, 422],
  },
  {
    operationId: 'deleteUser',
    method: 'delete',
    path: '/api/v3/projects/{project_id}/users/{user_id}',
    tag: 'users',
    summary: 'Delete an app user, their memory and every retained full-content trace',
    description: 'Endpoint 20. `confirmation` must be exactly `delete-application-user` (else 422).',
    security: 'bearer',
    pathParams: UserPath,
    headers: [ADMIN_KEY],
    body: { schema: named('ApplicationUserDeleteRequestV3', DeleteUserRequestSchema), required: true },
    success: [json(200, 'ApplicationUserDeleteResponseV3', UserDeleteResponseSchema, 'What was deleted')],
    errors: WRITE_ERRORS,
  },
];

// ---- the /_mock control surface (CONTRACT section 8; not part of v3) -------------------------------------------

const ControlAnswer = named('ControlAnswer', AnyJsonSchema);
const ok = (description: string): SuccessResponse => ({ status: '2XX', description, body: ControlAnswer });
const ctl = (
  operationId: string,
  method: OperationSpec['method'],
  path: string,
  summary: string,
  extra: Partial<OperationSpec> = {},
): OperationSpec => ({
  operationId,
  method,
  path: `/_mock${path}`,
  tag: 'control',
  summary,
  security: 'none',
  success: [ok(summary)],
  errors: method === 'get' ? [404, 422] : [404, 409, 413, 422],
  ...extra,
});
const AnyBody = (name: string, required = false) => ({ schema: named(name, v.unknown()), required });

export const CONTROL_OPERATIONS: OperationSpec[] = [
  ctl('controlHealth', 'get', '/health', 'Liveness of the mock and its clock', { errors: [] }),
  ctl('controlReset', 'post', '/reset', 'Back to the loaded fixtures; clears the journal and faults'),
  ctl('controlLoadFixtures', 'post', '/fixtures', 'Load a fixture document, replacing state', { body: AnyBody('FixtureDocument', true) }),
  ctl('controlGetState', 'get', '/state', 'Snapshot of the stored state (journal excluded)', { errors: [] }),
  ctl('controlPutState', 'put', '/state', 'Restore a snapshot taken with GET /_mock/state', { body: AnyBody('StateSnapshot', true) }),
  ctl('controlListRequests', 'get', '/requests', 'The request journal (secrets redacted), filtered by method, path and status', { query: JournalQuerySchema }),
  ctl('controlClearRequests', 'delete', '/requests', 'Clear the request journal'),
  ctl('controlCoverage', 'get', '/coverage', 'Which statuses, reason codes and transitions of the 20 operations the traffic has exercised', { errors: [] }),
  ctl('controlGetClock', 'get', '/clock', 'The mock clock', { errors: [] }),
  ctl('controlSetClock', 'post', '/clock', 'Freeze the clock (`now`) or move it (`advance_ms`)', { body: { schema: named('ClockRequest', ClockRequestSchema), required: true } }),
  ctl('controlListFaults', 'get', '/faults', 'The active faults', { errors: [] }),
  ctl('controlAddFault', 'post', '/faults', 'Inject a fault: status + body, or delay, for the next N matching requests or until cleared', {
    body: { schema: named('FaultRequest', FaultRequestSchema), required: true },
  }),
  ctl('controlClearFaults', 'delete', '/faults', 'Clear every fault'),
  ctl('controlGetDesiredState', 'get', '/projects/{project_id}/desired-state', 'The desired-state head identity and document', { pathParams: ProjectPath }),
  ctl('controlApplyDesiredState', 'post', '/projects/{project_id}/desired-state/apply', 'Commit a mutation or bundle as a new revision', {
    pathParams: ProjectPath,
    body: { schema: named('ApplyDesiredStateRequest', ApplyDesiredStateSchema), required: true },
  }),
  ctl('controlCompileRelease', 'post', '/projects/{project_id}/releases', 'Compile the head into a release, optionally moving a target', {
    pathParams: ProjectPath,
    body: { schema: named('CompileReleaseRequest', CompileReleaseSchema), required: false },
  }),
  ctl('controlCreateRun', 'post', '/projects/{project_id}/runs', 'Create a run in any mode and surface', {
    pathParams: ProjectPath,
    body: { schema: named('ControlCreateRunRequest', CreateRunSchema), required: false },
  }),
  ctl('controlTransitionRun', 'post', '/projects/{project_id}/runs/{run_id}/transition', 'Move a run along a legal lifecycle edge (illegal: 409 `illegal_transition`)', {
    pathParams: RunPath,
    body: { schema: named('ControlTransitionRequest', TransitionSchema), required: true },
  }),
  ctl('controlMintCode', 'post', '/auth/codes', 'Mint an authorization code for a principal and PKCE challenge', {
    body: { schema: named('ControlAuthCodeRequest', AuthCodeRequestSchema), required: true },
  }),
];

// ---- the document and its page ---------------------------------------------------------------------------------

export const DOC_OPERATIONS: OperationSpec[] = [
  {
    operationId: 'getOpenApiDocument',
    method: 'get',
    path: '/openapi.json',
    tag: 'docs',
    summary: 'This OpenAPI 3.1 document',
    security: 'none',
    success: [{ status: 200, description: 'The document', body: named('OpenApiDocument', v.record(v.string(), v.unknown())) }],
    errors: [],
  },
  {
    operationId: 'getDocsPage',
    method: 'get',
    path: '/docs',
    tag: 'docs',
    summary: 'Swagger UI for this document (served from the installed swagger-ui-dist, no CDN)',
    security: 'none',
    success: [{ status: 200, description: 'The page', body: { contentType: 'text/html' } }],
    errors: [],
  },
  {
    operationId: 'getDocsAsset',
    method: 'get',
    path: '/docs/{asset}',
    tag: 'docs',
    summary: 'A static file of the docs page',
    security: 'none',
    pathParams: v.object({ asset: v.string() }),
    success: [{ status: 200, description: 'The file', body: { contentType: '*/*' } }],
    errors: [404],
  },
];
