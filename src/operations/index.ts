// Every operation declared once (declare.ts), and what is derived from the declarations: the route modules, the
// OpenAPI catalog rows and the coverage rows. /openapi.json, the coverage report, the typed client (generated from
// /openapi.json) and the test generators all read these lists.
import { bodyReader, endpoint, type ReadBody } from '../pipeline/index.js';
import { Router } from '../pipeline/index.js';
import type { OperationSpec } from '../openapi/index.js';
import type { OperationSpec as CoverageSpec } from '../control/index.js';
import { CONTROL_BODY_LIMIT, endpointSpec, openApiSpec, routePattern, type Operation, type V3Operation } from './declare.js';
import { V3_PUBLIC_OPERATIONS } from './v3-public.js';
import { V3_RELEASE_OPERATIONS } from './v3-releases.js';
import { V3_RUN_OPERATIONS } from './v3-runs.js';
import { V3_PROJECT_OPERATIONS } from './v3-projects.js';
import { V3_USER_OPERATIONS } from './v3-users.js';
import { V3_APPROVAL_OPERATIONS } from './v3-approvals.js';
import { CONTROL_STATE_OPERATIONS } from './control-state.js';
import { CONTROL_OBSERVE_OPERATIONS } from './control-observe.js';
import { CONTROL_RUN_OPERATIONS } from './control-runs.js';
import { CONTROL_PROJECT_OPERATIONS } from './control-projects.js';
import { CONTROL_SIMULATION_OPERATIONS } from './control-simulation.js';
import { CONTROL_SANDBOX_OPERATIONS } from './control-sandboxes.js';
import { CONTROL_REPRODUCE_OPERATIONS } from './control-reproduce.js';
import { CONTROL_DRIFT_OPERATIONS } from './control-drift.js';
import { CONTROL_INSPECT_OPERATIONS } from './control-inspect.js';

export { declare, declareControl, routePattern, type Operation, type V3Operation } from './declare.js';

/** The 20 v3 operations, in the order docs/api.md numbers them (endpoint 1 .. 20). */
export const V3_DECLARATIONS: readonly V3Operation[] = [
  ...V3_PUBLIC_OPERATIONS,
  ...V3_RELEASE_OPERATIONS,
  ...V3_RUN_OPERATIONS,
  ...V3_PROJECT_OPERATIONS,
  ...V3_USER_OPERATIONS,
  ...V3_APPROVAL_OPERATIONS,
].sort((a, b) => a.endpoint - b.endpoint);

/** The /_mock operations (docs/control-surface.md), in the document's order. */
export const CONTROL_DECLARATIONS: readonly Operation[] = [
  ...CONTROL_STATE_OPERATIONS,
  ...CONTROL_OBSERVE_OPERATIONS,
  ...CONTROL_RUN_OPERATIONS,
  ...CONTROL_PROJECT_OPERATIONS,
  ...CONTROL_SIMULATION_OPERATIONS,
  ...CONTROL_SANDBOX_OPERATIONS,
  ...CONTROL_REPRODUCE_OPERATIONS,
  ...CONTROL_DRIFT_OPERATIONS,
  ...CONTROL_INSPECT_OPERATIONS,
];

/** Per path segment, '0' for a literal and '1' for a parameter. */
const shape = (path: string) => path.replace(/[^/]+/g, (s) => (s.startsWith('{') ? '1' : '0'));

/**
 * The routes of `operations`, each the pipeline (pipeline/endpoint.ts) around the declared handler. Where two patterns
 * match one path (`/_mock/requests/export`, `/_mock/requests/{request_id}`), the one with a literal at the first
 * segment where they differ is tried first, as fastify's router prefers a static segment; otherwise in declared order.
 */
export function operationRoutes(operations: readonly Operation[]) {
  const ordered = [...operations].sort((a, b) => (shape(a.path) < shape(b.path) ? -1 : shape(a.path) > shape(b.path) ? 1 : 0));
  return (readBody: ReadBody, bodyLimit: number): Router => {
    const router = new Router();
    let large: ReadBody | undefined;
    for (const op of ordered) {
      const read = op.largeBody ? (large ??= bodyReader(Math.max(bodyLimit, CONTROL_BODY_LIMIT))) : readBody;
      const handle = op.handler(read) as Parameters<typeof endpoint>[2];
      router[op.method](routePattern(op.path), endpoint(read, endpointSpec(op), handle));
    }
    return router;
  };
}

/** The 20 v3 routes (one route module). */
export const v3Routes = operationRoutes(V3_DECLARATIONS);
/** The /_mock routes the catalog documents (the inspector page, undescribed, has its own module). */
export const controlRoutes = operationRoutes(CONTROL_DECLARATIONS);

/** The OpenAPI catalog rows of the 20 v3 operations. */
export const V3_OPERATION_SPECS: OperationSpec[] = V3_DECLARATIONS.map(openApiSpec);
/** The OpenAPI catalog rows of the /_mock operations. */
export const CONTROL_OPERATION_SPECS: OperationSpec[] = CONTROL_DECLARATIONS.map(openApiSpec);

/** An operation's coverage row: every documented status (successes first), its reason codes and transitions. */
export const coverageSpec = (op: V3Operation): CoverageSpec => ({
  operation: op.operationId,
  method: op.method.toUpperCase(),
  path: op.path,
  statuses: [...op.success.map((s) => Number(s.status)), ...op.errors],
  reason_codes: op.reasonCodes,
  transitions: op.transitions ?? [],
});
export type { ClientMethod } from './client-method.js';
