// Desired state: endpoint 9 (write-free plan against the project's head revision).
import { Router } from './route-list.js';
import type { Deps } from '../deps.js';
import { planDesiredState } from '../domain/desired-state-store.js';
import { PlanRequestSchema } from '../schemas/desired-state.js';
import { endpoint, type ReadBody } from './endpoint.js';
import { ProjectPath } from './path-params.js';

export function desiredStateRoutes(deps: Deps, readBody: ReadBody): Router {
  const router = new Router();
  router.post(
    '/api/v3/projects/:project_id/desired-state/plan',
    endpoint(
      deps,
      readBody,
      // A plan writes nothing, so an archived (read-only) project may still be planned against.
      { operation: 'planDesiredState', level: 'operator', project: true, allowArchived: true, path: ProjectPath, body: PlanRequestSchema, bodyRequired: true },
      ({ project, body }) => planDesiredState(deps, project, body),
    ),
  );
  return router;
}
