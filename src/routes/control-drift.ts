// GET /_mock/drift: what shadow mode found, grouped by operation and field, with the target's state and what was dropped.
import { Router } from './route-list.js';
import type { Deps } from '../deps.js';
import type { MockControl } from '../control/api.js';
import { endpoint, type ReadBody } from './endpoint.js';

export function controlDriftRoutes(deps: Deps, readBody: ReadBody, control: MockControl): Router {
  const router = new Router();
  router.get(
    '/_mock/drift',
    endpoint(deps, readBody, { operation: 'controlDrift', level: 'public' }, () => control.drift()),
  );
  return router;
}
