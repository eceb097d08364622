// The /_mock operations on the whole state: health, reset, fixtures, and the stored state out and back in.
import type { Deps } from '../deps.js';
import { COLLECTION_NAMES } from '../schemas/index.js';
import { FixtureSchema } from '../schemas/index.js';
import { controlSchemas as A } from '../openapi/index.js';
import { named, type AnySchema } from '../openapi/index.js';
import type { MockControl } from '../mock-control/index.js';
import { Reply } from '../pipeline/index.js';
import { answer } from './answers.js';
import { declareControl, type HandlerFactory } from './declare.js';

/** Records per collection: the answer of fixture and state loads, so a caller sees what arrived. */
function counts(deps: Deps): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of COLLECTION_NAMES) out[c] = deps.view.count(c);
  return out;
}

export const JSON_TYPE = { 'Content-Type': 'application/json; charset=utf-8' };

/** A whole-state replace from a document the control surface validates itself; answers what `answer` makes of the counts. */
export const replacing =
  <A>(
    replace: (control: MockControl, document: unknown) => Promise<unknown>,
    answer: (counts: Record<string, number>) => A,
  ): HandlerFactory<undefined, undefined, AnySchema, A> =>
  () =>
  async ({ body, deps, control }) => {
    await replace(control, body);
    return answer(counts(deps));
  };

export const CONTROL_STATE_OPERATIONS = [
  declareControl({
    operationId: 'controlHealth',
    method: 'get',
    path: '/_mock/health',
    summary: 'Liveness of the mock and its clock',
    description: 'Answers `{status: "ok", now}` (the mock clock). Needs no control token, so a container health check needs no secret.',
    errors: [],
    tokenFree: true,
    success: [answer('ControlHealth', A.HealthAnswerSchema)],
    client: { name: 'health', doc: '`{status: "ok", now}`.' },
    handler:
      () =>
      ({ deps }) => ({ status: 'ok' as const, now: deps.clock.nowIso() }),
  }),
  declareControl({
    operationId: 'controlReset',
    method: 'post',
    path: '/_mock/reset',
    summary: 'Back to the loaded fixtures; clears the journal and faults',
    description: 'Restores the state the fixtures describe and empties the request journal, the faults and the coverage report.',
    success: [answer('ControlResetAnswer', A.ResetAnswerSchema)],
    client: { name: 'reset', doc: 'Back to the loaded fixtures; also clears the journal, the faults and the coverage report.' },
    handler:
      () =>
      async ({ control }) => ({ reset: true as const, now: await control.reset() }),
  }),
  declareControl({
    operationId: 'controlLoadFixtures',
    method: 'post',
    path: '/_mock/fixtures',
    summary: 'Load a fixture document, replacing state',
    description:
      'Validates the fixture document (a bad field is a 422 located at it, and nothing changes), replaces all state with it, and makes it what reset returns to. Answers the record count per collection.',
    body: { schema: named('FixtureDocument', FixtureSchema), required: true },
    rawBody: true,
    largeBody: true,
    success: [answer('ControlLoadedAnswer', A.LoadedAnswerSchema)],
    client: { name: 'loadFixtures', doc: 'Replaces all state with a fixture document, which reset then returns to.', body: 'fixture' },
    handler: replacing(
      (control, fixture) => control.loadFixtures(fixture),
      (counts) => ({ loaded: true as const, counts }),
    ),
  }),
  declareControl({
    operationId: 'controlGetState',
    method: 'get',
    path: '/_mock/state',
    summary: 'Snapshot of the stored state (journal excluded)',
    description: 'Every collection as JSON; secrets are sealed, so the snapshot can be stored and restored with PUT /_mock/state.',
    errors: [],
    success: [answer('StateSnapshot', A.StateSnapshotSchema, 'The state')],
    client: { name: 'exportState', doc: 'The stored state, secrets sealed: hand it back to importState.' },
    handler:
      () =>
      ({ control }) =>
        new Reply(200, control.exportStateStream(), JSON_TYPE),
  }),
  declareControl({
    operationId: 'controlPutState',
    method: 'put',
    path: '/_mock/state',
    summary: 'Restore a snapshot taken with GET /_mock/state',
    description: 'Validates the snapshot (422 items and no change on bad input) and replaces all state with it.',
    body: { schema: named('StateSnapshot', A.StateSnapshotSchema), required: true },
    rawBody: true,
    largeBody: true,
    success: [answer('ControlRestoredAnswer', A.RestoredAnswerSchema)],
    client: { name: 'importState', body: 'snapshot' },
    handler: replacing(
      (control, snapshot) => control.importState(snapshot),
      (counts) => ({ restored: true as const, counts }),
    ),
  }),
];
