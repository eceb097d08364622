// A repro bundle's document (GET/PUT /_mock/bundle; everything but the two states, checked as PUT /_mock/state checks one), and the test export's query.
import * as v from 'valibot';
import { AnyJson, FreeObject, Int, NonNegInt, Timestamp, strictModel } from './common.js';
import { FaultRequestSchema } from './control.js';

export const BUNDLE_FORMAT = 'project-runtime-mock/bundle@1';

const PosInt = v.pipe(Int, v.minValue(1));

const MessageSchema = v.strictObject({
  headers: FreeObject,
  body: AnyJson,
  truncated: v.optional(v.strictObject({ bytes: v.optional(NonNegInt) })),
});

/** A journal entry as GET /_mock/requests/{id} shows it (redacted). */
const BundleJournalEntrySchema = v.strictObject({
  id: PosInt,
  at: Timestamp,
  method: v.string(),
  path: v.string(),
  query: FreeObject,
  status: v.pipe(Int, v.minValue(100), v.maxValue(599)),
  duration_ms: v.pipe(v.number(), v.minValue(0)),
  operation: v.nullable(v.string()),
  request: MessageSchema,
  response: MessageSchema,
  fault: v.optional(
    v.strictObject({
      id: v.string(),
      status: v.optional(Int),
      delay_ms: v.optional(NonNegInt),
      retry_after_s: v.optional(NonNegInt),
      transport: v.optional(v.string()),
    }),
  ),
  simulated: v.optional(v.literal(true)),
});

const BundleFaultSchema = v.strictObject({
  ...FaultRequestSchema.entries,
  id: v.pipe(v.string(), v.regex(/^flt_\d+$/, 'Input should be a fault id like flt_3')),
  remaining: v.nullable(PosInt),
  hits: NonNegInt,
  /** Requests that matched it (older bundles have none: 0). */
  matched: v.optional(NonNegInt, 0),
  /** A rate limit's admitted requests still in its window (mock-clock ms). */
  window: v.optional(v.array(Int)),
});

export const ReproductionBundleSchema = v.strictObject({
  format: v.string(),
  /** Which key sealed the secrets (a fingerprint, not the key). */
  seal: v.string(),
  /** The mock's seed, or null when it had none (its ids and tokens cannot repeat). */
  seed: v.nullable(v.string()),
  /** Bytes each seeded generator had drawn; null without a seed. */
  generators: v.nullable(v.strictObject({ ids: NonNegInt, tokens: NonNegInt })),
  faults: v.strictObject({ next_id: PosInt, faults: v.array(BundleFaultSchema) }),
  journal: v.strictObject({ next_id: PosInt, left: NonNegInt, entries: v.array(BundleJournalEntrySchema) }),
  /** What reset returns to, and the stored state (clock and simulation included): each a GET /_mock/state document. */
  reset_state: v.unknown(),
  state: v.unknown(),
});

export type BundleInput = v.InferOutput<typeof ReproductionBundleSchema>;

/** GET /_mock/requests/export: the test runner the file is written for, and the first request asserted. Unknown keys are 422. */
export const TestExportQuerySchema = strictModel({
  format: v.optional(v.picklist(['node-test', 'vitest']), 'node-test'),
  since: v.optional(PosInt),
});
