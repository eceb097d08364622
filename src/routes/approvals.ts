// Approvals: endpoints 11 (deny), 15 (list, redacted) and 17 (one approval).
import { Router } from './route-list.js';
import * as v from 'valibot';
import type { Deps } from '../deps.js';
import { ApiError } from '../errors.js';
import { approvalsOf, findApproval } from '../domain/queries.js';
import { approvalView, effectiveApprovalStatus } from '../domain/views.js';
import { denyApproval } from '../domain/approval-operations.js';
import { ApprovalListQuerySchema, ApprovalQuerySchema, DenyRequestSchema } from '../schemas/approvals.js';
import { endpoint, type ReadBody } from './endpoint.js';
import { ApprovalPath, ProjectPath } from './path-params.js';

export function approvalRoutes(deps: Deps, readBody: ReadBody): Router {
  const router = new Router();
  router.get(
    '/api/v3/projects/:project_id/approvals',
    endpoint(
      deps,
      readBody,
      { operation: 'listApprovals', level: 'viewer', project: true, path: ProjectPath, query: ApprovalListQuerySchema },
      ({ path, query }) => {
        const now = deps.clock.nowMs();
        const items = approvalsOf(deps.view, path.project_id).filter(
          (a) => (!query.status || effectiveApprovalStatus(a, now) === query.status) && (!query.runtime_mode || a.runtime_mode === query.runtime_mode),
        );
        return { items: items.slice(0, query.limit).map((a) => approvalView(a, now)) };
      },
    ),
  );
  router.get(
    '/api/v3/projects/:project_id/approvals/:approval_id',
    endpoint(
      deps,
      readBody,
      { operation: 'getApproval', level: 'viewer', project: true, path: ApprovalPath, query: ApprovalQuerySchema },
      ({ path, query }) => {
        const a = findApproval(deps.view, path.project_id, path.approval_id);
        if (!a || (query.runtime_mode && a.runtime_mode !== query.runtime_mode)) {
          throw new ApiError('approval_not_found', { affected_resource: `approval:${path.approval_id}` });
        }
        return approvalView(a, deps.clock.nowMs());
      },
    ),
  );
  router.post(
    '/api/v3/projects/:project_id/approvals/:approval_id/deny',
    endpoint(
      deps,
      readBody,
      { operation: 'denyApproval', level: 'operator', project: true, path: ApprovalPath, query: ApprovalQuerySchema, body: v.optional(DenyRequestSchema, {}) },
      ({ path, query, body }) =>
        denyApproval(deps, {
          projectId: path.project_id,
          approvalId: path.approval_id,
          runtimeMode: query.runtime_mode,
          bindingFingerprint: body.binding_fingerprint,
          reason: body.reason,
        }),
    ),
  );
  return router;
}
