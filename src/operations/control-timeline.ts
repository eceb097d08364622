// GET /_mock/timeline: what the state and the journal did over a span of the mock clock, as bucketed series.
import { TimelineQuerySchema } from '../schemas/control-timeline.js';
import { TimelineAnswerSchema } from '../openapi/control-timeline.js';
import { answer } from './answers.js';
import { declareControl } from './declare.js';

// prettier-ignore
export const CONTROL_TIMELINE_OPERATIONS = [
  declareControl({
    operationId: 'controlTimeline',
    method: 'get',
    path: '/_mock/timeline',
    summary: 'Runs, spend, approvals, jobs and requests over a span of the mock clock, as bucketed series',
    description: '`from` (included) and `to` (excluded) are datetimes, by default the last day before the mock clock\'s now; `buckets` 1..240 (default 96) cuts the span into buckets of a whole number of ms. Runs count by their creation and current status, approvals by when they were requested and decided, requests by when they arrived (the journal is bounded: `journal_from` says since when it knows). Unknown keys are a 422 with `did_you_mean`.',
    query: TimelineQuerySchema,
    errors: [422],
    success: [answer('ControlTimeline', TimelineAnswerSchema, 'The series')],
    handler: () => ({ query, control }) => control.timeline(query),
  }),
];
