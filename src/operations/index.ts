// Every operation declared once (declare.ts), and what is derived from the declarations: the route module, the
// OpenAPI catalog rows and the coverage rows. /openapi.json, the coverage report, the typed client (generated from
// /openapi.json) and the test generators all read these lists.
import { endpoint, type ReadBody } from '../routes/endpoint.js';
import { Router } from '../routes/route-list.js';
import type { OperationSpec } from '../openapi/operation-spec.js';
import { endpointSpec, openApiSpec, routePattern, type Operation } from './declare.js';
import { V3_PUBLIC_OPERATIONS } from './v3-public.js';
import { V3_RELEASE_OPERATIONS } from './v3-releases.js';
import { V3_RUN_OPERATIONS } from './v3-runs.js';
import { V3_PROJECT_OPERATIONS } from './v3-projects.js';
import { V3_USER_OPERATIONS } from './v3-users.js';
import { V3_APPROVAL_OPERATIONS } from './v3-approvals.js';

export { declare, routePattern, type Operation } from './declare.js';

/** The 20 operations of interface-v3.md, in its order (endpoint 1 .. 20). */
export const V3_DECLARATIONS: readonly Operation[] = [
  ...V3_PUBLIC_OPERATIONS,
  ...V3_RELEASE_OPERATIONS,
  ...V3_RUN_OPERATIONS,
  ...V3_PROJECT_OPERATIONS,
  ...V3_USER_OPERATIONS,
  ...V3_APPROVAL_OPERATIONS,
].sort((a, b) => a.endpoint - b.endpoint);

/** The routes of `operations`, in their order: each the pipeline (routes/endpoint.ts) around the declared handler. */
export function operationRoutes(operations: readonly Operation[]) {
  return (readBody: ReadBody): Router => {
    const router = new Router();
    for (const op of operations) {
      const handle = op.handler(readBody) as Parameters<typeof endpoint>[2];
      router[op.method](routePattern(op.path), endpoint(readBody, endpointSpec(op), handle));
    }
    return router;
  };
}

/** The 20 v3 routes (one route module). */
export const v3Routes = operationRoutes(V3_DECLARATIONS);

/** The OpenAPI catalog rows of the 20 v3 operations. */
export const V3_OPERATION_SPECS: OperationSpec[] = V3_DECLARATIONS.map(openApiSpec);

/** What an operation can answer and change per the contract: the coverage report's yardstick. */
export interface CoverageSpec {
  operation: string;
  method: string;
  path: string;
  statuses: number[];
  reason_codes: string[];
  /** Status transitions as `entity: from -> to`; `none` = the record did not exist, `deleted` = it was removed; `*` = any. */
  transitions: string[];
}

/** An operation's coverage row: every documented status (successes first), its reason codes and transitions. */
export const coverageSpec = (op: Operation): CoverageSpec => ({
  operation: op.operationId,
  method: op.method.toUpperCase(),
  path: op.path,
  statuses: [...op.success.map((s) => Number(s.status)), ...op.errors],
  reason_codes: op.reasonCodes,
  transitions: op.transitions ?? [],
});
