// Runs: endpoint 5 (detail).
import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { ApiError } from '../errors.js';
import { inProject } from '../domain/queries.js';
import { runDetailView } from '../domain/views.js';
import { RunDetailQuerySchema } from '../schemas/runs.js';
import { endpoint, type ReadBody } from './endpoint.js';
import { RunPath } from './path-params.js';

export function runRoutes(deps: Deps, readBody: ReadBody): Router {
  const router = new Router();
  router.get(
    '/api/v3/projects/:project_id/runs/:run_id',
    endpoint(deps, readBody, { operation: 'getRun', level: 'viewer', project: true, path: RunPath, query: RunDetailQuerySchema }, ({ path, query }) => {
      const run = inProject(deps.store, 'runs', path.run_id, path.project_id);
      if (!run || (query.runtime_mode && run.runtime_mode !== query.runtime_mode)) {
        throw new ApiError('run_not_found', { affected_resource: `run:${path.run_id}` });
      }
      return runDetailView(run);
    }),
  );
  return router;
}
