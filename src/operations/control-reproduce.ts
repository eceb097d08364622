// The /_mock operations that take a session away from the mock: the repro bundle, the HAR export, replayable tests, the client report.
import { JournalQuerySchema } from '../schemas/index.js';
import { TestExportQuerySchema } from '../schemas/index.js';
import { controlSchemas as A } from '../openapi/index.js';
import { BundleDocumentSchema, ClientReportSchema, HarDocumentSchema } from '../openapi/index.js';
import { named } from '../openapi/index.js';
import { Reply } from '../pipeline/index.js';
import { answer } from './answers.js';
import { JSON_TYPE, replacing } from './control-state.js';
import { declareControl } from './declare.js';

export const CONTROL_REPRODUCE_OPERATIONS = [
  declareControl({
    operationId: 'controlGetBundle',
    method: 'get',
    path: '/_mock/bundle',
    summary: 'A repro bundle: everything needed to continue this session elsewhere',
    description:
      'One JSON document `{format: "project-runtime-mock/bundle@1", seal, seed, generators, faults, journal, reset_state, state}`: what reset returns to, the stored state (clock and simulation included), the faults with their remaining counts, the seed and how far its generators have drawn, and the journal. Secrets are sealed as in GET /_mock/state. Streamed.',
    errors: [],
    success: [answer('ReproBundle', BundleDocumentSchema, 'The bundle')],
    client: {
      name: 'exportBundle',
      doc: 'A repro bundle of the whole session (secrets sealed): hand it to importBundle, `--bundle FILE` or createApp({ bundle }).',
    },
    handler:
      () =>
      async ({ control }) =>
        new Reply(200, await control.exportBundleStream(), JSON_TYPE),
  }),
  declareControl({
    operationId: 'controlPutBundle',
    method: 'put',
    path: '/_mock/bundle',
    summary: 'Restore a repro bundle',
    description:
      'Checks the whole bundle first (format, version, seal, every part: 422 items with `loc`, and nothing changes), then restores all of it; the same next requests then get the answers the mock that wrote it would have given.',
    body: { schema: named('ReproBundle', BundleDocumentSchema), required: true },
    rawBody: true,
    largeBody: true,
    success: [answer('ControlRestoredAnswer', A.RestoredAnswerSchema)],
    client: { name: 'importBundle', doc: 'Restores a repro bundle whole (a bad one is a ControlError 422 and changes nothing).', body: 'bundle' },
    handler: replacing(
      (control, bundle) => control.importBundle(bundle),
      (counts) => ({ restored: true as const, counts }),
    ),
  }),
  declareControl({
    operationId: 'controlRequestsHar',
    method: 'get',
    path: '/_mock/requests.har',
    summary: 'The journal as HAR 1.2, redacted as the journal is',
    description:
      "Takes the journal's filters (`method`, `path`, `status`, `after`, `limit`). Each entry carries `_journal_id` and `_operation`; `log._journal` says how many entries it holds and how many had left the bounded journal. Imports into a browser's network panel.",
    query: JournalQuerySchema,
    errors: [422],
    success: [answer('HarDocument', HarDocumentSchema, 'The HAR document')],
    client: { name: 'har', doc: 'The journal (filtered as `requests`) as a HAR 1.2 document, redacted.', query: 'filter' },
    handler:
      () =>
      ({ query, control }) => {
        const { summary: _summary, ...filter } = query;
        return new Reply(200, control.har(filter), { ...JSON_TYPE, 'Content-Disposition': 'attachment; filename="requests.har"' });
      },
  }),
  declareControl({
    operationId: 'controlExportTest',
    method: 'get',
    path: '/_mock/requests/export',
    summary: 'The session as a replayable test file (node:test or vitest)',
    description:
      "A self-contained ES module test file: it builds the mock from a bundle of the session's start (start-up, or the last reset, fixture load, state, snapshot or bundle restore, or `startSession()`), replays every journaled request since in order, and asserts each recorded status and body (from `since`, an id of the session; earlier requests are replayed only). Credentials, tokens and codes are sealed; values that cannot repeat are compared by shape. 409 `session_not_replayable` without a seed, when requests have left the journal since the start, or when a request body was cut; 413 `export_too_large` past 10,000 requests; unknown query keys are 422.",
    query: TestExportQuerySchema,
    errors: [409, 413, 422],
    success: [{ status: 200, description: 'The test file', body: { contentType: 'text/javascript' } }],
    client: { name: 'exportTest', doc: "The session as a replayable test file's text (format `node-test` or `vitest`; requests from `since` asserted)." },
    handler:
      () =>
      async ({ query, control }) =>
        new Reply(200, await control.exportTestStream(query), {
          'Content-Type': 'text/javascript; charset=utf-8',
          'Content-Disposition': `attachment; filename="replay.${query.format}.test.mjs"`,
        }),
  }),
  declareControl({
    operationId: 'controlClientReport',
    method: 'get',
    path: '/_mock/client-report',
    summary: 'How the client under test behaved: findings of each rule over the journal',
    description:
      'Seven rules, each measured on the mock clock: `refresh_token_reused`, `code_reused` and `retry_after_ignored` (errors), `expired_token_resent`, `retried_final_error`, `hot_polling` and `unbounded_concurrency` (warnings). Each finding names its principal and the journal ids that show it; `rules` says how many entries each rule looked at, `journal` how many entries the report read and how many had left the bounded journal.',
    errors: [],
    success: [answer('ClientReport', ClientReportSchema, 'The report')],
    client: { name: 'clientReport', doc: "How the client under test behaved: each rule's findings over the journal." },
    handler:
      () =>
      ({ control }) =>
        control.clientReport(),
  }),
];
