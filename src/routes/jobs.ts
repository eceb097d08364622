// Jobs: endpoint 14.
import { Router } from './route-list.js';
import type { Deps } from '../deps.js';
import { jobsOf } from '../domain/queries.js';
import { jobView } from '../domain/views.js';
import { JobListQuerySchema } from '../schemas/jobs.js';
import { endpoint, type ReadBody } from './endpoint.js';
import { ProjectPath } from './path-params.js';

export function jobRoutes(deps: Deps, readBody: ReadBody): Router {
  const router = new Router();
  router.get(
    '/api/v3/projects/:project_id/jobs',
    endpoint(deps, readBody, { operation: 'listJobs', level: 'viewer', project: true, path: ProjectPath, query: JobListQuerySchema }, ({ path, query }) => {
      const jobs = jobsOf(deps.view, path.project_id).filter((j) => !query.status || j.status === query.status);
      return { items: jobs.slice(0, query.limit).map(jobView) };
    }),
  );
  return router;
}
