// GET /_mock/drift: what shadow mode found, grouped by operation and field, with the target's state and what was dropped.
import { Router } from './route-list.js';
import { endpoint, type ReadBody } from './endpoint.js';

export function controlDriftRoutes(readBody: ReadBody): Router {
  const router = new Router();
  router.get(
    '/_mock/drift',
    endpoint(readBody, { operation: 'controlDrift', level: 'public' }, ({ control }) => control.drift()),
  );
  return router;
}
