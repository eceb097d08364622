// The query of GET /_mock/timeline: a span of the mock clock and how many buckets to cut it into (unknown keys refused).
import * as v from 'valibot';
import { Timestamp, forbidExtra, intQuery, model } from './common.js';

/** At most this many buckets: every series is one number per bucket, so the answer is bounded however long the history. */
const TIMELINE_MAX_BUCKETS = 240;
/** Buckets when the query names none. */
const TIMELINE_DEFAULT_BUCKETS = 96;
/** The span when the query names no `from`: the last day before `to`. */
export const TIMELINE_DEFAULT_SPAN_MS = 24 * 60 * 60 * 1000;

export const TimelineQuerySchema = forbidExtra(
  model({
    /** Start of the span (included); default: a day before `to`. */
    from: v.optional(Timestamp),
    /** End of the span (excluded); default: the mock clock's now. */
    to: v.optional(Timestamp),
    buckets: intQuery(1, TIMELINE_MAX_BUCKETS, TIMELINE_DEFAULT_BUCKETS),
  }),
);
export type TimelineQuery = v.InferInput<typeof TimelineQuerySchema>;
