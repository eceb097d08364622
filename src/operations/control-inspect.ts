// The /_mock reads the inspector's summaries come from: the timeline (the state and the journal over a span of the mock
// clock, as bucketed series) and what the coverage gate would ask for next.
import { TimelineQuerySchema } from '../schemas/control-timeline.js';
import { CoverageNextSchema, TimelineAnswerSchema } from '../openapi/control-inspect.js';
import { answer } from './answers.js';
import { declareControl } from './declare.js';

// prettier-ignore
export const CONTROL_INSPECT_OPERATIONS = [
  declareControl({
    operationId: 'controlTimeline',
    method: 'get',
    path: '/_mock/timeline',
    summary: 'Runs, spend, approvals, jobs and requests over a span of the mock clock, as bucketed series',
    description: '`from` (included) and `to` (excluded) are datetimes, by default the last day before the mock clock\'s now; `buckets` 1..240 (default 96) cuts the span into buckets of a whole number of ms. Runs count by their creation and current status, approvals by when they were requested and decided, requests by when they arrived (the journal is bounded: `journal_from` says since when it knows). Unknown keys are a 422 with `did_you_mean`.',
    query: TimelineQuerySchema,
    errors: [422],
    success: [answer('ControlTimeline', TimelineAnswerSchema, 'The series')],
    client: { name: 'timeline', doc: 'Runs by status, spend, approvals, jobs fired and requests by status class over a span of the mock clock, in buckets.' },
    handler: () => ({ query, control }) => control.timeline(query),
  }),
  declareControl({
    operationId: 'controlCoverageNext',
    method: 'get',
    path: '/_mock/coverage/next',
    summary: 'What to exercise next: the gaps the coverage gate names at 100 %, each with the calls that provoke it',
    description: 'The operations never called, then the first missing reason codes of those called, each with the `mock.control` calls to paste and the request to send then (the same gaps `coverage --fail-under 100` and `assertCoverage({ failUnder: 100 })` name). Reset clears what it is computed from.',
    errors: [],
    success: [answer('ControlCoverageNext', CoverageNextSchema, 'The gaps')],
    client: { name: 'coverageNext', doc: "What to exercise next: the coverage gate's gaps at 100 %, each with the control calls that provoke it." },
    handler: () => ({ control }) => control.coverageNext(),
  }),
];
