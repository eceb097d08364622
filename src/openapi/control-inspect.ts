// The answers the inspector's summaries read: GET /_mock/timeline (series of whole counts, spend in USD, one value per
// bucket of the span) and GET /_mock/coverage/next (the coverage gate's gaps, each with how to provoke it).
import * as v from 'valibot';
import { Timestamp, Uuid } from '../schemas/index.js';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Series = v.array(Count);

export const TimelineAnswerSchema = v.object({
  from: Timestamp,
  to: Timestamp,
  /** Each bucket's width; bucket i starts at `from` + i x `bucket_ms`. */
  bucket_ms: Count,
  buckets: Count,
  /** Runs created in each bucket, by the status they have now. */
  runs: v.record(v.string(), Series),
  approvals: v.object({ opened: Series, decided: Series }),
  /** Runs a job's schedule (or its retry) created. */
  jobs_fired: Series,
  /** Cost of the runs created in each bucket, per project (the most spent first), with its budget. */
  spend: v.array(
    v.object({
      project_id: Uuid,
      name: v.string(),
      usd: v.array(v.number()),
      daily_limit_usd: v.nullable(v.number()),
      today_usd: v.number(),
    }),
  ),
  spend_projects_omitted: Count,
  /** Journal entries by status class, and those a fault answered or the simulation sent. */
  requests: v.object({ '2xx': Series, '3xx': Series, '4xx': Series, '5xx': Series, other: Series, faults: Series, simulated: Series }),
  journal_from: v.nullable(Timestamp),
  first: v.object({ request: v.array(v.nullable(Count)), run: v.array(v.nullable(v.object({ id: Uuid, project_id: Uuid }))) }),
});

/** GET /_mock/coverage/next: the coverage now, and each gap the gate names at 100 % with the calls that provoke it. */
export const CoverageNextSchema = v.object({
  percent: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
  gaps: v.array(v.object({ what: v.string(), message: v.string(), calls: v.array(v.string()), then: v.string() })),
});
