// GET /_mock/drift and a journal entry's `drift`: what shadow mode found when the same requests went to a target.
import * as v from 'valibot';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Time = v.nullable(v.string());

/** One difference: the field (a path into the answer, or `status`, `headers.x`), and each side's value (cut when long; absent when the side had none). */
export const DriftItemSchema = v.object({
  field: v.string(),
  mock: v.optional(v.unknown()),
  target: v.optional(v.unknown()),
  /** `warning`: an optional field the mock sent and the target dropped (absent: drift, a break of the contract). */
  level: v.optional(v.literal('warning')),
});
export type DriftItem = v.InferOutput<typeof DriftItemSchema>;

/**
 * One cause: the same field with the same mock and target values, whichever operations showed it (a renamed reason
 * code is one group listing its operations), counted, with the first few requests that showed it.
 */
const DriftGroupSchema = v.object({
  level: v.picklist(['drift', 'warning']),
  field: v.string(),
  mock: v.optional(v.unknown()),
  target: v.optional(v.unknown()),
  /** In the order first met. */
  operations: v.array(v.string()),
  count: Count,
  first_at: v.string(),
  last_at: v.string(),
  examples: v.array(v.object({ request_id: v.nullable(Count), operation: v.string() })),
});

export type DriftGroup = v.InferOutput<typeof DriftGroupSchema>;

export const DriftReportSchema = v.object({
  /** False when the mock runs without a shadow target: every count is 0. */
  enabled: v.boolean(),
  target: v.nullable(
    v.object({
      /** The target's URL (a password in it shown as ***). */
      url: v.string(),
      /** `unknown` until it first answers or fails. */
      state: v.picklist(['unknown', 'up', 'down']),
      /** When it went down or came back (real time). */
      since: Time,
      /** Why the last request to it failed (a code such as ECONNREFUSED, or TimeoutError). */
      last_error: v.nullable(v.string()),
      /** Notice lines written about it (once a minute at most while it is down). */
      notices: Count,
      writes: v.boolean(),
    }),
  ),
  /** Requests queued or in flight to the target now. */
  pending: Count,
  /** Requests sent to the target and compared; `same` had no difference, `drifted` at least one. */
  compared: Count,
  same: Count,
  drifted: Count,
  /** Differences the contract allows (an extra field), not counted as drift. */
  compatible: Count,
  /** Requests not sent: the queue was full, the rate was spent, or the target was down. */
  dropped: v.object({ queue_full: Count, rate_limited: Count, target_down: Count }),
  /** Requests not shadowed by rule: a write (GET only, or writes outside the disposable project), an injected fault answered, or an answer that cannot be compared. */
  skipped: v.object({ method: Count, fault: Count, not_comparable: Count }),
  /** Requests sent whose target did not answer (down, or too slow). */
  unreachable: Count,
  /** Grouped by cause (field, mock value, target value), drift before warnings, most frequent first. */
  groups: v.array(DriftGroupSchema),
  /** Differences counted but not grouped: the groups had reached their byte bound. */
  ungrouped: Count,
  /** Bytes the groups hold, and their bound. */
  bytes: Count,
  max_bytes: Count,
});
export type DriftReport = v.InferOutput<typeof DriftReportSchema>;

/** What the control surface reads of a mock's drift record. */
export interface DriftSource {
  report(): DriftReport;
  /** The report once every shadow request queued so far has been answered, dropped or failed. */
  settled(): Promise<DriftReport>;
  clear(): void;
}
