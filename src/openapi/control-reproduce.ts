// Catalog rows of the /_mock routes that take a session away: repro bundles, HAR, replayable tests, the client report.
import * as v from 'valibot';
import { named } from './operation-spec.js';
import { answer, ctl } from './control-operations.js';
import * as A from './control-schemas.js';

/** GET /_mock/bundle: opaque to clients, who hand it back to PUT /_mock/bundle or createApp({ bundle }). */
export const BundleDocumentSchema = v.looseObject({ format: v.literal('project-runtime-mock/bundle@1') });

export const REPRODUCE_OPERATIONS = [
  ctl('controlGetBundle', 'get', '/bundle', 'A repro bundle: everything needed to continue this session elsewhere', 'One JSON document `{format: "project-runtime-mock/bundle@1", seal, seed, generators, faults, journal, reset_state, state}`: what reset returns to, the stored state (clock and simulation included), the faults with their remaining counts, the seed and how far its generators have drawn, and the journal. Secrets are sealed as in GET /_mock/state. Streamed.', {
    errors: [],
    success: [answer('ReproBundle', BundleDocumentSchema, 'The bundle')],
  }),
  ctl('controlPutBundle', 'put', '/bundle', 'Restore a repro bundle', 'Checks the whole bundle first (format, version, seal, every part: 422 items with `loc`, and nothing changes), then restores all of it; the same next requests then get the answers the mock that wrote it would have given.', {
    body: { schema: named('ReproBundle', BundleDocumentSchema), required: true },
    success: [answer('ControlRestoredAnswer', A.RestoredAnswerSchema)],
  }),
];
