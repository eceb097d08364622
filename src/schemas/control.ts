// Request bodies of the /_mock control surface (docs/control-surface.md), validated like the v3 bodies.
import * as v from 'valibot';
import { AnyJson, Bool, FreeObject, Int, NonEmptyString, NonNegFloat, NonNegInt, RuntimeMode, Timestamp, Uuid, forbidExtra, model } from './common.js';
import { GLOB_MAX_LENGTH } from '../glob.js';
import { RunStatus, RunStepSchema, RunSurface, RunTimingSchema, StepStatus } from './runs.js';

/** Path patterns are capped, so matching one costs at most (path length x this). */
const GlobLength = v.maxLength<string, typeof GLOB_MAX_LENGTH, string>(GLOB_MAX_LENGTH, `String should have at most ${GLOB_MAX_LENGTH} characters`);

export const ClockRequestSchema = forbidExtra(
  model({
    now: v.optional(Timestamp),
    advance_ms: v.optional(Int),
  }),
);

export { FaultRequestSchema } from './control-faults.js';

export const JournalQuerySchema = model({
  method: v.optional(v.string()),
  path: v.optional(v.pipe(v.string(), GlobLength)),
  status: v.optional(v.pipe(v.string(), v.regex(/^([1-5]\d\d|[1-5]xx)$/i, 'Input should be a status like 404 or a class like 4xx'))),
  /** Only entries with a greater id: a poller passes the last id it saw. */
  after: v.optional(NonNegInt),
  /** At most this many, the newest of the matching entries (still oldest first). */
  limit: v.optional(v.pipe(Int, v.minValue(1), v.maxValue(1000))),
  /** Entries without query, headers and bodies (id, at, method, path, status, duration_ms, operation, fault). */
  summary: v.optional(Bool, false),
  /** true: only the simulation's own traffic (its synthetic chat messages); false: only clients' requests. */
  simulated: v.optional(Bool),
  /** Only the requests of this principal (its id). */
  principal: v.optional(v.pipe(v.string(), v.maxLength(200, 'String should have at most 200 characters'))),
  /** Only the requests that named this test in their `X-Test-Name` header. */
  test: v.optional(v.pipe(v.string(), v.maxLength(200, 'String should have at most 200 characters'))),
});

export const RequestPath = model({ request_id: v.pipe(Int, v.minValue(1)) });

/** A step to append: only `name` is needed; the rest defaults from the run and the mock clock. */
export const StepInputSchema = model({
  ...RunStepSchema.entries,
  id: v.optional(Uuid),
  name: NonEmptyString,
  status: v.optional(StepStatus, 'pending'),
  step_type: v.optional(v.string(), 'tool'),
  surface: v.optional(v.string()),
  sequence: v.optional(Int),
  created_at: v.optional(Timestamp),
});

/** The pending approval that entering `waiting_approval` creates. */
export const ApprovalInputSchema = model({
  tool_id: v.optional(NonEmptyString, 'mock.tool'),
  action_summary: v.optional(v.string(), 'Mock tool call awaiting approval'),
  channel: v.optional(v.string()),
  expires_in_ms: v.optional(NonNegInt, 24 * 60 * 60 * 1000),
  tool_arguments: v.optional(AnyJson),
  session_id: v.optional(Uuid),
  user_id: v.optional(Uuid),
});
export type ApprovalInput = v.InferOutput<typeof ApprovalInputSchema>;

const usage = {
  cost_usd: v.optional(NonNegFloat),
  input_tokens: v.optional(NonNegInt),
  output_tokens: v.optional(NonNegInt),
  latency_ms: v.optional(NonNegInt),
  trace_id: v.optional(v.nullable(Uuid)),
};

export const CreateRunSchema = forbidExtra(
  model({
    id: v.optional(Uuid),
    status: v.optional(RunStatus, 'queued'),
    runtime_mode: v.optional(RuntimeMode, 'live'),
    surface: v.optional(RunSurface, 'api'),
    release_id: v.optional(v.nullable(Uuid)),
    user_id: v.optional(v.nullable(Uuid), null),
    request_metadata: v.optional(FreeObject, {}),
    created_at: v.optional(Timestamp),
    steps: v.optional(v.array(StepInputSchema), []),
    events: v.optional(v.array(AnyJson), []),
    timing: v.optional(RunTimingSchema, {}),
    result: v.optional(FreeObject, {}),
    trace_content_status: v.optional(v.string()),
    approval: v.optional(ApprovalInputSchema),
    /** Let the simulation run it (from `queued`), whatever the simulation's mode. */
    simulate: v.optional(v.boolean(), false),
    ...usage,
  }),
);
export type CreateRunInput = v.InferInput<typeof CreateRunSchema>;

export const TransitionSchema = forbidExtra(
  model({
    to: RunStatus,
    steps: v.optional(v.array(StepInputSchema), []),
    events: v.optional(v.array(AnyJson), []),
    timing: v.optional(RunTimingSchema),
    result: v.optional(FreeObject),
    approval: v.optional(ApprovalInputSchema),
    ...usage,
  }),
);
export type TransitionInput = v.InferInput<typeof TransitionSchema>;

export const AuthCodeRequestSchema = forbidExtra(
  model({
    principal_id: Uuid,
    code_challenge: NonEmptyString,
    scopes: v.optional(v.array(v.string())),
    expires_in_ms: v.optional(NonNegInt),
    code: v.optional(NonEmptyString),
  }),
);
export type AuthCodeRequest = v.InferInput<typeof AuthCodeRequestSchema>;
