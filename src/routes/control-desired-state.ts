// Control routes of the desired state (CONTRACT section 8): read the head, commit a revision, compile a release.
// Mounted only when control is on; like the rest of /_mock they need no credentials.
import { Router } from './route-list.js';
import * as v from 'valibot';
import { applyDesiredState, compileReleaseFromHead, readDesiredState } from '../domain/desired-state-store.js';
import { ApplyDesiredStateSchema, CompileReleaseSchema } from '../schemas/control-desired-state.js';
import { endpoint, type ReadBody } from './endpoint.js';
import { ProjectPath } from './path-params.js';

/** The compile body is optional: no body compiles the head without moving a target. */
const OptionalCompileBody = v.optional(CompileReleaseSchema, () => ({}));

export function controlDesiredStateRoutes(readBody: ReadBody): Router {
  const router = new Router();
  router.get(
    '/_mock/projects/:project_id/desired-state',
    endpoint(readBody, { operation: 'controlGetDesiredState', level: 'public', path: ProjectPath }, ({ path, deps }) =>
      readDesiredState(deps, path.project_id),
    ),
  );
  router.post(
    '/_mock/projects/:project_id/desired-state/apply',
    endpoint(readBody, { operation: 'controlApplyDesiredState', level: 'public', path: ProjectPath, body: ApplyDesiredStateSchema }, ({ path, body, deps }) =>
      applyDesiredState(deps, path.project_id, body),
    ),
  );
  router.post(
    '/_mock/projects/:project_id/releases',
    endpoint(readBody, { operation: 'controlCompileRelease', level: 'public', path: ProjectPath, body: OptionalCompileBody }, ({ path, body, deps }) =>
      compileReleaseFromHead(deps, path.project_id, body),
    ),
  );
  return router;
}
