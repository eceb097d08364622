// Valibot schemas of the /_mock control answers, for the OpenAPI document and the typed client generated from it.
// The /_mock operations (src/operations/control-*.ts) build these answers; every test response is checked against these shapes.
import * as v from 'valibot';
import { SnapshotInfoSchema } from '../schemas/index.js';
import { Timestamp, Uuid } from '../schemas/index.js';
import { ApprovalResponseSchema } from '../schemas/index.js';
import { DesiredStateHeadSchema, DesiredStateSchema, SemanticChangeSchema } from '../schemas/index.js';
import { ReleaseResponseSchema } from '../schemas/index.js';
import { RunDetailResponseSchema, RunResponseSchema, RunSurface } from '../schemas/index.js';
import { BudgetResponseSchema, ProjectResponseSchema } from '../schemas/index.js';
import { JobResponseSchema } from '../schemas/index.js';
import { UserResponseSchema } from '../schemas/index.js';
import { FaultRequestSchema } from '../schemas/index.js';
import { DriftItemSchema } from '../schemas/index.js';
import { BehavioursSchema, EventKind, SimulationMode, TrafficSchema } from '../schemas/index.js';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Counts = v.record(v.string(), Count);

export const HealthAnswerSchema = v.object({ status: v.literal('ok'), now: Timestamp });
export const ResetAnswerSchema = v.object({ reset: v.literal(true), now: Timestamp });
/** Records per collection after a fixture or state load. */
export const LoadedAnswerSchema = v.object({ loaded: v.literal(true), counts: Counts });
export const RestoredAnswerSchema = v.object({ restored: v.literal(true), counts: Counts });
/** How many journal entries or faults a DELETE removed. */
export const ClearedAnswerSchema = v.object({ cleared: Count });
export const DeletedSandboxSchema = v.object({ deleted: v.literal(true), id: v.string() });
export const DeletedSnapshotSchema = v.object({ deleted: v.literal(true), name: v.string() });
export const RestoredSnapshotSchema = v.object({ restored: v.literal(true), snapshot: SnapshotInfoSchema, now: Timestamp });

/** GET /_mock/state: every collection (secrets sealed); opaque to clients, who hand it back to PUT /_mock/state. */
// Its own schema object: a shared one (FreeObject) would become a $ref to this name wherever it occurs.
export const StateSnapshotSchema = v.looseObject({});

export const ClockAnswerSchema = v.object({ now: Timestamp, frozen_at: v.nullable(Timestamp), offset_ms: v.number() });

/** One journal entry (secrets redacted). Open: the journal may record more about each request than listed here. */
export const JournalEntrySchema = v.looseObject({
  id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  at: Timestamp,
  method: v.string(),
  path: v.string(),
  status: v.pipe(v.number(), v.integer()),
  operation: v.nullable(v.string()),
  /** Shadow mode: where the target's answer to this request differed. */
  drift: v.optional(v.array(DriftItemSchema)),
  /** A slip of the request the answer does not name (a JSON body sent as text, a token without `Bearer `): the cause and the fix. */
  findings: v.optional(v.array(v.object({ rule: v.string(), fix: v.string() }))),
  /** Present (true) on the simulation's own traffic: a synthetic chat message, not a client's request. */
  simulated: v.optional(v.literal(true)),
  /** In a summary: the principal whose credentials the request carried, when known. */
  principal: v.optional(v.string()),
  /** In a summary: the test the request named in its `X-Test-Name` header. */
  test: v.optional(v.string()),
});
export const JournalPageSchema = v.object({ items: v.array(JournalEntrySchema) });

/** A keyset page of the control surface's project views: `next_cursor` fetches the next one (null: the last page). */
const page = <S extends v.GenericSchema>(item: S) => v.object({ items: v.array(item), next_cursor: v.nullable(v.string()) });
export const ProjectPageSchema = page(ProjectResponseSchema);
export const RunPageSchema = page(RunResponseSchema);
export const ApprovalPageSchema = page(ApprovalResponseSchema);
export const UserPageSchema = page(UserResponseSchema);
export const JobPageSchema = page(JobResponseSchema);
export const ReleasePageSchema = page(ReleaseResponseSchema);

/** One project at a glance: counts per status (every status named), the budget, and what the targets point at. */
export const ProjectOverviewSchema = v.object({
  project: ProjectResponseSchema,
  budget: BudgetResponseSchema,
  runs: Counts,
  approvals: Counts,
  jobs: Counts,
  users: Count,
  releases: Count,
  targets: v.object({ live: v.nullable(Uuid), candidate: v.nullable(Uuid) }),
});

/** A run in full, with its surface, its user and every approval it asked for. */
export const RunInspectSchema = v.object({
  ...RunDetailResponseSchema.entries,
  surface: RunSurface,
  user_id: v.nullable(Uuid),
  approvals: v.array(ApprovalResponseSchema),
});

export const FaultSchema = v.object({
  ...FaultRequestSchema.entries,
  id: v.string(),
  method: v.string(),
  path: v.string(),
  /** Firings left (null = until cleared). */
  remaining: v.nullable(Count),
  /** Requests it fired on. */
  hits: Count,
  /** Requests that matched it, fired or not (`after` skips and `probability` misses count). */
  matched: Count,
});
export const FaultPageSchema = v.object({ items: v.array(FaultSchema) });

const Exercise = v.object({ statuses: v.array(v.number()), reason_codes: v.array(v.string()), transitions: v.array(v.string()) });
const Tally = v.object({ total: Count, exercised: Count });
export const CoverageReportSchema = v.object({
  operations: v.array(v.object({ operation: v.string(), method: v.string(), path: v.string(), requests: Count, exercised: Exercise, missing: Exercise })),
  /** What the simulation did, apart from client traffic: events executed (by kind) and the transitions they made. */
  simulated: v.object({
    events: Count,
    by_kind: Counts,
    transitions: v.array(v.string()),
    /** What the retention of simulated history removed, and in how many slices (one transaction each). */
    removed: v.object({ slices: Count, runs: Count, approvals: Count, traces: Count, chat_updates: Count }),
  }),
  summary: v.object({
    operations: Tally,
    statuses: Tally,
    reason_codes: Tally,
    transitions: Tally,
    percent: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
    never_called: v.array(v.string()),
  }),
});

export const DesiredStateViewSchema = v.object({ head: DesiredStateHeadSchema, document: DesiredStateSchema });
export const ApplyAnswerSchema = v.object({
  ...DesiredStateViewSchema.entries,
  /** False when the source produced the head's own state (no revision was created). */
  committed: v.boolean(),
  previous_head: DesiredStateHeadSchema,
  changes: v.array(SemanticChangeSchema),
});
export const CompiledReleaseSchema = ReleaseResponseSchema;

/** A run as the control surface answers it: the run detail plus its surface, user and (when waiting) its approval. */
export const ControlRunSchema = v.object({
  ...RunDetailResponseSchema.entries,
  surface: RunSurface,
  user_id: v.nullable(Uuid),
  approval: v.optional(ApprovalResponseSchema),
});

export const MintedCodeSchema = v.object({ code: v.string(), principal_id: Uuid, scopes: v.array(v.string()), expires_at: Timestamp });

/** One pending simulated event. */
const SimEventViewSchema = v.object({
  at: Timestamp,
  kind: EventKind,
  project_id: v.optional(Uuid),
  run_id: v.optional(Uuid),
  job_id: v.optional(Uuid),
  approval_id: v.optional(v.string()),
});
export const SimulationAnswerSchema = v.object({
  mode: SimulationMode,
  /** Simulated ms per real ms of a running clock. */
  speed: v.number(),
  now: Timestamp,
  clock: v.picklist(['frozen', 'running']),
  pending_count: Count,
  /** The next events in time order, at most 100. */
  pending: v.array(SimEventViewSchema),
  behaviours: BehavioursSchema,
  traffic: v.array(TrafficSchema),
  /** Simulated days a run the simulation created is kept after it ended (0: everything is kept). */
  retention_days: Count,
});
export const SimulationStepAnswerSchema = v.object({ executed: v.nullable(SimEventViewSchema), now: Timestamp, pending_count: Count });
export const SimulationRunAnswerSchema = v.object({
  executed: Count,
  by_kind: Counts,
  from: Timestamp,
  now: Timestamp,
  pending_count: Count,
  /** Real time the run took. */
  elapsed_ms: Count,
});
export const SimulationBehavioursAnswerSchema = BehavioursSchema;
