// Runs, their steps and timing (endpoints 4, 5, 6), and the stored run record.
import * as v from 'valibot';
import { AnyJson, Bool, FreeObject, Int, NonNegFloat, NonNegInt, RuntimeMode, Timestamp, Uuid, model, nullish } from './common.js';

export const RunStatus = v.picklist(['queued', 'running', 'waiting_approval', 'succeeded', 'failed', 'cancelled']);
export type RunStatus = v.InferOutput<typeof RunStatus>;
export const RunSurface = v.picklist(['api', 'chatapp', 'background', 'dashboard']);
export const StepStatus = v.picklist(['pending', 'running', 'succeeded', 'failed', 'cancelled', 'skipped']);

export const RunStepSchema = model({
  id: Uuid,
  created_at: Timestamp,
  name: v.string(),
  sequence: Int,
  status: StepStatus,
  step_type: v.string(),
  surface: v.string(),
  attempt: v.optional(Int),
  content_available: v.optional(Bool),
  guardrail_decisions: v.optional(v.array(FreeObject)),
  input_summary: v.optional(FreeObject),
  output_summary: v.optional(FreeObject),
  metadata: v.optional(FreeObject),
});
export type RunStep = v.InferOutput<typeof RunStepSchema>;

const Ms = NonNegFloat;
export const RunTimingSchema = model({
  active_ms: v.optional(Ms),
  approval_wait_ms: v.optional(Ms),
  end_to_end_ms: v.optional(Ms),
  memory_ms: v.optional(Ms),
  model_ms: v.optional(Ms),
  queue_wait_ms: v.optional(Ms),
  skill_ms: v.optional(Ms),
  tool_ms: v.optional(Ms),
});

/** Fields shared by the run and the run detail responses. */
const runCommon = {
  id: Uuid,
  project_id: Uuid,
  created_at: Timestamp,
  runtime_mode: RuntimeMode,
  status: RunStatus,
  cost_usd: v.optional(NonNegFloat),
  input_tokens: v.optional(NonNegInt),
  output_tokens: v.optional(NonNegInt),
  latency_ms: v.optional(NonNegInt),
  request_metadata: v.optional(FreeObject),
  timing: v.optional(RunTimingSchema),
  trace_content_status: v.optional(v.string()),
  release_id: nullish(Uuid),
  trace_id: nullish(Uuid),
};

export const RunDetailResponseSchema = model({
  ...runCommon,
  result: v.optional(FreeObject),
  events: v.optional(v.array(AnyJson)),
  steps: v.optional(v.array(RunStepSchema)),
});

export const RunResponseSchema = model({ ...runCommon, surface: RunSurface });

export const RunRecordSchema = model({
  ...runCommon,
  surface: RunSurface,
  user_id: nullish(Uuid),
  request_metadata: v.optional(FreeObject, {}),
  result: v.optional(FreeObject, {}),
  events: v.optional(v.array(AnyJson), []),
  steps: v.optional(v.array(RunStepSchema), []),
  timing: v.optional(RunTimingSchema, {}),
  trace_content_status: v.optional(v.string(), 'available'),
});

export const RunDetailQuerySchema = model({ runtime_mode: v.optional(RuntimeMode) });
export const CancelRequestSchema = model({ reason: v.optional(v.string()) });
export const RetryRequestSchema = model({ metadata: v.optional(FreeObject), reason: v.optional(v.string()) });
