// Releases: endpoint 10 (pages by generation, newest first).
import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { releaseKey, releasesOf, targetsByRelease } from '../domain/queries.js';
import { keysetPage } from '../domain/pagination.js';
import { releaseView } from '../domain/views.js';
import { ReleasePageQuerySchema } from '../schemas/releases.js';
import { endpoint, type ReadBody } from './endpoint.js';
import { ProjectPath } from './path-params.js';

export function releaseRoutes(deps: Deps, readBody: ReadBody): Router {
  const router = new Router();
  router.get(
    '/api/v3/projects/:project_id/releases',
    endpoint(deps, readBody, { operation: 'listReleases', level: 'viewer', project: true, path: ProjectPath, query: ReleasePageQuerySchema }, ({ path, query }) => {
      const page = keysetPage(releasesOf(deps.store, path.project_id), releaseKey, 1, query.limit, query.cursor);
      const targets = targetsByRelease(deps.store, path.project_id);
      return { items: page.items.map((r) => releaseView(r, targets.get(r.id) ?? [])), next_cursor: page.next_cursor };
    }),
  );
  return router;
}
