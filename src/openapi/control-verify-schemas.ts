// Valibot schemas of the verification answers (POST /_mock/verify...): 200 `{matched, ids}` and the 417 body.
import * as v from 'valibot';
import { ManagementErrorSchema } from './schemas.js';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Id = v.pipe(v.number(), v.integer(), v.minValue(1));

export const VerifyAnswerSchema = v.object({
  matched: Count,
  ids: v.array(Id),
  /** Entries the journal's bounds pushed out (present only when some did): they were not counted. */
  evicted: v.optional(Count),
});

const NearMissSchema = v.object({
  id: Id,
  differences: v.array(v.object({ field: v.string(), expected: v.unknown(), actual: v.unknown() })),
});

/** 417 `verification_failed`: the management envelope, and beside it what was found. */
export const VerificationFailureSchema = v.object({
  detail: ManagementErrorSchema.entries.detail,
  matched: Count,
  evicted: v.optional(Count),
  /** verify: the count asked for; sequence: the pattern that found no match in order. */
  expected: v.optional(v.unknown()),
  /** verify and sequence: at most 5 non-matching entries, closest first. */
  near_misses: v.optional(v.array(NearMissSchema)),
  /** sequence: the entries matched in order before the failing pattern, and that pattern's index. */
  ids: v.optional(v.array(Id)),
  failed_at: v.optional(Count),
  /** only: the entries no pattern matched (at most 20; `unexpected_count` has them all). */
  unexpected: v.optional(
    v.array(v.object({ id: Id, method: v.string(), path: v.string(), status: v.pipe(v.number(), v.integer()), operation: v.nullable(v.string()) })),
  ),
  unexpected_count: v.optional(Count),
});
