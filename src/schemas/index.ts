// The face of src/schemas/: what code outside the folder imports from it (nothing reaches past this file).
export {
  SimulationMode,
  BehavioursSchema,
  SimulationRunRequestSchema,
  SimulationSettingsRequestSchema,
  SIMULATION_RECORD_ID,
  EventKind,
  TrafficSchema,
  type BehavioursInput,
  type SimulationRunRequest,
  type SimulationSettingsRequest,
  type Behaviour,
  type BehaviourPart,
  type Behaviours,
  type SimStep,
  type SimEventRecord,
  type SimulationRecord,
  type Traffic,
} from './simulation.js';
export {
  COLLECTION_NAMES,
  PRIMARY_KEYS,
  CompleteStateDataSchema,
  DATA_FILE_FORMAT,
  DATA_FILE_VERSION,
  ClockStateSchema,
  COLLECTION_SCHEMAS,
  DATA_FILE_VERSIONS,
  SettingsSchema,
  type CollectionName,
  type StateData,
  type RecordOf,
  type ClockState,
  type DataFile,
  type Settings,
} from './state.js';
export {
  AuthCodeRequestSchema,
  ApprovalInputSchema,
  CreateRunSchema,
  StepInputSchema,
  TransitionSchema,
  ClockRequestSchema,
  JournalQuerySchema,
  RequestPath,
  type AuthCodeRequest,
  type CreateRunInput,
  type TransitionInput,
  type ApprovalInput,
} from './control.js';
export {
  ApplyDesiredStateSchema,
  CompileReleaseSchema,
  type ApplyDesiredStateInput,
  type CompileReleaseInput,
  type ApplyDesiredStateRequest,
} from './control-desired-state.js';
export { MAX_DELAY_MS, FaultRequestSchema, type FaultBody, type FaultRequest, type DelaySpec } from './control-faults.js';
export { FixtureSchema, type Fixture, type FixtureInput } from './fixtures.js';
export { DriftItemSchema, DriftReportSchema, type DriftItem, type DriftReport, type DriftSource, type DriftGroup } from './drift.js';
export { ApprovalStatus, ApprovalResponseSchema, ApprovalListQuerySchema, ApprovalQuerySchema, DenyRequestSchema } from './approvals.js';
export { JobStatus, JobResponseSchema, JobListQuerySchema } from './jobs.js';
export {
  RunStatus,
  RunStepSchema,
  RunTimingSchema,
  RunDetailResponseSchema,
  RunResponseSchema,
  RunSurface,
  CancelRequestSchema,
  RetryRequestSchema,
  RunDetailQuerySchema,
  type RunStep,
} from './runs.js';
export {
  ControlApprovalPageQuerySchema,
  ControlJobPageQuerySchema,
  ControlPageQuerySchema,
  ControlProjectPageQuerySchema,
  ControlRunPageQuerySchema,
  type ControlApprovalPageQuery,
  type ControlJobPageQuery,
  type ControlPageQuery,
  type ControlProjectPageQuery,
  type ControlRunPageQuery,
} from './control-projects.js';
export { TIMELINE_DEFAULT_SPAN_MS, TimelineQuerySchema, type TimelineQuery } from './control-timeline.js';
export {
  VerifyOnlySchema,
  VerifyRequestSchema,
  VerifySequenceSchema,
  type Count,
  type RequestPattern,
  type VerifyListRequest,
  type VerifyRequest,
} from './control-verify.js';
export {
  BundleSchema,
  MutationSchema,
  SemanticChangeSchema,
  DesiredStateHeadSchema,
  DesiredStateSchema,
  PlanRequestSchema,
  PlanResponseSchema,
  ReleaseDiffResponseSchema,
  type Bundle,
  type DesiredState,
  type MutationOf,
  type MutationType,
  type ChangeCategory,
  type AuthorityEffect,
  type ChangeAction,
  type SemanticChange,
  type Agent,
  type ExecutionPlan,
  type ReleaseDocument,
  type ReleaseResource,
  type DesiredStateHead,
  type Mutation,
  type PlanRequest,
  type PlanResponse,
  type ReleaseDiffResponse,
  type ParsedDesiredState,
  type MemoryGrant,
} from './desired-state.js';
export { ReleaseResponseSchema, ReleaseDiffQuerySchema, ReleasePageQuerySchema } from './releases.js';
export { UserResponseSchema, DeleteUserRequestSchema, UserDeleteResponseSchema, UserPageQuerySchema } from './users.js';
export { FreeObject, NonEmptyString, Timestamp, Uuid, model, Int } from './common.js';
export {
  BudgetResponseSchema,
  ProjectResponseSchema,
  BudgetRequestSchema,
  DeleteProjectRequestSchema,
  TransferRequestSchema,
  type BudgetLimits,
  type BudgetRequest,
} from './projects.js';
export { ConnectionBindingResponseSchema } from './connections.js';
export * as sandboxes from './sandboxes.js';
export {
  SandboxPageQuerySchema,
  SaveSnapshotSchema,
  SnapshotPath,
  SnapshotInfoSchema,
  CreateSandboxSchema,
  type CreateSandboxInput,
  type SandboxInfo,
  type SandboxPage,
  type SandboxPageQuery,
} from './sandboxes.js';
export { TestExportQuerySchema, BUNDLE_FORMAT, ReproductionBundleSchema, type BundleInput } from './bundle.js';
export { TokenRequestSchema, TokenResponseSchema } from './auth.js';
export { PACED_TRANSPORT, TRANSPORT_FAULTS, TRANSPORT_FAULT_KINDS, type TransportKind } from './transport-faults.js';
