// The /_mock control surface (CONTRACT section 8): health, reset, fixtures, state, journal, clock, faults, coverage.
// Mounted only when control is on; like the rest of /_mock these routes need no credentials.
import { Router } from './route-list.js';
import * as v from 'valibot';
import type { Deps } from '../deps.js';
import { invalid } from '../errors.js';
import { ClockRequestSchema, FaultRequestSchema, JournalQuerySchema, RequestPath } from '../schemas/control.js';
import { COLLECTION_NAMES } from '../schemas/state.js';
import { bodyReader, endpoint, Reply, type ReadBody } from './endpoint.js';

/** State documents and fixtures outgrow the v3 body limit; the control surface accepts up to 64 MiB of them. */
export const CONTROL_BODY_LIMIT = 64 * 1024 * 1024;

const AnyBody = v.unknown();

export function controlRoutes(readBody: ReadBody, bodyLimit: number): Router {
  const router = new Router();
  const readLargeBody = bodyReader(Math.max(bodyLimit, CONTROL_BODY_LIMIT));

  router.get(
    '/_mock/health',
    endpoint(readBody, { operation: 'controlHealth', level: 'public' }, ({ deps }) => ({ status: 'ok', now: deps.clock.nowIso() })),
  );

  router.post(
    '/_mock/reset',
    endpoint(readBody, { operation: 'controlReset', level: 'public' }, async ({ control, deps }) => {
      await control.reset();
      return { reset: true, now: deps.clock.nowIso() };
    }),
  );

  router.post(
    '/_mock/fixtures',
    endpoint(readLargeBody, { operation: 'controlLoadFixtures', level: 'public', body: AnyBody, bodyRequired: true }, async ({ body, control, deps }) => {
      await control.loadFixtures(body);
      return { loaded: true, counts: counts(deps) };
    }),
  );

  router.get(
    '/_mock/state',
    endpoint(
      readBody,
      { operation: 'controlGetState', level: 'public' },
      ({ control }) => new Reply(200, control.exportStateStream(), { 'Content-Type': 'application/json; charset=utf-8' }),
    ),
  );

  router.put(
    '/_mock/state',
    endpoint(readLargeBody, { operation: 'controlPutState', level: 'public', body: AnyBody, bodyRequired: true }, async ({ body, control, deps }) => {
      await control.importState(body);
      return { restored: true, counts: counts(deps) };
    }),
  );

  router.get(
    '/_mock/requests',
    endpoint(readBody, { operation: 'controlListRequests', level: 'public', query: JournalQuerySchema }, ({ query, control }) => ({
      items: control.requests(query),
    })),
  );

  router.get(
    '/_mock/requests/:request_id',
    endpoint(readBody, { operation: 'controlGetRequest', level: 'public', path: RequestPath }, ({ path, control }) => control.journalEntry(path.request_id)),
  );

  router.delete(
    '/_mock/requests',
    endpoint(readBody, { operation: 'controlClearRequests', level: 'public' }, ({ control }) => ({ cleared: control.clearRequests() })),
  );

  router.get(
    '/_mock/clock',
    endpoint(readBody, { operation: 'controlGetClock', level: 'public' }, ({ control }) => control.clock()),
  );

  router.post(
    '/_mock/clock',
    endpoint(readBody, { operation: 'controlSetClock', level: 'public', body: ClockRequestSchema, bodyRequired: true }, async ({ body, control }) => {
      const given = (body.now !== undefined ? 1 : 0) + (body.advance_ms !== undefined ? 1 : 0);
      if (given !== 1) throw invalid(['body'], 'Give exactly one of now and advance_ms', 'value_error', body);
      if (body.now !== undefined) await control.setClock(body.now);
      else await control.advanceClock(body.advance_ms!);
      return control.clock();
    }),
  );

  router.get(
    '/_mock/faults',
    endpoint(readBody, { operation: 'controlListFaults', level: 'public' }, ({ control }) => ({ items: control.faults() })),
  );

  router.post(
    '/_mock/faults',
    endpoint(readBody, { operation: 'controlAddFault', level: 'public', body: FaultRequestSchema, bodyRequired: true }, ({ body, control }) =>
      control.addFault(body),
    ),
  );

  router.delete(
    '/_mock/faults',
    endpoint(readBody, { operation: 'controlClearFaults', level: 'public' }, ({ control }) => ({ cleared: control.clearFaults() })),
  );

  router.get(
    '/_mock/coverage',
    endpoint(readBody, { operation: 'controlCoverage', level: 'public' }, ({ control }) => control.coverage()),
  );

  return router;
}

/** Records per collection: the answer of fixture and state loads, so a caller sees what arrived. */
export function counts(deps: Deps): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of COLLECTION_NAMES) out[c] = deps.view.count(c);
  return out;
}
