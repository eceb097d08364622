// The fixture document (CONTRACT section 7): every key optional, records as the responses plus their links and secrets.
import * as v from 'valibot';
import { FreeObject, Int, Timestamp, Uuid, model } from './common.js';
import { AccessTokenRecordSchema, AuthorizationCodeRecordSchema, PrincipalRecordSchema, WorkspaceRecordSchema } from './auth.js';
import { ApprovalRecordSchema } from './approvals.js';
import { ConnectionRecordSchema } from './connections.js';
import { JobResponseSchema } from './jobs.js';
import { ProjectFixtureSchema } from './projects.js';
import { TargetRecordSchema } from './releases.js';
import { RunRecordSchema } from './runs.js';
import { SettingsSchema } from './state.js';
import { SimulationFixtureSchema } from './simulation.js';
import { MemoryRecordSchema, TraceRecordSchema, UserRecordSchema } from './users.js';

export const ReleaseFixtureSchema = model({
  id: Uuid,
  project_id: Uuid,
  generation: v.pipe(Int, v.minValue(1)),
  created_at: Timestamp,
  desired_state: FreeObject,
});

export const ApprovalFixtureSchema = model({
  ...ApprovalRecordSchema.entries,
  binding_fingerprint: v.optional(v.string()),
});

const list = <S extends v.GenericSchema>(s: S) => v.optional(v.array(s), []);

/** The fixture format's version (CHANGELOG.md). A document may name it; one of a version this build does not read is refused. */
export const FIXTURE_FORMAT_VERSION = 1;

export const FixtureSchema = model({
  format_version: v.optional(v.literal(FIXTURE_FORMAT_VERSION, `Input should be ${FIXTURE_FORMAT_VERSION} (the fixture format this build reads)`)),
  now: v.optional(Timestamp),
  settings: v.optional(SettingsSchema, {}),
  workspaces: list(WorkspaceRecordSchema),
  principals: list(PrincipalRecordSchema),
  access_tokens: list(AccessTokenRecordSchema),
  authorization_codes: list(AuthorizationCodeRecordSchema),
  projects: list(ProjectFixtureSchema),
  connections: list(ConnectionRecordSchema),
  releases: list(ReleaseFixtureSchema),
  targets: list(TargetRecordSchema),
  runs: list(RunRecordSchema),
  approvals: list(ApprovalFixtureSchema),
  users: list(UserRecordSchema),
  jobs: list(JobResponseSchema),
  memories: list(MemoryRecordSchema),
  traces: list(TraceRecordSchema),
  simulation: v.optional(SimulationFixtureSchema),
});
export type FixtureInput = v.InferInput<typeof FixtureSchema>;
export type Fixture = v.InferOutput<typeof FixtureSchema>;
