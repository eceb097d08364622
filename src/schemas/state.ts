// The stored state: every collection, its record schema and its primary key; the data file and snapshots use it.
import * as v from 'valibot';
import { Float, Int, Timestamp, Uuid, forbidExtra, model, type SameType } from './common.js';
import { AccessTokenRecordSchema, AuthorizationCodeRecordSchema, PrincipalRecordSchema, RefreshTokenRecordSchema, WorkspaceRecordSchema } from './auth.js';
import { ApprovalRecordSchema } from './approvals.js';
import { ConnectionRecordSchema } from './connections.js';
import { JobResponseSchema } from './jobs.js';
import { BudgetResponseSchema, ProjectResponseSchema } from './projects.js';
import { ReleaseRecordSchema, RevisionRecordSchema, TargetRecordSchema } from './releases.js';
import { RunRecordSchema } from './runs.js';
import { MemoryRecordSchema, TraceRecordSchema, UserRecordSchema } from './users.js';
import { SimEventRecordSchema, SimulatedRunRecordSchema, SimulationRecordSchema, UserSpendRecordSchema } from './simulation.js';

const ProjectRecordSchema = model({ ...ProjectResponseSchema.entries, head_revision_id: v.optional(v.nullable(Uuid), null) });

const ChatUpdateRecordSchema = model({ key: v.string(), binding_id: Uuid, update_id: v.string(), run_id: Uuid, received_at: Timestamp });
const BrokerEventRecordSchema = model({ event_id: v.string(), connection_resource_id: v.string(), event_type: v.string(), received_at: Timestamp });

/** Collection name -> record schema. Order matters only for readability of the data file. */
export const COLLECTION_SCHEMAS = {
  workspaces: WorkspaceRecordSchema,
  principals: PrincipalRecordSchema,
  access_tokens: AccessTokenRecordSchema,
  refresh_tokens: RefreshTokenRecordSchema,
  authorization_codes: AuthorizationCodeRecordSchema,
  projects: ProjectRecordSchema,
  budgets: BudgetResponseSchema,
  revisions: RevisionRecordSchema,
  connections: ConnectionRecordSchema,
  releases: ReleaseRecordSchema,
  targets: TargetRecordSchema,
  runs: RunRecordSchema,
  approvals: ApprovalRecordSchema,
  users: UserRecordSchema,
  jobs: JobResponseSchema,
  memories: MemoryRecordSchema,
  traces: TraceRecordSchema,
  chat_updates: ChatUpdateRecordSchema,
  broker_events: BrokerEventRecordSchema,
  simulation: SimulationRecordSchema,
  simulation_events: SimEventRecordSchema,
  user_spend: UserSpendRecordSchema,
  simulated_runs: SimulatedRunRecordSchema,
} as const;

export type CollectionName = keyof typeof COLLECTION_SCHEMAS;
export type RecordOf<C extends CollectionName> = v.InferOutput<(typeof COLLECTION_SCHEMAS)[C]>;
export const COLLECTION_NAMES = Object.keys(COLLECTION_SCHEMAS) as CollectionName[];

/** How each collection's records are keyed. */
export const PRIMARY_KEYS: { [C in CollectionName]: (r: RecordOf<C>) => string } = {
  workspaces: (r) => r.id,
  principals: (r) => r.id,
  access_tokens: (r) => r.token,
  refresh_tokens: (r) => r.token,
  authorization_codes: (r) => r.code,
  projects: (r) => r.id,
  budgets: (r) => r.project_id,
  revisions: (r) => r.revision_id,
  connections: (r) => r.id,
  releases: (r) => r.id,
  targets: (r) => `${r.project_id}:${r.name}`,
  runs: (r) => r.id,
  approvals: (r) => r.id,
  users: (r) => r.id,
  jobs: (r) => r.id,
  memories: (r) => r.id,
  traces: (r) => r.id,
  chat_updates: (r) => r.key,
  broker_events: (r) => r.event_id,
  simulation: (r) => r.id,
  simulation_events: (r) => r.key,
  user_spend: (r) => r.key,
  simulated_runs: (r) => r.run_id,
};

export const ClockStateSchema = model({
  frozen_at: v.optional(v.nullable(Timestamp), null),
  offset_ms: v.optional(Int, 0),
  /** Simulated ms per real ms of a running clock (the simulation's `speed`); absent = 1. */
  rate: v.optional(v.pipe(Float, v.minValue(0.001), v.maxValue(1_000_000))),
  /** Real time (base source ms) from which `rate` applies; set with it. */
  anchor_ms: v.optional(Float),
});
export type ClockState = v.InferOutput<typeof ClockStateSchema>;

export const SettingsSchema = model({
  admin_key: v.optional(v.nullable(v.string()), null),
  broker_secret: v.optional(v.nullable(v.string()), null),
});
export type Settings = v.InferOutput<typeof SettingsSchema>;

/** Plain-JSON state: what the data file holds and what GET/PUT /_mock/state exchange. */
const StateDataSchema = model({
  clock: v.optional(ClockStateSchema, {}),
  settings: v.optional(SettingsSchema, {}),
  ...(Object.fromEntries(COLLECTION_NAMES.map((c) => [c, v.optional(v.array(COLLECTION_SCHEMAS[c]), [])])) as {
    [C in CollectionName]: v.OptionalSchema<v.ArraySchema<(typeof COLLECTION_SCHEMAS)[C], undefined>, readonly []>;
  }),
});
/**
 * Declared as its parts (not `v.InferOutput` of the whole schema), so a consumer's compiler resolves it one collection at
 * a time: the inferred type of the whole nests too deep for TypeScript (TS2589). `SameType` below keeps the two equal.
 */
export type StateData = { clock: ClockState; settings: Settings } & { [C in CollectionName]: RecordOf<C>[] };

/**
 * What PUT /_mock/state takes: a whole document as GET /_mock/state answers it, every key present. A missing key
 * would otherwise read as empty and wipe that collection (`{}` wiped everything).
 */
export const CompleteStateDataSchema = forbidExtra(
  model({
    clock: ClockStateSchema,
    settings: SettingsSchema,
    ...(Object.fromEntries(COLLECTION_NAMES.map((c) => [c, v.array(COLLECTION_SCHEMAS[c])])) as {
      [C in CollectionName]: v.ArraySchema<(typeof COLLECTION_SCHEMAS)[C], undefined>;
    }),
    // Added after the others: a document exported before it still imports, its runs then all kept (none is marked simulated).
    simulated_runs: v.optional(v.array(SimulatedRunRecordSchema), []),
  }),
);

export const DATA_FILE_FORMAT = 'project-runtime-mock';
/** Version 2 adds `seq` (the snapshot's place in the order of change sets); version 1 files still load. */
export const DATA_FILE_VERSION = 2;
export const DATA_FILE_VERSIONS: readonly number[] = [1, 2];

// Compile-time only, as is StateDataSchema: a data file is checked record by record as it streams in, and PUT /_mock/state
// parses CompleteStateDataSchema; these two hold the shallow declarations below equal to the records' schemas.
const DataFileSchema = model({
  format: v.literal(DATA_FILE_FORMAT),
  format_version: v.picklist([1, 2]),
  seq: v.optional(v.pipe(Int, v.minValue(0))),
  state: StateDataSchema,
});
/** The data file document, declared shallowly for the same reason as `StateData`. */
export type DataFile = { format: typeof DATA_FILE_FORMAT; format_version: 1 | 2; seq?: number | undefined; state: StateData };

const declaredTypesMatch: [SameType<StateData, v.InferOutput<typeof StateDataSchema>>, SameType<DataFile, v.InferOutput<typeof DataFileSchema>>] = [true, true];
void [declaredTypesMatch, DataFileSchema];
