// App users: endpoints 8 (cursor pages), 18 (one user) and 20 (delete one user).
import { Router } from './route-list.js';
import type { Deps } from '../deps.js';
import { ApiError } from '../errors.js';
import { inProject, userKey, usersOf } from '../domain/queries.js';
import { keysetPage } from '../domain/pagination.js';
import { userView } from '../domain/views.js';
import { deleteUser } from '../domain/user-deletion.js';
import { DeleteUserRequestSchema, UserPageQuerySchema } from '../schemas/users.js';
import { cachedJson } from './json-text.js';
import { endpoint, type ReadBody } from './endpoint.js';
import { ProjectPath, UserPath } from './path-params.js';

export function userRoutes(deps: Deps, readBody: ReadBody): Router {
  // A record read again and again is serialized once (per instance; bounded).
  const userJson = cachedJson(userView);
  const router = new Router();
  router.get(
    '/api/v3/projects/:project_id/users',
    endpoint(deps, readBody, { operation: 'listUsers', level: 'viewer', project: true, path: ProjectPath, query: UserPageQuerySchema }, ({ path, query }) => {
      const page = keysetPage(usersOf(deps.view, path.project_id), userKey, 2, query.limit, query.cursor, { list: 'users', projectId: path.project_id });
      return { items: page.items.map(userView), next_cursor: page.next_cursor };
    }),
  );
  router.get(
    '/api/v3/projects/:project_id/users/:user_id',
    endpoint(deps, readBody, { operation: 'getUser', level: 'viewer', adminKey: true, project: true, path: UserPath }, ({ path }) => {
      const user = inProject(deps.view, 'users', path.user_id, path.project_id);
      if (!user || user.status === 'deleted') throw new ApiError('user_not_found', { affected_resource: `user:${path.user_id}` });
      return userJson(user);
    }),
  );
  router.delete(
    '/api/v3/projects/:project_id/users/:user_id',
    endpoint(
      deps,
      readBody,
      { operation: 'deleteUser', level: 'owner', adminKey: true, project: true, path: UserPath, body: DeleteUserRequestSchema, bodyRequired: true },
      ({ path }) => deleteUser(deps, path.project_id, path.user_id),
    ),
  );
  return router;
}
