// The read-only project views of v3 an admin key may also call: one named connection (2), a release diff (3),
// and the release pages (10).
import { ApiError } from '../errors.js';
import { findConnection, releaseKey, releasesOf, targetsByRelease } from '../domain/queries.js';
import { keysetPage } from '../domain/pagination.js';
import { connectionView, releaseView } from '../domain/views.js';
import { diffRelease } from '../domain/desired-state-store.js';
import { ConnectionBindingResponseSchema } from '../schemas/connections.js';
import { ReleaseDiffResponseSchema } from '../schemas/desired-state.js';
import { ReleaseDiffQuerySchema, ReleasePageQuerySchema } from '../schemas/releases.js';
import { ReleasePageSchema } from '../openapi/schemas.js';
import { BEARER, BEARER_OR_ADMIN_KEY, READ_ERRORS, json } from '../openapi/operation-spec.js';
import { cachedJson } from '../routes/json-text.js';
import { ConnectionPath, ProjectPath, ReleasePath } from '../routes/path-params.js';
import { ADMIN, AUTH, declare } from './declare.js';

export const V3_RELEASE_OPERATIONS = [
  declare({
    operationId: 'getConnection',
    endpoint: 2,
    method: 'get',
    path: '/api/v3/projects/{project_id}/connections/{connection_name}',
    tag: 'connections',
    summary: 'Show one named connection of a project (observed provider state, never a secret)',
    description:
      'Endpoint 2. The exact observed state of one named connection: status, provider reconciliation flags and the free-form `configuration`, `external_identifiers` and `health`. Never a credential or webhook secret. A bearer token or the admin key.',
    security: BEARER_OR_ADMIN_KEY,
    level: 'viewer',
    project: true,
    pathParams: ConnectionPath,
    success: [json(200, 'ConnectionBindingResponseV3', ConnectionBindingResponseSchema, 'The connection binding')],
    errors: READ_ERRORS,
    reasonCodes: [...ADMIN, 'connection_not_found'],
    client: { doc: 'One named connection (bearer or admin key).' },
    handler: () => {
      // A record read again and again is serialized once (per server, shared by every mock: records are immutable; bounded).
      const connectionJson = cachedJson(connectionView);
      return ({ path, deps }) => {
        const c = findConnection(deps.view, path.project_id, path.connection_name);
        if (!c) throw new ApiError('connection_not_found', { affected_resource: `connection:${path.connection_name}` });
        return connectionJson(c);
      };
    },
  }),
  declare({
    operationId: 'diffRelease',
    endpoint: 3,
    method: 'get',
    path: '/api/v3/projects/{project_id}/releases/{release_id}/diff',
    tag: 'releases',
    summary: 'Semantic diff of a release against an explicit baseline or the preceding release',
    description:
      'Endpoint 3. The changes from `baseline_release_id` (or, without it, from the preceding release; for the first release `baseline_release_id` is null and every entity reads `created`) to this release, with their `semantic_diff_fingerprint`. A bearer token or the admin key.',
    security: BEARER_OR_ADMIN_KEY,
    level: 'viewer',
    project: true,
    pathParams: ReleasePath,
    query: ReleaseDiffQuerySchema,
    success: [json(200, 'ProjectReleaseDiffResponseV3', ReleaseDiffResponseSchema, 'The semantic diff')],
    errors: READ_ERRORS,
    reasonCodes: [...ADMIN, 'release_not_found'],
    client: { doc: 'Semantic diff of a release (bearer or admin key).' },
    handler:
      () =>
      ({ path, query, deps }) =>
        diffRelease(deps, path.project_id, path.release_id, query.baseline_release_id),
  }),
  declare({
    operationId: 'listReleases',
    endpoint: 10,
    method: 'get',
    path: '/api/v3/projects/{project_id}/releases',
    tag: 'releases',
    summary: 'List immutable releases by generation, newest first, in cursor pages',
    description:
      'Endpoint 10. Each release carries its desired-state head and its compiled `document`. `limit` 1..200 (default 50); `cursor` is opaque (a tampered cursor is 422); `next_cursor` is null on the last page.',
    security: BEARER,
    level: 'viewer',
    project: true,
    pathParams: ProjectPath,
    query: ReleasePageQuerySchema,
    success: [json(200, 'ReleasePageV3', ReleasePageSchema, 'One page of releases')],
    errors: READ_ERRORS,
    reasonCodes: AUTH,
    client: { doc: 'One page of releases.' },
    handler:
      () =>
      ({ path, query, deps }) => {
        const page = keysetPage(releasesOf(deps.view, path.project_id), releaseKey, 1, query.limit, query.cursor, {
          list: 'releases',
          projectId: path.project_id,
        });
        const targets = targetsByRelease(deps.view, path.project_id);
        return { items: page.items.map((r) => releaseView(r, targets.get(r.id) ?? [])), next_cursor: page.next_cursor };
      },
  }),
];
