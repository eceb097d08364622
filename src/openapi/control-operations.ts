// Catalog rows of the /_mock control surface (CONTRACT section 8; not part of v3). A new /_mock route gets its row here.
import { ApplyDesiredStateSchema, CompileReleaseSchema } from '../schemas/control-desired-state.js';
import { BehavioursSchema, SimulationRunRequestSchema, SimulationSettingsRequestSchema } from '../schemas/simulation.js';
import {
  AuthCodeRequestSchema,
  ClockRequestSchema,
  CreateRunSchema,
  FaultRequestSchema,
  JournalQuerySchema,
  RequestPath,
  TransitionSchema,
} from '../schemas/control.js';
import { ControlApprovalPageQuerySchema, ControlJobPageQuerySchema, ControlPageQuerySchema, ControlRunPageQuerySchema } from '../schemas/control-projects.js';
import { FixtureSchema } from '../schemas/fixtures.js';
import { ProjectPath, RunPath } from '../routes/path-params.js';
import * as A from './control-schemas.js';
import { VerifyAnswerSchema } from './control-verify-schemas.js';
import { VerifyOnlySchema, VerifyRequestSchema, VerifySequenceSchema } from '../schemas/control-verify.js';
import * as S from '../schemas/sandboxes.js';
import { named, type AnySchema, type ErrorStatus, type OperationSpec, type SuccessResponse } from './operation-spec.js';

/** A control answer: 200 with a named JSON body. */
export const answer = (name: string, schema: AnySchema, description = 'The answer'): SuccessResponse => ({
  status: 200,
  description,
  body: named(name, schema),
});
const Cleared = answer('ControlClearedAnswer', A.ClearedAnswerSchema, 'How many were removed');
const Clock = answer('ControlClock', A.ClockAnswerSchema, 'The mock clock');
const Run = answer('ControlRun', A.ControlRunSchema, 'The run');
const VerifyAnswer = answer('ControlVerifyAnswer', VerifyAnswerSchema, 'The journal satisfies it: how many entries matched, and their ids');
const Simulation = answer('ControlSimulation', A.SimulationAnswerSchema, 'The simulation');

/** What a control route can refuse: 404 for an unknown project or run, 409 for a state conflict, 413 body size, 422 validation. */
const READ: ErrorStatus[] = [404, 422];
const WRITE: ErrorStatus[] = [404, 409, 413, 422];
/** Every /_mock path passes the control guard first: 401 control token, 403 cross-site Origin, 415 non-JSON body, 421 Host. */
const GUARD: ErrorStatus[] = [401, 403, 415, 421];

export const ctl = (
  operationId: string,
  method: OperationSpec['method'],
  path: string,
  summary: string,
  description: string,
  // Every control row names its answer's schema: the typed client and the tests' response check read it.
  extra: Partial<OperationSpec> & Pick<OperationSpec, 'success'>,
): OperationSpec => ({
  operationId,
  method,
  path: `/_mock${path}`,
  tag: 'control',
  summary,
  description,
  // Required only when the mock runs with a control token (build.ts drops it otherwise).
  security: ['controlToken'],
  ...extra,
  errors: [...GUARD, ...(extra.errors ?? (method === 'get' ? READ : WRITE))],
});

// One row per operation, as a table: a row is easier to read on its own lines than wrapped.
// prettier-ignore
export const CONTROL_OPERATIONS: OperationSpec[] = [
  ctl('controlHealth', 'get', '/health', 'Liveness of the mock and its clock', 'Answers `{status: "ok", now}` (the mock clock).', { errors: [], success: [answer('ControlHealth', A.HealthAnswerSchema)] }),
  ctl('controlReset', 'post', '/reset', 'Back to the loaded fixtures; clears the journal and faults', 'Restores the state the fixtures describe and empties the request journal, the faults and the coverage report.', {
    success: [answer('ControlResetAnswer', A.ResetAnswerSchema)],
  }),
  ctl('controlLoadFixtures', 'post', '/fixtures', 'Load a fixture document, replacing state', 'Validates the fixture document (a bad field is a 422 located at it, and nothing changes), replaces all state with it, and makes it what reset returns to. Answers the record count per collection.', {
    body: { schema: named('FixtureDocument', FixtureSchema), required: true },
    success: [answer('ControlLoadedAnswer', A.LoadedAnswerSchema)],
  }),
  ctl('controlGetState', 'get', '/state', 'Snapshot of the stored state (journal excluded)', 'Every collection as JSON; secrets are sealed, so the snapshot can be stored and restored with PUT /_mock/state.', {
    errors: [],
    success: [answer('StateSnapshot', A.StateSnapshotSchema, 'The state')],
  }),
  ctl('controlPutState', 'put', '/state', 'Restore a snapshot taken with GET /_mock/state', 'Validates the snapshot (422 items and no change on bad input) and replaces all state with it.', {
    body: { schema: named('StateSnapshot', A.StateSnapshotSchema), required: true },
    success: [answer('ControlRestoredAnswer', A.RestoredAnswerSchema)],
  }),
  ctl('controlListRequests', 'get', '/requests', 'The request journal (secrets redacted), filtered by method, path and status', 'Oldest first, bounded. `path` is a substring or a glob (`*` one segment, `**` any); `status` an exact status or a class such as `4xx`; `after` an id (only newer entries: what a poller passes); `limit` keeps the newest N; `summary=true` leaves out query, headers and bodies.', {
    query: JournalQuerySchema,
    success: [answer('ControlJournalPage', A.JournalPageSchema, 'The matching entries')],
  }),
  ctl('controlGetRequest', 'get', '/requests/{request_id}', 'One journal entry in full (secrets redacted)', 'The entry with this id, with its query, headers and bodies; 404 `request_not_found` once it has left the journal (or was never recorded).', {
    pathParams: RequestPath,
    success: [answer('ControlJournalEntry', A.JournalEntrySchema, 'The entry')],
  }),
  ctl('controlClearRequests', 'delete', '/requests', 'Clear the request journal', 'Answers how many entries were removed.', { success: [Cleared] }),
  ctl('controlCoverage', 'get', '/coverage', 'Which statuses, reason codes and transitions of the 20 operations the traffic has exercised', 'Per v3 operation: what the traffic so far produced against what the contract says it can produce. Reset clears it.', {
    errors: [],
    success: [answer('ControlCoverageReport', A.CoverageReportSchema, 'The report')],
  }),
  ctl('controlGetClock', 'get', '/clock', 'The mock clock', 'Answers `{now, frozen_at, offset_ms}`.', { errors: [], success: [Clock] }),
  ctl('controlSetClock', 'post', '/clock', 'Freeze the clock (`now`) or move it (`advance_ms`)', 'Exactly one of `now` (ISO 8601; freezes the clock there) and `advance_ms` (moves it, negative to go back). Answers the clock.', {
    body: { schema: named('ClockRequest', ClockRequestSchema), required: true },
    success: [Clock],
  }),
  ctl('controlListFaults', 'get', '/faults', 'The active faults', 'Each with its id, what it matches, and how many matches it has left.', {
    errors: [],
    success: [answer('ControlFaultPage', A.FaultPageSchema, 'The faults')],
  }),
  ctl('controlAddFault', 'post', '/faults', 'Inject a fault: a status, a wait, a rate limit or a broken connection, for the next N matching requests or until cleared', 'A v3 request matching `method`, `path` and `match` (operation, query, headers, body, principal) is answered with `status`, `body` and `headers` instead of being handled, delayed by `delay_ms` (a number or a uniform/lognormal distribution) first, answered 429 with Retry-After past a `rate_limit` on the mock clock, or broken by a `transport` fault (reset, hang, truncate, malformed_json, slow_body at `bytes_per_s`). `after` skips the first N matches, `probability` fires with a seeded draw, `times` limits how many requests it hits. Inconsistent fields are a 422 at their loc.', {
    body: { schema: named('FaultRequest', FaultRequestSchema), required: true },
    success: [answer('ControlFault', A.FaultSchema, 'The new fault')],
  }),
  ctl('controlClearFaults', 'delete', '/faults', 'Clear every fault', 'Answers how many faults were removed.', { success: [Cleared] }),
  ctl('controlVerify', 'post', '/verify', 'Assert that the journal holds requests matching a pattern, a number of times', 'PATTERN fields are all optional: `method`, `path` (a glob as in faults), `operation` (an operation id of this document), `status` (404 or a class like `4xx`), `reason_code`, `query` and `headers` (subsets; header names in any case), `body` (a JSON subset; arrays match element by element). `count`: `exactly`, `at_least`, `at_most` (without it: at least 1). 200 `{matched, ids}`; otherwise 417 `verification_failed` with `matched`, `expected` and at most 5 `near_misses`, closest first.', {
    body: { schema: named('VerifyRequest', VerifyRequestSchema), required: true },
    errors: [413, 417, 422],
    success: [VerifyAnswer],
  }),
  ctl('controlVerifySequence', 'post', '/verify/sequence', 'Assert that requests matching these patterns happened in this order', 'Others may come between them. 200 `{matched, ids}`; otherwise 417 naming the first pattern (`failed_at`, `expected`) with no match after the previous one\'s, with its near misses.', {
    body: { schema: named('VerifySequenceRequest', VerifySequenceSchema), required: true },
    errors: [413, 417, 422],
    success: [VerifyAnswer],
  }),
  ctl('controlVerifyOnly', 'post', '/verify/only', 'Assert that every journaled request matches at least one of these patterns', '200 `{matched, ids}`; otherwise 417 listing the `unexpected` entries (at most 20; `unexpected_count` has them all).', {
    body: { schema: named('VerifyOnlyRequest', VerifyOnlySchema), required: true },
    errors: [413, 417, 422],
    success: [VerifyAnswer],
  }),
  ctl('controlGetDesiredState', 'get', '/projects/{project_id}/desired-state', 'The desired-state head identity and document', "The project's current head (`revision_id`, `generation`, `fingerprint`) and its normalized desired-state document.", {
    pathParams: ProjectPath,
    success: [answer('ControlDesiredState', A.DesiredStateViewSchema, 'The head and its document')],
  }),
  ctl('controlApplyDesiredState', 'post', '/projects/{project_id}/desired-state/apply', 'Commit a mutation or bundle as a new revision', 'Validated like a plan (endpoint 9); commits the result as the new head unless it equals the head (a no-op). Answers the new head, the previous one and the changes.', {
    pathParams: ProjectPath,
    body: { schema: named('ApplyDesiredStateRequest', ApplyDesiredStateSchema), required: true },
    success: [answer('ControlApplyAnswer', A.ApplyAnswerSchema, 'The new head, the previous one and the changes')],
  }),
  ctl('controlCompileRelease', 'post', '/projects/{project_id}/releases', 'Compile the head into a release, optionally moving a target', 'Compiles the current head into a new immutable release; with `target`, moves that deployment target (`candidate`, `live`) to it.', {
    pathParams: ProjectPath,
    body: { schema: named('CompileReleaseRequest', CompileReleaseSchema), required: false },
    success: [answer('ReleaseResponseV3', A.CompiledReleaseSchema, 'The new release')],
  }),
  ctl('controlCreateRun', 'post', '/projects/{project_id}/runs', 'Create a run in any mode and surface', 'Every field optional: no body creates a queued live api run. `waiting_approval` also opens a pending approval.', {
    pathParams: ProjectPath,
    body: { schema: named('ControlCreateRunRequest', CreateRunSchema), required: false },
    success: [Run],
  }),
  ctl('controlTransitionRun', 'post', '/projects/{project_id}/runs/{run_id}/transition', 'Move a run along a legal lifecycle edge (illegal: 409 `illegal_transition`)', 'Appends the given steps and events and merges timing, usage and result.', {
    pathParams: RunPath,
    body: { schema: named('ControlTransitionRequest', TransitionSchema), required: true },
    success: [Run],
  }),
  ctl('controlMintCode', 'post', '/auth/codes', 'Mint an authorization code for a principal and PKCE challenge', 'The code is exchanged at endpoint 1 with the matching `code_verifier` (PKCE S256).', {
    body: { schema: named('ControlAuthCodeRequest', AuthCodeRequestSchema), required: true },
    success: [answer('ControlMintedCode', A.MintedCodeSchema, 'The code')],
  }),
  ctl('controlListProjects', 'get', '/projects', 'Every project, newest first, in pages', 'Archived projects included. `limit` 1..200 (default 50); `cursor` is the `next_cursor` of the previous page.', {
    query: ControlPageQuerySchema,
    errors: [422],
    success: [answer('ControlProjectPage', A.ProjectPageSchema, 'A page of projects')],
  }),
  ctl('controlGetProject', 'get', '/projects/{project_id}', 'One project at a glance', 'The project, its budget (the default one until a budget is set), runs and jobs by status, approvals by their status as read now, how many users and releases, and the releases the `live` and `candidate` targets point at.', {
    pathParams: ProjectPath,
    success: [answer('ControlProjectOverview', A.ProjectOverviewSchema, 'The project and its counts')],
  }),
  ctl('controlListRuns', 'get', '/projects/{project_id}/runs', "The project's runs, newest first, in pages", 'Optionally of one `status`. Each item is the run as endpoint 5 shows it, without steps, events and result.', {
    pathParams: ProjectPath,
    query: ControlRunPageQuerySchema,
    success: [answer('ControlRunPage', A.RunPageSchema, 'A page of runs')],
  }),
  ctl('controlGetRun', 'get', '/projects/{project_id}/runs/{run_id}', 'One run in full, with its approvals', 'The run detail (steps, events, result), its surface and user, and every approval it asked for.', {
    pathParams: RunPath,
    success: [answer('ControlRunDetail', A.RunInspectSchema, 'The run')],
  }),
  ctl('controlListApprovals', 'get', '/projects/{project_id}/approvals', "The project's approvals, newest request first, in pages", '`status` filters by the status as read now: a pending approval past its expiry is `expired`.', {
    pathParams: ProjectPath,
    query: ControlApprovalPageQuerySchema,
    success: [answer('ControlApprovalPage', A.ApprovalPageSchema, 'A page of approvals')],
  }),
  ctl('controlListUsers', 'get', '/projects/{project_id}/users', "The project's app users, newest first, in pages", 'Deleted users are left out, as endpoint 8 does.', {
    pathParams: ProjectPath,
    query: ControlPageQuerySchema,
    success: [answer('ControlUserPage', A.UserPageSchema, 'A page of users')],
  }),
  ctl('controlListJobs', 'get', '/projects/{project_id}/jobs', "The project's jobs, newest first, in pages", 'Optionally of one `status`.', {
    pathParams: ProjectPath,
    query: ControlJobPageQuerySchema,
    success: [answer('ControlJobPage', A.JobPageSchema, 'A page of jobs')],
  }),
  ctl('controlListReleases', 'get', '/projects/{project_id}/releases', "The project's releases, newest generation first, in pages", 'Each with the targets (`live`, `candidate`) that point at it.', {
    pathParams: ProjectPath,
    query: ControlPageQuerySchema,
    success: [answer('ControlReleasePage', A.ReleasePageSchema, 'A page of releases')],
  }),
  ctl('controlGetSimulation', 'get', '/simulation', 'The simulation: mode, speed and the next pending events', 'Answers `{mode, speed, now, clock, pending_count, pending, behaviours, traffic, retention_days}`; `pending` is at most 100 events in time order, each `{at, kind, project_id?, run_id?, job_id?, approval_id?}`.', {
    errors: [],
    success: [Simulation],
  }),
  ctl('controlSetSimulation', 'put', '/simulation', 'Set the simulation mode, the speed of a running clock, and synthetic chat traffic', '`mode`: `auto` (events fire as the clock reaches them), `step` (only step and run execute them) or `off`. `speed`: simulated ms per real ms of a running clock. `traffic`: replaces the synthetic chat sources. `retention_days`: runs the simulation created (and their approvals, traces and chat updates) are removed this many simulated days after they ended; 0 keeps everything. Answers the simulation.', {
    body: { schema: named('SimulationSettingsRequest', SimulationSettingsRequestSchema), required: true },
    success: [Simulation],
  }),
  ctl('controlStepSimulation', 'post', '/simulation/step', 'Execute exactly the next simulated event', 'The clock jumps to the event\'s time when that is later. Answers `{executed, now, pending_count}`; `executed` is null when nothing is pending.', {
    success: [answer('ControlSimulationStep', A.SimulationStepAnswerSchema, 'The event executed')],
  }),
  ctl('controlRunSimulation', 'post', '/simulation/run', 'Execute simulated events up to a time, or until no run has work left', 'Exactly one of `until` (the clock then reads `until`) and `idle: true`. More than 1,000,000 events is refused with 422 and changes nothing. Answers a summary: `{executed, by_kind, from, now, pending_count, elapsed_ms}`.', {
    body: { schema: named('SimulationRunRequest', SimulationRunRequestSchema), required: true },
    success: [answer('ControlSimulationRun', A.SimulationRunAnswerSchema, 'A summary of the run')],
  }),
  ctl('controlSetBehaviours', 'put', '/simulation/behaviours', 'Replace the behaviours of simulated runs', 'Validated (422 items with `loc`, also for an unknown project or an approval gate on a step that is not a tool step). Runs queued from then on follow them.', {
    body: { schema: named('SimulationBehaviours', BehavioursSchema), required: true },
    success: [answer('SimulationBehaviours', A.SimulationBehavioursAnswerSchema, 'The behaviours now in force')],
  }),
  ctl('controlCreateSandbox', 'post', '/sandboxes', 'Create a sandbox: an isolated mock on this server', 'A whole mock of its own (state, clock, ids, simulation, faults, journal, coverage, snapshots), from `fixtures`, a saved `snapshot` (not both), or what the server started with. Address it by the path prefix `/sandboxes/{id}` (`base_url`), the header `X-Mock-Sandbox: {id}` or the host `{id}.localhost`. It goes `ttl_ms` after its last request. 429 `sandbox_limit` when as many are live as the server allows.', {
    body: { schema: named('CreateSandboxRequest', S.CreateSandboxSchema), required: false },
    errors: [404, 413, 422, 429],
    success: [{ status: 201, description: 'The sandbox', body: named('Sandbox', S.SandboxInfoSchema) }],
  }),
  ctl('controlListSandboxes', 'get', '/sandboxes', 'The live sandboxes, newest first, in pages', '`limit` 1..200 (default 50); `cursor` is the `next_cursor` of the previous page.', {
    query: S.SandboxPageQuerySchema,
    errors: [422],
    success: [answer('SandboxPage', S.SandboxPageSchema, 'A page of sandboxes')],
  }),
  ctl('controlGetSandbox', 'get', '/sandboxes/{sandbox_id}', 'One live sandbox', '404 `sandbox_not_found` once it was deleted or expired.', {
    pathParams: S.SandboxPath,
    success: [answer('Sandbox', S.SandboxInfoSchema, 'The sandbox')],
  }),
  ctl('controlDeleteSandbox', 'delete', '/sandboxes/{sandbox_id}', 'Drop a sandbox and everything it held', 'Its state, journal, faults, coverage and snapshots go at once.', {
    pathParams: S.SandboxPath,
    errors: [404],
    success: [answer('ControlDeletedSandbox', A.DeletedSandboxSchema, 'What was deleted')],
  }),
  ctl('controlSaveSnapshot', 'post', '/snapshots', 'Save the stored state, the clock and the simulation queue under a name', 'A save under a held name replaces it. 409 `snapshot_limit` past 32 snapshots or 64 MiB (as JSON) per mock. Restore it with POST /_mock/snapshots/{name}/restore, or start a sandbox from it.', {
    body: { schema: named('SaveSnapshotRequest', S.SaveSnapshotSchema), required: true },
    errors: [409, 422],
    success: [{ status: 201, description: 'The snapshot', body: named('Snapshot', S.SnapshotInfoSchema) }],
  }),
  ctl('controlListSnapshots', 'get', '/snapshots', 'The saved snapshots', 'In the order they were saved.', { errors: [], success: [answer('SnapshotPage', S.SnapshotPageSchema, 'The snapshots')] }),
  ctl('controlRestoreSnapshot', 'post', '/snapshots/{name}/restore', 'Restore a saved snapshot', 'Puts back its state, clock and simulation queue; the snapshot stays. The journal, faults and coverage are left as they are.', {
    pathParams: S.SnapshotPath,
    errors: [404, 422],
    success: [answer('ControlRestoredSnapshot', A.RestoredSnapshotSchema, 'The snapshot restored')],
  }),
  ctl('controlDeleteSnapshot', 'delete', '/snapshots/{name}', 'Remove a saved snapshot', '404 `snapshot_not_found` for an unknown name.', {
    pathParams: S.SnapshotPath,
    errors: [404, 422],
    success: [answer('ControlDeletedSnapshot', A.DeletedSnapshotSchema, 'What was removed')],
  }),
];
