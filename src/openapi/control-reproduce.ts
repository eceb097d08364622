// Catalog rows of the /_mock routes that take a session away: repro bundles, HAR, replayable tests, the client report.
import * as v from 'valibot';
import { named } from './operation-spec.js';
import { answer, ctl } from './control-operations.js';
import * as A from './control-schemas.js';
import { JournalQuerySchema } from '../schemas/control.js';

/** GET /_mock/bundle: opaque to clients, who hand it back to PUT /_mock/bundle or createApp({ bundle }). */
export const BundleDocumentSchema = v.looseObject({ format: v.literal('project-runtime-mock/bundle@1') });

/** HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): `log.entries` with request, response and timings. */
export const HarDocumentSchema = v.object({
  log: v.looseObject({
    version: v.literal('1.2'),
    creator: v.object({ name: v.string(), version: v.string() }),
    entries: v.array(v.looseObject({ startedDateTime: v.string(), time: v.number(), request: v.looseObject({}), response: v.looseObject({}) })),
    _journal: v.object({ entries: v.number(), left: v.number() }),
  }),
});

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Severity = v.picklist(['error', 'warning']);

/** GET /_mock/client-report. */
export const ClientReportSchema = v.object({
  findings: v.array(v.object({ rule: v.string(), severity: Severity, message: v.string(), principal: v.string(), entries: v.array(Count) })),
  rules: v.array(v.object({ rule: v.string(), severity: Severity, description: v.string(), checked: Count })),
  journal: v.object({ entries: Count, left: Count }),
});

export const REPRODUCE_OPERATIONS = [
  ctl(
    'controlGetBundle',
    'get',
    '/bundle',
    'A repro bundle: everything needed to continue this session elsewhere',
    'One JSON document `{format: "project-runtime-mock/bundle@1", seal, seed, generators, faults, journal, reset_state, state}`: what reset returns to, the stored state (clock and simulation included), the faults with their remaining counts, the seed and how far its generators have drawn, and the journal. Secrets are sealed as in GET /_mock/state. Streamed.',
    {
      errors: [],
      success: [answer('ReproBundle', BundleDocumentSchema, 'The bundle')],
    },
  ),
  ctl(
    'controlPutBundle',
    'put',
    '/bundle',
    'Restore a repro bundle',
    'Checks the whole bundle first (format, version, seal, every part: 422 items with `loc`, and nothing changes), then restores all of it; the same next requests then get the answers the mock that wrote it would have given.',
    {
      body: { schema: named('ReproBundle', BundleDocumentSchema), required: true },
      success: [answer('ControlRestoredAnswer', A.RestoredAnswerSchema)],
    },
  ),
  ctl(
    'controlRequestsHar',
    'get',
    '/requests.har',
    'The journal as HAR 1.2, redacted as the journal is',
    "Takes the journal's filters (`method`, `path`, `status`, `after`, `limit`). Each entry carries `_journal_id` and `_operation`; `log._journal` says how many entries it holds and how many had left the bounded journal. Imports into a browser's network panel.",
    {
      query: JournalQuerySchema,
      errors: [422],
      success: [answer('HarDocument', HarDocumentSchema, 'The HAR document')],
    },
  ),
  ctl(
    'controlClientReport',
    'get',
    '/client-report',
    'How the client under test behaved: findings of each rule over the journal',
    'Seven rules, each measured on the mock clock: `refresh_token_reused`, `code_reused` and `retry_after_ignored` (errors), `expired_token_resent`, `retried_final_error`, `hot_polling` and `unbounded_concurrency` (warnings). Each finding names its principal and the journal ids that show it; `rules` says how many entries each rule looked at, `journal` how many entries the report read and how many had left the bounded journal.',
    {
      errors: [],
      success: [answer('ClientReport', ClientReportSchema, 'The report')],
    },
  ),
];
