// The simulation's documents and stored records: behaviours, synthetic traffic, settings, pending events, per-user spend.
import * as v from 'valibot';
import { Bool, Float, Int, NonEmptyString, Timestamp, Uuid, forbidExtra, model } from './common.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Durations and waits: whole milliseconds, at most a year (a bound, so no sum overflows or loops for ever). */
const Ms = v.pipe(Int, v.minValue(0), v.maxValue(366 * DAY_MS));
const Count = v.pipe(Int, v.minValue(0), v.maxValue(1e9));
const Usd = v.pipe(Float, v.minValue(0), v.maxValue(1e6));
const Probability = v.pipe(Float, v.minValue(0), v.maxValue(1e6));

export const SimulationMode = v.picklist(['auto', 'step', 'off']);
export type SimulationMode = v.InferOutput<typeof SimulationMode>;
const SimStepType = v.picklist(['model', 'tool', 'skill', 'memory']);
type SimStepType = v.InferOutput<typeof SimStepType>;

/** A gate before a tool step: a pending approval, and what the simulated reviewer does with it. */
const SimApprovalSchema = model({
  tool_id: v.optional(NonEmptyString),
  action_summary: v.optional(v.string(), 'Simulated tool call awaiting approval'),
  expires_in_ms: v.optional(Ms, 60 * 60 * 1000),
  /** approve or deny after `decide_after_ms`; none waits for a deny over the API or for expiry. */
  decision: v.optional(v.picklist(['approve', 'deny', 'none']), 'approve'),
  decide_after_ms: v.optional(Ms, 60 * 1000),
});

const SimStepSchema = model({
  name: NonEmptyString,
  step_type: SimStepType,
  duration_ms: Ms,
  cost_usd: v.optional(Usd, 0),
  input_tokens: v.optional(Count, 0),
  output_tokens: v.optional(Count, 0),
  approval: v.optional(SimApprovalSchema),
});
export type SimStep = v.InferOutput<typeof SimStepSchema>;

/** How a run ends once its steps are done: a fixed status, or weights drawn from the seeded generator. */
const SimOutcomeSchema = model({
  status: v.optional(v.picklist(['succeeded', 'failed']), 'succeeded'),
  error: v.optional(NonEmptyString, 'simulated_failure'),
  probabilities: v.optional(model({ succeeded: v.optional(Probability, 0), failed: v.optional(Probability, 0) })),
});

/** Every field optional: an agent's fields override its project's, a project's override the default's. */
const behaviourFields = {
  queue_wait_ms: v.optional(Ms),
  steps: v.optional(v.pipe(v.array(SimStepSchema), v.maxLength(100))),
  outcome: v.optional(SimOutcomeSchema),
};
const BehaviourPartSchema = model(behaviourFields);
export type BehaviourPart = v.InferOutput<typeof BehaviourPartSchema>;

const AgentBehaviourSchema = model({ agent_id: NonEmptyString, ...behaviourFields });
const ProjectBehaviourSchema = model({
  project_id: Uuid,
  ...behaviourFields,
  agents: v.optional(v.array(AgentBehaviourSchema), []),
});

/** PUT /_mock/simulation/behaviours and the fixture's `simulation.behaviours`. */
export const BehavioursSchema = forbidExtra(
  model({
    default: v.optional(BehaviourPartSchema, {}),
    projects: v.optional(v.array(ProjectBehaviourSchema), []),
  }),
);
export type Behaviours = v.InferOutput<typeof BehavioursSchema>;
export type BehavioursInput = v.InferInput<typeof BehavioursSchema>;

/** A behaviour with every field resolved: what one run follows from its first queueing on. */
export interface Behaviour {
  queue_wait_ms: number;
  steps: SimStep[];
  outcome: v.InferOutput<typeof SimOutcomeSchema>;
}

/** Synthetic chat messages on one chat binding, as if users sent them to the webhook. */
export const TrafficSchema = model({
  binding_id: Uuid,
  messages_per_hour: v.pipe(Float, v.minValue(0.001), v.maxValue(360_000)),
  senders: v.optional(v.pipe(Int, v.minValue(1), v.maxValue(100_000)), 20),
  texts: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(4096))), v.minLength(1), v.maxLength(1000))),
});
export type Traffic = v.InferOutput<typeof TrafficSchema>;

export const Speed = v.pipe(Float, v.minValue(0.001), v.maxValue(1_000_000));

/** Simulated days a simulated run is kept after it ended (0 keeps everything); at most a century. */
const RetentionDays = v.pipe(Int, v.minValue(0), v.maxValue(36_500));

/** The fixture's top-level `simulation` key. */
export const SimulationFixtureSchema = model({
  mode: v.optional(SimulationMode),
  speed: v.optional(Speed),
  seed: v.optional(v.union([v.string(), Int])),
  /** `running`: in auto mode, a clock the fixture froze at `now` starts running from there (a demo that lives). */
  clock: v.optional(v.picklist(['frozen', 'running']), 'frozen'),
  behaviours: v.optional(BehavioursSchema, {}),
  traffic: v.optional(v.array(TrafficSchema), []),
  /** Simulated runs (and what they wrote) go this many simulated days after they ended; 0 keeps everything. */
  retention_days: v.optional(RetentionDays),
});

// ---- stored records ----

export const SIMULATION_RECORD_ID = 'settings';

/** The one settings record (collection `simulation`); absent = the instance's defaults. */
export const SimulationRecordSchema = model({
  id: v.literal(SIMULATION_RECORD_ID),
  /** Absent: the instance's default (createApp: off, CLI: auto). */
  mode: v.optional(SimulationMode),
  seed: v.optional(v.string()),
  clock: v.optional(v.picklist(['frozen', 'running']), 'frozen'),
  behaviours: v.optional(BehavioursSchema, {}),
  traffic: v.optional(v.array(TrafficSchema), []),
  /** Absent: the instance's default (createApp: 0, the CLI's living demo: 7). */
  retention_days: v.optional(RetentionDays),
});
export type SimulationRecord = v.InferOutput<typeof SimulationRecordSchema>;

const EVENT_KINDS = ['run.start', 'step.finish', 'approval.decide', 'approval.expire', 'job.retry', 'job.fire', 'traffic.message', 'budget.rollover'] as const;
export const EventKind = v.picklist(EVENT_KINDS);
export type EventKind = v.InferOutput<typeof EventKind>;

const ResolvedBehaviourSchema = model({ queue_wait_ms: Ms, steps: v.array(SimStepSchema), outcome: SimOutcomeSchema });

/**
 * One pending event. Keys name what it belongs to (`run:<id>`, `job:<id>`, `traffic:<n>`, `budget:<project>`),
 * so each run, job, traffic source and budget has at most one, and replacing or removing it is one write.
 */
export const SimEventRecordSchema = model({
  key: v.string(),
  at: Timestamp,
  seq: v.pipe(Int, v.minValue(0)),
  kind: EventKind,
  project_id: v.optional(Uuid),
  run_id: v.optional(Uuid),
  job_id: v.optional(Uuid),
  approval_id: v.optional(v.string()),
  approval_record_id: v.optional(Uuid),
  /** Index of the behaviour step the event concerns (run events). */
  step: v.optional(v.pipe(Int, v.minValue(0))),
  step_id: v.optional(Uuid),
  gate_step_id: v.optional(Uuid),
  /** When the current wait (queue or approval) began. */
  since: v.optional(Timestamp),
  /** Messages sent so far (traffic) or attempts made (job retries). */
  count: v.optional(v.pipe(Int, v.minValue(0))),
  traffic: v.optional(v.pipe(Int, v.minValue(0))),
  behaviour: v.optional(ResolvedBehaviourSchema),
});
export type SimEventRecord = v.InferOutput<typeof SimEventRecordSchema>;

/**
 * A run the simulation created (synthetic traffic, a job, a job's retry): the marker that lets retention remove it
 * once it ended long enough ago. Runs of fixtures, control calls and v3 requests have none, so they are never removed.
 */
export const SimulatedRunRecordSchema = model({
  run_id: Uuid,
  created_at: Timestamp,
  /** Approvals the simulation opened for the run (record ids): they go with it. */
  approvals: v.optional(v.array(Uuid)),
});

/** A user's spend in the current UTC day and month (a project's lives in its budget). */
export const UserSpendRecordSchema = model({
  key: v.string(),
  project_id: Uuid,
  user_id: Uuid,
  day: v.string(),
  daily_usd: Float,
  month: v.string(),
  monthly_usd: Float,
});

// ---- control requests ----

export const SimulationSettingsRequestSchema = forbidExtra(
  model({
    mode: v.optional(SimulationMode),
    speed: v.optional(Speed),
    /** `running`: a frozen clock starts running from where it stands; `frozen`: a running clock stops where it is. */
    clock: v.optional(v.picklist(['running', 'frozen'])),
    traffic: v.optional(v.array(TrafficSchema)),
    retention_days: v.optional(RetentionDays),
  }),
);
export type SimulationSettingsRequest = v.InferInput<typeof SimulationSettingsRequestSchema>;

export const SimulationRunRequestSchema = forbidExtra(
  model({
    until: v.optional(Timestamp),
    idle: v.optional(Bool),
  }),
);
export type SimulationRunRequest = v.InferInput<typeof SimulationRunRequestSchema>;
