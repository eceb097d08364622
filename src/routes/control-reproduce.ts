// Control routes that take a session away from the mock: the repro bundle, the HAR export, replayable tests, the client report.
import { Router } from './route-list.js';
import * as v from 'valibot';
import { bodyReader, endpoint, Reply, type ReadBody } from './endpoint.js';
import { CONTROL_BODY_LIMIT, counts } from './control.js';
import { JournalQuerySchema } from '../schemas/control.js';

const JSON_TYPE = { 'Content-Type': 'application/json; charset=utf-8' };

export function controlReproduceRoutes(readBody: ReadBody, bodyLimit: number): Router {
  const router = new Router();
  const readLargeBody = bodyReader(Math.max(bodyLimit, CONTROL_BODY_LIMIT));

  router.get(
    '/_mock/bundle',
    endpoint(
      readBody,
      { operation: 'controlGetBundle', level: 'public' },
      async ({ control }) => new Reply(200, await control.exportBundleStream(), JSON_TYPE),
    ),
  );
  router.put(
    '/_mock/bundle',
    endpoint(readLargeBody, { operation: 'controlPutBundle', level: 'public', body: v.unknown(), bodyRequired: true }, async ({ body, control, deps }) => {
      await control.importBundle(body);
      return { restored: true, counts: counts(deps) };
    }),
  );
  router.get(
    '/_mock/requests.har',
    endpoint(readBody, { operation: 'controlRequestsHar', level: 'public', query: JournalQuerySchema }, ({ query, control }) => {
      const { summary: _summary, ...filter } = query;
      return new Reply(200, control.har(filter), {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': 'attachment; filename="requests.har"',
      });
    }),
  );
  router.get(
    '/_mock/client-report',
    endpoint(readBody, { operation: 'controlClientReport', level: 'public' }, ({ control }) => control.clientReport()),
  );
  return router;
}
