// Control routes that drive the run lifecycle and mint authorization codes (CONTRACT section 8).
import { Router } from './route-list.js';
import { AuthCodeRequestSchema, CreateRunSchema, TransitionSchema } from '../schemas/control.js';
import { endpoint, type ReadBody } from './endpoint.js';
import { ProjectPath, RunPath } from './path-params.js';
import * as v from 'valibot';

/** No body creates a queued api run in live mode with every default. */
const OptionalCreateRun = v.optional(CreateRunSchema, () => ({}));

export function controlRunRoutes(readBody: ReadBody): Router {
  const router = new Router();
  router.post(
    '/_mock/projects/:project_id/runs',
    endpoint(readBody, { operation: 'controlCreateRun', level: 'public', path: ProjectPath, body: OptionalCreateRun }, ({ path, body, control }) =>
      control.createRun(path.project_id, body),
    ),
  );
  router.post(
    '/_mock/projects/:project_id/runs/:run_id/transition',
    endpoint(
      readBody,
      { operation: 'controlTransitionRun', level: 'public', path: RunPath, body: TransitionSchema, bodyRequired: true },
      ({ path, body, control }) => control.transitionRun(path.project_id, path.run_id, body),
    ),
  );
  router.post(
    '/_mock/auth/codes',
    endpoint(readBody, { operation: 'controlMintCode', level: 'public', body: AuthCodeRequestSchema, bodyRequired: true }, ({ body, control }) =>
      control.mintAuthorizationCode(body),
    ),
  );
  return router;
}
