// The /_mock operations on what the traffic did and meets: the request journal, the coverage report, the mock clock,
// faults, and verification of the journal (200 when it holds, else 417).
import { invalid } from '../errors.js';
import { ClockRequestSchema, FaultRequestSchema, JournalQuerySchema, RequestPath } from '../schemas/index.js';
import { VerifyOnlySchema, VerifyRequestSchema, VerifySequenceSchema } from '../schemas/index.js';
import { TRANSPORT_FAULTS, TRANSPORT_FAULT_KINDS } from '../schemas/index.js';
import type { VerificationKind, VerifyAnswer as Verified } from '../control/index.js';
import { controlSchemas as A } from '../openapi/index.js';
import { named, type AnySchema } from '../openapi/index.js';
import { Reply } from '../pipeline/index.js';
import { Cleared, Clock, VerifyAnswer, answer } from './answers.js';
import { declareControl, type HandlerFactory } from './declare.js';
import { moveClock } from '../mock-control/index.js';

/** The body is validated by the verifier (the same check in process), so its 422 items are the same. */
const verifying =
  (kind: VerificationKind): HandlerFactory<undefined, undefined, AnySchema, Verified> =>
  () =>
  ({ body, control }) => {
    const outcome = control.verifier.check(kind, body);
    return outcome.ok ? outcome.answer : new Reply(417, outcome.failure);
  };

// prettier-ignore
export const CONTROL_OBSERVE_OPERATIONS = [
  declareControl({
    operationId: 'controlListRequests',
    method: 'get',
    path: '/_mock/requests',
    summary: 'The request journal (secrets redacted), filtered by method, path and status',
    description: 'Oldest first, bounded. `path` is a substring or a glob (`*` one segment, `**` any); `status` an exact status or a class such as `4xx`; `after` an id (only newer entries: what a poller passes); `limit` keeps the newest N; `summary=true` leaves out query, headers and bodies.',
    query: JournalQuerySchema,
    success: [answer('ControlJournalPage', A.JournalPageSchema, 'The matching entries')],
    client: { name: 'requests', doc: 'Journal entries, oldest first, filtered by method, path (substring or glob) and status (`404`, `4xx`).', query: 'filter', yields: 'items' },
    handler: () => ({ query, control }) => ({ items: control.requests(query) }),
  }),
  declareControl({
    operationId: 'controlGetRequest',
    method: 'get',
    path: '/_mock/requests/{request_id}',
    summary: 'One journal entry in full (secrets redacted)',
    description: 'The entry with this id, with its query, headers and bodies; 404 `request_not_found` once it has left the journal (or was never recorded).',
    pathParams: RequestPath,
    success: [answer('ControlJournalEntry', A.JournalEntrySchema, 'The entry')],
    client: { name: 'journalEntry', doc: 'One journal entry in full (redacted); ControlError 404 `request_not_found` once it has left the journal.' },
    handler: () => ({ path, control }) => control.journalEntry(path.request_id),
  }),
  declareControl({
    operationId: 'controlClearRequests',
    method: 'delete',
    path: '/_mock/requests',
    summary: 'Clear the request journal',
    description: 'Answers how many entries were removed.',
    success: [Cleared],
    client: { name: 'clearRequests', doc: 'Empties the journal; resolves with how many entries it held.', yields: 'cleared' },
    handler: () => ({ control }) => ({ cleared: control.clearRequests() }),
  }),
  declareControl({
    operationId: 'controlCoverage',
    method: 'get',
    path: '/_mock/coverage',
    summary: 'Which statuses, reason codes and transitions of the 20 operations the traffic has exercised',
    description: 'Per v3 operation: what the traffic so far produced against what the contract says it can produce. Reset clears it.',
    errors: [],
    success: [answer('ControlCoverageReport', A.CoverageReportSchema, 'The report')],
    client: { name: 'coverage' },
    handler: () => ({ control }) => control.coverage(),
  }),
  declareControl({
    operationId: 'controlGetClock',
    method: 'get',
    path: '/_mock/clock',
    summary: 'The mock clock',
    description: 'Answers `{now, frozen_at, offset_ms}`.',
    errors: [],
    success: [Clock],
    client: { name: 'clock' },
    handler: () => ({ control }) => control.clock(),
  }),
  declareControl({
    operationId: 'controlSetClock',
    method: 'post',
    path: '/_mock/clock',
    summary: 'Freeze the clock (`now`) or move it (`advance_ms`)',
    description: 'Exactly one of `now` (ISO 8601; freezes the clock there) and `advance_ms` (moves it, negative to go back). Answers the clock.',
    body: { schema: named('ClockRequest', ClockRequestSchema), required: true },
    success: [Clock],
    client: [{ name: 'setClock', doc: 'Freezes the clock at `now` (ISO 8601).', body: [['now', 'now', 'string']] }, { name: 'advanceClock', doc: 'Moves the clock by `ms` (negative goes back).', body: [['ms', 'advance_ms', 'number']] }],
    handler: () => async ({ body, control }) => {
      const given = (body.now !== undefined ? 1 : 0) + (body.advance_ms !== undefined ? 1 : 0);
      if (given !== 1) throw invalid(['body'], 'Give exactly one of now and advance_ms', 'value_error', body);
      return moveClock(control, body);
    },
  }),
  declareControl({
    operationId: 'controlListFaults',
    method: 'get',
    path: '/_mock/faults',
    summary: 'The active faults',
    description: 'Each with its id, what it matches, and how many matches it has left.',
    errors: [],
    success: [answer('ControlFaultPage', A.FaultPageSchema, 'The faults')],
    client: { name: 'faults', yields: 'items' },
    handler: () => ({ control }) => ({ items: control.faults() }),
  }),
  declareControl({
    operationId: 'controlAddFault',
    method: 'post',
    path: '/_mock/faults',
    summary: 'Inject a fault: a status, a wait, a rate limit or a broken connection, for the next N matching requests or until cleared',
    description: `A v3 request matching \`method\`, \`path\` and \`match\` (operation, query, headers, body, principal) is answered with \`status\`, \`body\` and \`headers\` instead of being handled, delayed by \`delay_ms\` (a number or a uniform/lognormal distribution) first, answered 429 with Retry-After past a \`rate_limit\` on the mock clock, or broken by a \`transport\` fault (${TRANSPORT_FAULTS.map((k) => (TRANSPORT_FAULT_KINDS[k].paced ? `${k} at \`bytes_per_s\`` : k)).join(', ')}). \`after\` skips the first N matches, \`probability\` fires with a seeded draw, \`times\` limits how many requests it hits. Inconsistent fields are a 422 at their loc. 409 \`fault_limit\` past 1,000 faults or 1 MiB (as JSON, a rate limit adding 8 bytes per request it counts) per mock, and nothing is added.`,
    body: { schema: named('FaultRequest', FaultRequestSchema), required: true },
    success: [answer('ControlFault', A.FaultSchema, 'The new fault')],
    client: { name: 'addFault', body: 'spec' },
    handler: () => ({ body, control }) => control.addFault(body),
  }),
  declareControl({
    operationId: 'controlClearFaults',
    method: 'delete',
    path: '/_mock/faults',
    summary: 'Clear every fault',
    description: 'Answers how many faults were removed.',
    success: [Cleared],
    client: { name: 'clearFaults', yields: 'cleared' },
    handler: () => ({ control }) => ({ cleared: control.clearFaults() }),
  }),
  declareControl({
    operationId: 'controlVerify',
    method: 'post',
    path: '/_mock/verify',
    summary: 'Assert that the journal holds requests matching a pattern, a number of times',
    description: 'PATTERN fields are all optional: `method`, `path` (a glob as in faults), `operation` (an operation id of this document), `status` (404 or a class like `4xx`), `reason_code`, `query` and `headers` (subsets; header names in any case), `body` (a JSON subset; arrays match element by element). `count`: `exactly`, `at_least`, `at_most` (without it: at least 1). 200 `{matched, ids}`; otherwise 417 `verification_failed` with `matched`, `expected` and at most 5 `near_misses`, closest first.',
    body: { schema: named('VerifyRequest', VerifyRequestSchema), required: true },
    rawBody: true,
    errors: [413, 417, 422],
    success: [VerifyAnswer],
    client: { name: 'verify', doc: 'Asserts the journal holds requests matching `request`, `count` times (at least once); rejects with an AssertionError otherwise.', body: 'input', verifies: true },
    handler: verifying('verify'),
  }),
  declareControl({
    operationId: 'controlVerifySequence',
    method: 'post',
    path: '/_mock/verify/sequence',
    summary: 'Assert that requests matching these patterns happened in this order',
    description: 'Others may come between them. 200 `{matched, ids}`; otherwise 417 naming the first pattern (`failed_at`, `expected`) with no match after the previous one\'s, with its near misses.',
    body: { schema: named('VerifySequenceRequest', VerifySequenceSchema), required: true },
    rawBody: true,
    errors: [413, 417, 422],
    success: [VerifyAnswer],
    client: { name: 'verifySequence', doc: 'Asserts requests matching these patterns happened in this order (others possibly between them).', body: 'input', verifies: true },
    handler: verifying('verifySequence'),
  }),
  declareControl({
    operationId: 'controlVerifyOnly',
    method: 'post',
    path: '/_mock/verify/only',
    summary: 'Assert that every journaled request matches at least one of these patterns',
    description: '200 `{matched, ids}`; otherwise 417 listing the `unexpected` entries (at most 20; `unexpected_count` has them all).',
    body: { schema: named('VerifyOnlyRequest', VerifyOnlySchema), required: true },
    rawBody: true,
    errors: [413, 417, 422],
    success: [VerifyAnswer],
    client: { name: 'verifyOnly', doc: 'Asserts every journaled request matches at least one of these patterns.', body: 'input', verifies: true },
    handler: verifying('verifyOnly'),
  }),
];
