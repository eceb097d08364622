// Runs: endpoints 4 (cancel), 5 (detail) and 6 (retry).
import { Router } from './route-list.js';
import * as v from 'valibot';
import type { Deps } from '../deps.js';
import { ApiError } from '../errors.js';
import { inProject } from '../domain/queries.js';
import { runDetailView, runView } from '../domain/views.js';
import { cancelRun, retryRun } from '../domain/run-operations.js';
import { CancelRequestSchema, RetryRequestSchema, RunDetailQuerySchema } from '../schemas/runs.js';
import { cachedJson } from './json-text.js';
import { endpoint, Reply, type ReadBody } from './endpoint.js';
import { RunPath } from './path-params.js';

export function runRoutes(deps: Deps, readBody: ReadBody): Router {
  // A record read again and again is serialized once (per instance; bounded).
  const runDetailJson = cachedJson(runDetailView);
  const router = new Router();
  router.get(
    '/api/v3/projects/:project_id/runs/:run_id',
    endpoint(deps, readBody, { operation: 'getRun', level: 'viewer', project: true, path: RunPath, query: RunDetailQuerySchema }, ({ path, query }) => {
      const run = inProject(deps.view, 'runs', path.run_id, path.project_id);
      if (!run || (query.runtime_mode && run.runtime_mode !== query.runtime_mode)) {
        throw new ApiError('run_not_found', { affected_resource: `run:${path.run_id}` });
      }
      return runDetailJson(run);
    }),
  );
  // Every field of the cancel, retry, deny and budget bodies is optional, so an absent body reads as {}.
  router.post(
    '/api/v3/projects/:project_id/runs/:run_id/cancel',
    endpoint(
      deps,
      readBody,
      { operation: 'cancelRun', level: 'operator', project: true, path: RunPath, body: v.optional(CancelRequestSchema, {}) },
      async ({ path, body }) => runDetailView(await cancelRun(deps, { projectId: path.project_id, runId: path.run_id, reason: body.reason })),
    ),
  );
  router.post(
    '/api/v3/projects/:project_id/runs/:run_id/retry',
    endpoint(
      deps,
      readBody,
      { operation: 'retryRun', level: 'operator', project: true, path: RunPath, body: v.optional(RetryRequestSchema, {}) },
      async ({ path, body }) => {
        const run = await retryRun(deps, { projectId: path.project_id, runId: path.run_id, metadata: body.metadata, reason: body.reason });
        return new Reply(201, runView(run), { Location: `/api/v3/projects/${run.project_id}/runs/${run.id}` });
      },
    ),
  );
  return router;
}
