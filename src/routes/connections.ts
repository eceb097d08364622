// Endpoint 2: one named connection of a project, as observed (never a secret).
import { Router } from './route-list.js';
import type { Deps } from '../deps.js';
import { ApiError } from '../errors.js';
import { findConnection } from '../domain/queries.js';
import { connectionView } from '../domain/views.js';
import { cachedJson } from './json-text.js';
import { endpoint, type ReadBody } from './endpoint.js';
import { ConnectionPath } from './path-params.js';

export function connectionRoutes(deps: Deps, readBody: ReadBody): Router {
  // A record read again and again is serialized once (per instance; bounded).
  const connectionJson = cachedJson(connectionView);
  const router = new Router();
  router.get(
    '/api/v3/projects/:project_id/connections/:connection_name',
    endpoint(deps, readBody, { operation: 'getConnection', level: 'viewer', adminKey: true, project: true, path: ConnectionPath }, ({ path }) => {
      const c = findConnection(deps.view, path.project_id, path.connection_name);
      if (!c) throw new ApiError('connection_not_found', { affected_resource: `connection:${path.connection_name}` });
      return connectionJson(c);
    }),
  );
  return router;
}
