// The app-user operations of v3: cursor pages (8), one user (18) and deleting one (20).
import { ApiError } from '../errors.js';
import { inProject, userKey, usersOf } from '../domain/queries.js';
import { keysetPage } from '../domain/pagination.js';
import { userView } from '../domain/views.js';
import { deleteUser } from '../domain/user-deletion.js';
import { DeleteUserRequestSchema, UserDeleteResponseSchema, UserPageQuerySchema, UserResponseSchema } from '../schemas/users.js';
import { UserPageSchema } from '../openapi/schemas.js';
import { BEARER, BEARER_OR_ADMIN_KEY, READ_ERRORS, WRITE_ERRORS, json, named } from '../openapi/operation-spec.js';
import { cachedJson } from '../routes/json-text.js';
import { ProjectPath, UserPath } from '../routes/path-params.js';
import { ADMIN, AUTH, declare } from './declare.js';

export const V3_USER_OPERATIONS = [
  declare({
    operationId: 'listUsers',
    endpoint: 8,
    method: 'get',
    path: '/api/v3/projects/{project_id}/users',
    tag: 'users',
    summary: 'List app users, newest first, in cursor pages',
    description: 'Endpoint 8. `limit` 1..200 (default 50); `cursor` is opaque (a tampered cursor is 422); `next_cursor` is null on the last page.',
    security: BEARER,
    level: 'viewer',
    project: true,
    pathParams: ProjectPath,
    query: UserPageQuerySchema,
    success: [json(200, 'UserPageV3', UserPageSchema, 'One page of app users')],
    errors: READ_ERRORS,
    reasonCodes: AUTH,
    client: { doc: 'One page of app users.' },
    handler:
      () =>
      ({ path, query, deps }) => {
        const page = keysetPage(usersOf(deps.view, path.project_id), userKey, 2, query.limit, query.cursor, { list: 'users', projectId: path.project_id });
        return { items: page.items.map(userView), next_cursor: page.next_cursor };
      },
  }),
  declare({
    operationId: 'getUser',
    endpoint: 18,
    method: 'get',
    path: '/api/v3/projects/{project_id}/users/{user_id}',
    tag: 'users',
    summary: 'Show one app user',
    description: 'Endpoint 18. A deleted user is 404. A bearer token or the admin key.',
    security: BEARER_OR_ADMIN_KEY,
    level: 'viewer',
    project: true,
    pathParams: UserPath,
    success: [json(200, 'UserResponseV3', UserResponseSchema, 'The app user')],
    errors: READ_ERRORS,
    reasonCodes: [...ADMIN, 'user_not_found'],
    client: { doc: 'One app user (bearer or admin key).' },
    handler: () => {
      // A record read again and again is serialized once (per server, shared by every mock: records are immutable; bounded).
      const userJson = cachedJson(userView);
      return ({ path, deps }) => {
        const user = inProject(deps.view, 'users', path.user_id, path.project_id);
        if (!user || user.status === 'deleted') throw new ApiError('user_not_found', { affected_resource: `user:${path.user_id}` });
        return userJson(user);
      };
    },
  }),
  declare({
    operationId: 'deleteUser',
    endpoint: 20,
    method: 'delete',
    path: '/api/v3/projects/{project_id}/users/{user_id}',
    tag: 'users',
    summary: 'Delete an app user, their memory and every retained full-content trace',
    description:
      'Endpoint 20. `confirmation` must be exactly `delete-application-user` (else 422). Answers the counts of what was deleted. A bearer token or the admin key.',
    security: BEARER_OR_ADMIN_KEY,
    level: 'owner',
    project: true,
    pathParams: UserPath,
    body: { schema: named('ApplicationUserDeleteRequestV3', DeleteUserRequestSchema), required: true },
    success: [json(200, 'ApplicationUserDeleteResponseV3', UserDeleteResponseSchema, 'What was deleted')],
    errors: WRITE_ERRORS,
    reasonCodes: [...ADMIN, 'user_not_found', 'project_archived', 'payload_too_large'],
    transitions: ['user: active -> deleted'],
    client: { doc: 'Delete an app user, their memory and traces (bearer or admin key).' },
    handler:
      () =>
      ({ path, deps }) =>
        deleteUser(deps, path.project_id, path.user_id),
  }),
];
