// Today's control client methods as they were written by hand before being generated from the declarations: the
// signature test (test/client/client-signatures.test.ts) holds the generated ones to exactly these types.
import type { Client } from 'openapi-fetch';
import type { components, operations, paths } from '../../src/client/generated.js';
import { answer, verified, type CallOptions } from '../../src/client/calls.js';

type S = components['schemas'];
type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;

/**
 * `bind(id)` makes a client of the same kind addressed to sandbox `id` (its base URL plus `/sandboxes/{id}`): what
 * createSandbox resolves with.
 */
function controlBefore<Bound>(api: Client<paths>, bind: (id: string) => Bound) {
  return {
    /** `{status: "ok", now}`. */
    health: (opts?: CallOptions) => answer('GET /_mock/health', api.GET('/_mock/health', { ...opts })),
    /** Back to the loaded fixtures; also clears the journal, the faults and the coverage report. */
    reset: (opts?: CallOptions) => answer('POST /_mock/reset', api.POST('/_mock/reset', { ...opts })),
    /** Replaces all state with a fixture document, which reset then returns to. */
    loadFixtures: (fixture: S['FixtureDocument'], opts?: CallOptions) =>
      answer('POST /_mock/fixtures', api.POST('/_mock/fixtures', { body: fixture, ...opts })),
    /** The stored state, secrets sealed: hand it back to importState. */
    exportState: (opts?: CallOptions) => answer('GET /_mock/state', api.GET('/_mock/state', { ...opts })),
    importState: (snapshot: S['StateSnapshot'], opts?: CallOptions) => answer('PUT /_mock/state', api.PUT('/_mock/state', { body: snapshot, ...opts })),
    /** A repro bundle of the whole session (secrets sealed): hand it to importBundle, `--bundle FILE` or createApp({ bundle }). */
    exportBundle: (opts?: CallOptions) => answer('GET /_mock/bundle', api.GET('/_mock/bundle', { ...opts })),
    /** Restores a repro bundle whole (a bad one is a ControlError 422 and changes nothing). */
    importBundle: (bundle: S['ReproBundle'], opts?: CallOptions) => answer('PUT /_mock/bundle', api.PUT('/_mock/bundle', { body: bundle, ...opts })),
    /** The journal (filtered as `requests`) as a HAR 1.2 document, redacted. */
    har: (filter?: Query<'controlRequestsHar'>, opts?: CallOptions) =>
      answer('GET /_mock/requests.har', api.GET('/_mock/requests.har', { params: { query: filter }, ...opts })),
    /** How the client under test behaved: each rule's findings over the journal. */
    /** The session as a replayable test file's text (format `node-test` or `vitest`; requests from `since` asserted). */
    exportTest: async (query?: Query<'controlExportTest'>, opts?: CallOptions): Promise<string> =>
      answer('GET /_mock/requests/export', api.GET('/_mock/requests/export', { params: { query }, parseAs: 'text', ...opts })) as Promise<string>,
    clientReport: (opts?: CallOptions) => answer('GET /_mock/client-report', api.GET('/_mock/client-report', { ...opts })),
    /** What shadow mode found (GET /_mock/drift): differences by operation and field, counts, the target's state. */
    drift: (opts?: CallOptions) => answer('GET /_mock/drift', api.GET('/_mock/drift', { ...opts })),
    /** Journal entries, oldest first, filtered by method, path (substring or glob) and status (`404`, `4xx`). */
    requests: async (filter?: Query<'controlListRequests'>, opts?: CallOptions) =>
      (await answer('GET /_mock/requests', api.GET('/_mock/requests', { params: { query: filter }, ...opts }))).items,
    /** One journal entry in full (redacted); ControlError 404 `request_not_found` once it has left the journal. */
    journalEntry: (request_id: number, opts?: CallOptions) =>
      answer('GET /_mock/requests/{request_id}', api.GET('/_mock/requests/{request_id}', { params: { path: { request_id } }, ...opts })),
    /** Asserts the journal holds requests matching `request`, `count` times (at least once); rejects with an AssertionError otherwise. */
    verify: (input: S['VerifyRequest'], opts?: CallOptions) => verified('POST /_mock/verify', 'verify', api.POST('/_mock/verify', { body: input, ...opts })),
    /** Asserts requests matching these patterns happened in this order (others possibly between them). */
    verifySequence: (input: S['VerifySequenceRequest'], opts?: CallOptions) =>
      verified('POST /_mock/verify/sequence', 'verifySequence', api.POST('/_mock/verify/sequence', { body: input, ...opts })),
    /** Asserts every journaled request matches at least one of these patterns. */
    verifyOnly: (input: S['VerifyOnlyRequest'], opts?: CallOptions) =>
      verified('POST /_mock/verify/only', 'verifyOnly', api.POST('/_mock/verify/only', { body: input, ...opts })),
    /** Empties the journal; resolves with how many entries it held. */
    clearRequests: async (opts?: CallOptions) => (await answer('DELETE /_mock/requests', api.DELETE('/_mock/requests', { ...opts }))).cleared,
    coverage: (opts?: CallOptions) => answer('GET /_mock/coverage', api.GET('/_mock/coverage', { ...opts })),
    /** What to exercise next: the coverage gate's gaps at 100 %, each with the control calls that provoke it. */
    coverageNext: (opts?: CallOptions) => answer('GET /_mock/coverage/next', api.GET('/_mock/coverage/next', { ...opts })),
    /** Runs by status, spend, approvals, jobs fired and requests by status class over a span of the mock clock, in buckets. */
    timeline: (query?: Query<'controlTimeline'>, opts?: CallOptions) =>
      answer('GET /_mock/timeline', api.GET('/_mock/timeline', { params: { query }, ...opts })),
    clock: (opts?: CallOptions) => answer('GET /_mock/clock', api.GET('/_mock/clock', { ...opts })),
    /** Freezes the clock at `now` (ISO 8601). */
    setClock: (now: string, opts?: CallOptions) => answer('POST /_mock/clock', api.POST('/_mock/clock', { body: { now }, ...opts })),
    /** Moves the clock by `ms` (negative goes back). */
    advanceClock: (ms: number, opts?: CallOptions) => answer('POST /_mock/clock', api.POST('/_mock/clock', { body: { advance_ms: ms }, ...opts })),
    faults: async (opts?: CallOptions) => (await answer('GET /_mock/faults', api.GET('/_mock/faults', { ...opts }))).items,
    addFault: (spec: S['FaultRequest'], opts?: CallOptions) => answer('POST /_mock/faults', api.POST('/_mock/faults', { body: spec, ...opts })),
    clearFaults: async (opts?: CallOptions) => (await answer('DELETE /_mock/faults', api.DELETE('/_mock/faults', { ...opts }))).cleared,
    getDesiredState: (project_id: string, opts?: CallOptions) =>
      answer(
        'GET /_mock/projects/{project_id}/desired-state',
        api.GET('/_mock/projects/{project_id}/desired-state', { params: { path: { project_id } }, ...opts }),
      ),
    applyDesiredState: (project_id: string, input: S['ApplyDesiredStateRequest'], opts?: CallOptions) =>
      answer(
        'POST /_mock/projects/{project_id}/desired-state/apply',
        api.POST('/_mock/projects/{project_id}/desired-state/apply', { params: { path: { project_id } }, body: input, ...opts }),
      ),
    compileRelease: (project_id: string, input?: S['CompileReleaseRequest'], opts?: CallOptions) =>
      answer(
        'POST /_mock/projects/{project_id}/releases',
        api.POST('/_mock/projects/{project_id}/releases', { params: { path: { project_id } }, body: input, ...opts }),
      ),
    /** Creates a run in any status, mode and surface (no input: a queued live api run). */
    createRun: (project_id: string, input?: S['ControlCreateRunRequest'], opts?: CallOptions) =>
      answer(
        'POST /_mock/projects/{project_id}/runs',
        api.POST('/_mock/projects/{project_id}/runs', { params: { path: { project_id } }, body: input, ...opts }),
      ),
    /** Moves a run along a legal lifecycle edge (else 409 `illegal_transition`). */
    transitionRun: (project_id: string, run_id: string, input: S['ControlTransitionRequest'], opts?: CallOptions) =>
      answer(
        'POST /_mock/projects/{project_id}/runs/{run_id}/transition',
        api.POST('/_mock/projects/{project_id}/runs/{run_id}/transition', { params: { path: { project_id, run_id } }, body: input, ...opts }),
      ),
    /** An authorization code for a principal and PKCE S256 challenge, to exchange at endpoint 1. */
    mintAuthorizationCode: (input: S['ControlAuthCodeRequest'], opts?: CallOptions) =>
      answer('POST /_mock/auth/codes', api.POST('/_mock/auth/codes', { body: input, ...opts })),
    /** Every project, newest first, in keyset pages (`limit`, `cursor` = the previous page's `next_cursor`). */
    projects: (query?: Query<'controlListProjects'>, opts?: CallOptions) =>
      answer('GET /_mock/projects', api.GET('/_mock/projects', { params: { query }, ...opts })),
    /** One project at a glance: budget, runs, approvals and jobs by status, users, releases, targets. */
    projectOverview: (project_id: string, opts?: CallOptions) =>
      answer('GET /_mock/projects/{project_id}', api.GET('/_mock/projects/{project_id}', { params: { path: { project_id } }, ...opts })),
    /** The project's runs, newest first, optionally of one `status`, in pages. */
    runs: (project_id: string, query?: Query<'controlListRuns'>, opts?: CallOptions) =>
      answer('GET /_mock/projects/{project_id}/runs', api.GET('/_mock/projects/{project_id}/runs', { params: { path: { project_id }, query }, ...opts })),
    /** One run in full, with its surface, user and approvals. */
    run: (project_id: string, run_id: string, opts?: CallOptions) =>
      answer(
        'GET /_mock/projects/{project_id}/runs/{run_id}',
        api.GET('/_mock/projects/{project_id}/runs/{run_id}', { params: { path: { project_id, run_id } }, ...opts }),
      ),
    /** The project's approvals, optionally of one `status` as read now (`expired` once past expiry), in pages. */
    approvals: (project_id: string, query?: Query<'controlListApprovals'>, opts?: CallOptions) =>
      answer(
        'GET /_mock/projects/{project_id}/approvals',
        api.GET('/_mock/projects/{project_id}/approvals', { params: { path: { project_id }, query }, ...opts }),
      ),
    /** The project's app users, newest first, in pages. */
    users: (project_id: string, query?: Query<'controlListUsers'>, opts?: CallOptions) =>
      answer('GET /_mock/projects/{project_id}/users', api.GET('/_mock/projects/{project_id}/users', { params: { path: { project_id }, query }, ...opts })),
    /** The project's jobs, optionally of one `status`, in pages. */
    jobs: (project_id: string, query?: Query<'controlListJobs'>, opts?: CallOptions) =>
      answer('GET /_mock/projects/{project_id}/jobs', api.GET('/_mock/projects/{project_id}/jobs', { params: { path: { project_id }, query }, ...opts })),
    /** The project's releases, newest generation first, with their targets, in pages. */
    releases: (project_id: string, query?: Query<'controlListReleases'>, opts?: CallOptions) =>
      answer(
        'GET /_mock/projects/{project_id}/releases',
        api.GET('/_mock/projects/{project_id}/releases', { params: { path: { project_id }, query }, ...opts }),
      ),
    /** The simulation: mode, speed, and the next pending events (at most 100) in time order. */
    simulation: (opts?: CallOptions) => answer('GET /_mock/simulation', api.GET('/_mock/simulation', { ...opts })),
    /** Sets the mode (`auto`, `step`, `off`), the speed of a running clock, and the synthetic chat traffic. */
    setSimulation: (input: S['SimulationSettingsRequest'], opts?: CallOptions) =>
      answer('PUT /_mock/simulation', api.PUT('/_mock/simulation', { body: input, ...opts })),
    /** Executes exactly the next event (the clock jumps to its time when later); `executed` is null when none is pending. */
    stepSimulation: (opts?: CallOptions) => answer('POST /_mock/simulation/step', api.POST('/_mock/simulation/step', { ...opts })),
    /** Executes every event up to `until`, or until no run has work left (`idle: true`). */
    runSimulation: (input: S['SimulationRunRequest'], opts?: CallOptions) =>
      answer('POST /_mock/simulation/run', api.POST('/_mock/simulation/run', { body: input, ...opts })),
    /** Replaces the behaviours of simulated runs. */
    setBehaviours: (input: S['SimulationBehaviours'], opts?: CallOptions) =>
      answer('PUT /_mock/simulation/behaviours', api.PUT('/_mock/simulation/behaviours', { body: input, ...opts })),
    /** Creates a sandbox and resolves with a client bound to it (same v3 and control methods); `sandbox` is what the create answered. */
    createSandbox: async (input: S['CreateSandboxRequest'] = {}, opts?: CallOptions): Promise<Bound & { sandbox: S['Sandbox'] }> => {
      const sandbox = await answer('POST /_mock/sandboxes', api.POST('/_mock/sandboxes', { body: input, ...opts }));
      return Object.assign(bind(sandbox.id) as Bound & object, { sandbox }) as Bound & { sandbox: S['Sandbox'] };
    },
    /** Live sandboxes, newest first, in pages. */
    sandboxes: (query?: Query<'controlListSandboxes'>, opts?: CallOptions) =>
      answer('GET /_mock/sandboxes', api.GET('/_mock/sandboxes', { params: { query }, ...opts })),
    sandbox: (sandbox_id: string, opts?: CallOptions) =>
      answer('GET /_mock/sandboxes/{sandbox_id}', api.GET('/_mock/sandboxes/{sandbox_id}', { params: { path: { sandbox_id } }, ...opts })),
    /** Drops a sandbox and everything it held. */
    deleteSandbox: (sandbox_id: string, opts?: CallOptions) =>
      answer('DELETE /_mock/sandboxes/{sandbox_id}', api.DELETE('/_mock/sandboxes/{sandbox_id}', { params: { path: { sandbox_id } }, ...opts })),
    /** Saves the stored state, the clock and the simulation queue under `name`. */
    saveSnapshot: (name: string, opts?: CallOptions) => answer('POST /_mock/snapshots', api.POST('/_mock/snapshots', { body: { name }, ...opts })),
    snapshots: async (opts?: CallOptions) => (await answer('GET /_mock/snapshots', api.GET('/_mock/snapshots', { ...opts }))).items,
    restoreSnapshot: (name: string, opts?: CallOptions) =>
      answer('POST /_mock/snapshots/{name}/restore', api.POST('/_mock/snapshots/{name}/restore', { params: { path: { name } }, ...opts })),
    deleteSnapshot: (name: string, opts?: CallOptions) =>
      answer('DELETE /_mock/snapshots/{name}', api.DELETE('/_mock/snapshots/{name}', { params: { path: { name } }, ...opts })),
  };
}

export type ControlBefore<Bound = unknown> = ReturnType<typeof controlBefore<Bound>>;
// Never called: the function is kept for the type its body infers, as the hand-written client's did.
void controlBefore;
