// The approval operations of v3: deny (11), the redacted list (15) and one approval (17).
import { ApiError } from '../errors.js';
import { approvalsOf, findApproval } from '../domain/queries.js';
import { approvalView, effectiveApprovalStatus } from '../domain/views.js';
import { denyApproval } from '../domain/approval-operations.js';
import { ApprovalListQuerySchema, ApprovalQuerySchema, ApprovalResponseSchema, DenyRequestSchema } from '../schemas/approvals.js';
import { ApprovalDecisionResponseSchema, ApprovalPageSchema } from '../openapi/schemas.js';
import { BEARER, READ_ERRORS, WRITE_ERRORS, json, named } from '../openapi/operation-spec.js';
import { ApprovalPath, ProjectPath } from '../routes/path-params.js';
import { AUTH, declare } from './declare.js';

export const V3_APPROVAL_OPERATIONS = [
  declare({
    operationId: 'denyApproval',
    endpoint: 11,
    method: 'post',
    path: '/api/v3/projects/{project_id}/approvals/{approval_id}/deny',
    tag: 'approvals',
    summary: 'Deny one pending approval',
    description:
      "Endpoint 11. 409 `approval_not_pending`, `approval_expired` or `approval_binding_mismatch`. `enqueued` is true when the approval's run was waiting and is queued again.",
    security: BEARER,
    level: 'operator',
    project: true,
    pathParams: ApprovalPath,
    query: ApprovalQuerySchema,
    body: { schema: named('ApprovalDenyRequestV3', DenyRequestSchema), required: false },
    success: [json(200, 'ApprovalDecisionResponseV3', ApprovalDecisionResponseSchema, 'The decision')],
    errors: WRITE_ERRORS,
    reasonCodes: [
      ...AUTH,
      'approval_not_found',
      'approval_not_pending',
      'approval_expired',
      'approval_binding_mismatch',
      'project_archived',
      'payload_too_large',
    ],
    transitions: ['approval: pending -> denied', 'run: waiting_approval -> queued'],
    client: { doc: 'Deny a pending approval.' },
    handler:
      () =>
      ({ path, query, body, deps }) =>
        denyApproval(deps, {
          projectId: path.project_id,
          approvalId: path.approval_id,
          runtimeMode: query.runtime_mode,
          bindingFingerprint: body.binding_fingerprint,
          reason: body.reason,
        }),
  }),
  declare({
    operationId: 'listApprovals',
    endpoint: 15,
    method: 'get',
    path: '/api/v3/projects/{project_id}/approvals',
    tag: 'approvals',
    summary: 'List approvals, redacted (never tool arguments)',
    description: 'Endpoint 15. A pending approval past `expires_at` reads and filters as `expired`. An unknown `status` or `runtime_mode` filter is 422.',
    security: BEARER,
    level: 'viewer',
    project: true,
    pathParams: ProjectPath,
    query: ApprovalListQuerySchema,
    success: [json(200, 'ApprovalPageV3', ApprovalPageSchema, 'The approvals')],
    errors: READ_ERRORS,
    reasonCodes: AUTH,
    client: { doc: 'Approvals, redacted.' },
    handler:
      () =>
      ({ path, query, deps }) => {
        const now = deps.clock.nowMs();
        const items = approvalsOf(deps.view, path.project_id).filter(
          (a) => (!query.status || effectiveApprovalStatus(a, now) === query.status) && (!query.runtime_mode || a.runtime_mode === query.runtime_mode),
        );
        return { items: items.slice(0, query.limit).map((a) => approvalView(a, now)) };
      },
  }),
  declare({
    operationId: 'getApproval',
    endpoint: 17,
    method: 'get',
    path: '/api/v3/projects/{project_id}/approvals/{approval_id}',
    tag: 'approvals',
    summary: 'Show one approval, redacted',
    description: "Endpoint 17. Redacted: tool arguments are never shown. A `runtime_mode` that is not the approval's mode is 404.",
    security: BEARER,
    level: 'viewer',
    project: true,
    pathParams: ApprovalPath,
    query: ApprovalQuerySchema,
    success: [{ status: 200, description: 'The approval', body: named('ApprovalResponseV3', ApprovalResponseSchema) }],
    errors: READ_ERRORS,
    reasonCodes: [...AUTH, 'approval_not_found'],
    client: { doc: 'One approval, redacted.' },
    handler:
      () =>
      ({ path, query, deps }) => {
        const a = findApproval(deps.view, path.project_id, path.approval_id);
        if (!a || (query.runtime_mode && a.runtime_mode !== query.runtime_mode)) {
          throw new ApiError('approval_not_found', { affected_resource: `approval:${path.approval_id}` });
        }
        return approvalView(a, deps.clock.nowMs());
      },
  }),
];
