// Releases: endpoint 10 (pages by generation, newest first) and endpoint 3 (semantic release diff).
import { Router } from './route-list.js';
import type { Deps } from '../deps.js';
import { releaseKey, releasesOf, targetsByRelease } from '../domain/queries.js';
import { keysetPage } from '../domain/pagination.js';
import { releaseView } from '../domain/views.js';
import { diffRelease } from '../domain/desired-state-store.js';
import { ReleaseDiffQuerySchema, ReleasePageQuerySchema } from '../schemas/releases.js';
import { endpoint, type ReadBody } from './endpoint.js';
import { ProjectPath, ReleasePath } from './path-params.js';

export function releaseRoutes(deps: Deps, readBody: ReadBody): Router {
  const router = new Router();
  router.get(
    '/api/v3/projects/:project_id/releases',
    endpoint(
      deps,
      readBody,
      { operation: 'listReleases', level: 'viewer', project: true, path: ProjectPath, query: ReleasePageQuerySchema },
      ({ path, query }) => {
        const page = keysetPage(releasesOf(deps.view, path.project_id), releaseKey, 1, query.limit, query.cursor, {
          list: 'releases',
          projectId: path.project_id,
        });
        const targets = targetsByRelease(deps.view, path.project_id);
        return { items: page.items.map((r) => releaseView(r, targets.get(r.id) ?? [])), next_cursor: page.next_cursor };
      },
    ),
  );
  router.get(
    '/api/v3/projects/:project_id/releases/:release_id/diff',
    endpoint(
      deps,
      readBody,
      { operation: 'diffRelease', level: 'viewer', adminKey: true, project: true, path: ReleasePath, query: ReleaseDiffQuerySchema },
      ({ path, query }) => diffRelease(deps, path.project_id, path.release_id, query.baseline_release_id),
    ),
  );
  return router;
}
