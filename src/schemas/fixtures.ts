// The fixture document (docs/fixtures.md): every key optional, records as the responses plus their links and secrets.
import * as v from 'valibot';
import { FreeObject, Int, Timestamp, Uuid, forbidExtra, model, type SameType } from './common.js';
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

const ReleaseFixtureSchema = model({
  id: Uuid,
  project_id: Uuid,
  generation: v.pipe(Int, v.minValue(1)),
  created_at: Timestamp,
  desired_state: FreeObject,
});

const ApprovalFixtureSchema = model({
  ...ApprovalRecordSchema.entries,
  binding_fingerprint: v.optional(v.string()),
});

const list = <S extends v.GenericSchema>(s: S) => v.optional(v.array(s), []);

/** The fixture format's version (CHANGELOG.md). A document may name it; one of a version this build does not read is refused. */
export const FIXTURE_FORMAT_VERSION = 1;

export const FixtureSchema = forbidExtra(
  model({
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
  }),
);
/**
 * What a fixture document may hold, declared key by key (every key is optional) rather than as `v.InferInput` of the
 * whole schema, whose nesting is too deep for a consumer's compiler (TS2589). The check below keeps the two equal.
 */
export type FixtureInput = { [K in keyof typeof FixtureSchema.entries]?: v.InferInput<(typeof FixtureSchema.entries)[K]> };
const declaredTypeMatches: SameType<FixtureInput, v.InferInput<typeof FixtureSchema>> = true;
void declaredTypeMatches;
export type Fixture = v.InferOutput<typeof FixtureSchema>;
