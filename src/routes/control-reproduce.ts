// Control routes that take a session away from the mock: the repro bundle, the HAR export, replayable tests, the client report.
import { Router } from './route-list.js';
import * as v from 'valibot';
import type { Deps } from '../deps.js';
import type { MockControl } from '../control/api.js';
import { bodyReader, endpoint, Reply, type ReadBody } from './endpoint.js';
import { CONTROL_BODY_LIMIT, counts } from './control.js';
import { JournalQuerySchema } from '../schemas/control.js';

const JSON_TYPE = { 'Content-Type': 'application/json; charset=utf-8' };

export function controlReproduceRoutes(deps: Deps, readBody: ReadBody, control: MockControl): Router {
  const router = new Router();
  const readLargeBody = bodyReader(Math.max(deps.config.bodyLimit, CONTROL_BODY_LIMIT));

  router.get(
    '/_mock/bundle',
    endpoint(deps, readBody, { operation: 'controlGetBundle', level: 'public' }, async () => new Reply(200, await control.exportBundleStream(), JSON_TYPE)),
  );
  router.put(
    '/_mock/bundle',
    endpoint(deps, readLargeBody, { operation: 'controlPutBundle', level: 'public', body: v.unknown(), bodyRequired: true }, async ({ body }) => {
      await control.importBundle(body);
      return { restored: true, counts: counts(deps) };
    }),
  );
  router.get(
    '/_mock/requests.har',
    endpoint(deps, readBody, { operation: 'controlRequestsHar', level: 'public', query: JournalQuerySchema }, ({ query }) => {
      const { summary: _summary, ...filter } = query;
      return new Reply(200, control.har(filter), {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': 'attachment; filename="requests.har"',
      });
    }),
  );
  router.get(
    '/_mock/client-report',
    endpoint(deps, readBody, { operation: 'controlClientReport', level: 'public' }, () => control.clientReport()),
  );
  return router;
}
