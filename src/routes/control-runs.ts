// Control routes that drive the run lifecycle and mint authorization codes (CONTRACT section 8).
import { Router } from './route-list.js';
import type { Deps } from '../deps.js';
import { AuthCodeRequestSchema, CreateRunSchema, TransitionSchema } from '../schemas/control.js';
import { endpoint, type ReadBody } from './endpoint.js';
import { ProjectPath, RunPath } from './path-params.js';
import type { MockControl } from '../control/api.js';
import * as v from 'valibot';

/** No body creates a queued api run in live mode with every default. */
const OptionalCreateRun = v.optional(CreateRunSchema, () => ({}));

export function controlRunRoutes(deps: Deps, readBody: ReadBody, control: MockControl): Router {
  const router = new Router();
  router.post(
    '/_mock/projects/:project_id/runs',
    endpoint(deps, readBody, { operation: 'controlCreateRun', level: 'public', path: ProjectPath, body: OptionalCreateRun }, ({ path, body }) =>
      control.createRun(path.project_id, body),
    ),
  );
  router.post(
    '/_mock/projects/:project_id/runs/:run_id/transition',
    endpoint(
      deps,
      readBody,
      { operation: 'controlTransitionRun', level: 'public', path: RunPath, body: TransitionSchema, bodyRequired: true },
      ({ path, body }) => control.transitionRun(path.project_id, path.run_id, body),
    ),
  );
  router.post(
    '/_mock/auth/codes',
    endpoint(deps, readBody, { operation: 'controlMintCode', level: 'public', body: AuthCodeRequestSchema, bodyRequired: true }, ({ body }) =>
      control.mintAuthorizationCode(body),
    ),
  );
  return router;
}
