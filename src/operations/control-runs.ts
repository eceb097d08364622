// The /_mock operations that change a project's desired state and runs: the head, apply, compile, create and move a
// run, and mint an authorization code.
import { applyDesiredState, compileReleaseFromHead, readDesiredState } from '../domain/desired-state-store.js';
import { ApplyDesiredStateSchema, CompileReleaseSchema } from '../schemas/control-desired-state.js';
import { AuthCodeRequestSchema, CreateRunSchema, TransitionSchema } from '../schemas/control.js';
import * as A from '../openapi/control-schemas.js';
import { named } from '../openapi/operation-spec.js';
import { ProjectPath, RunPath } from '../routes/path-params.js';
import { Run, answer } from './answers.js';
import { declareControl } from './declare.js';

// prettier-ignore
export const CONTROL_RUN_OPERATIONS = [
  declareControl({
    operationId: 'controlGetDesiredState',
    method: 'get',
    path: '/_mock/projects/{project_id}/desired-state',
    summary: 'The desired-state head identity and document',
    description: "The project's current head (`revision_id`, `generation`, `fingerprint`) and its normalized desired-state document.",
    pathParams: ProjectPath,
    success: [answer('ControlDesiredState', A.DesiredStateViewSchema, 'The head and its document')],
    client: { name: 'getDesiredState' },
    handler: () => ({ path, deps }) => readDesiredState(deps, path.project_id),
  }),
  declareControl({
    operationId: 'controlApplyDesiredState',
    method: 'post',
    path: '/_mock/projects/{project_id}/desired-state/apply',
    summary: 'Commit a mutation or bundle as a new revision',
    description: 'Validated like a plan (endpoint 9); commits the result as the new head unless it equals the head (a no-op). Answers the new head, the previous one and the changes.',
    pathParams: ProjectPath,
    body: { schema: named('ApplyDesiredStateRequest', ApplyDesiredStateSchema), required: true },
    success: [answer('ControlApplyAnswer', A.ApplyAnswerSchema, 'The new head, the previous one and the changes')],
    client: { name: 'applyDesiredState', body: 'input' },
    handler: () => ({ path, body, deps }) => applyDesiredState(deps, path.project_id, body),
  }),
  declareControl({
    operationId: 'controlCompileRelease',
    method: 'post',
    path: '/_mock/projects/{project_id}/releases',
    summary: 'Compile the head into a release, optionally moving a target',
    description: 'Compiles the current head into a new immutable release; with `target`, moves that deployment target (`candidate`, `live`) to it.',
    pathParams: ProjectPath,
    // No body compiles the head without moving a target.
    body: { schema: named('CompileReleaseRequest', CompileReleaseSchema), required: false },
    success: [answer('ReleaseResponseV3', A.CompiledReleaseSchema, 'The new release')],
    client: { name: 'compileRelease', body: 'input' },
    handler: () => ({ path, body, deps }) => compileReleaseFromHead(deps, path.project_id, body),
  }),
  declareControl({
    operationId: 'controlCreateRun',
    method: 'post',
    path: '/_mock/projects/{project_id}/runs',
    summary: 'Create a run in any mode and surface',
    description: 'Every field optional: no body creates a queued live api run. `waiting_approval` also opens a pending approval.',
    pathParams: ProjectPath,
    body: { schema: named('ControlCreateRunRequest', CreateRunSchema), required: false },
    success: [Run],
    client: { name: 'createRun', doc: 'Creates a run in any status, mode and surface (no input: a queued live api run).', body: 'input' },
    handler: () => ({ path, body, control }) => control.createRun(path.project_id, body),
  }),
  declareControl({
    operationId: 'controlTransitionRun',
    method: 'post',
    path: '/_mock/projects/{project_id}/runs/{run_id}/transition',
    summary: 'Move a run along a legal lifecycle edge (illegal: 409 `illegal_transition`)',
    description: 'Appends the given steps and events and merges timing, usage and result.',
    pathParams: RunPath,
    body: { schema: named('ControlTransitionRequest', TransitionSchema), required: true },
    success: [Run],
    client: { name: 'transitionRun', doc: 'Moves a run along a legal lifecycle edge (else 409 `illegal_transition`).', body: 'input' },
    handler: () => ({ path, body, control }) => control.transitionRun(path.project_id, path.run_id, body),
  }),
  declareControl({
    operationId: 'controlMintCode',
    method: 'post',
    path: '/_mock/auth/codes',
    summary: 'Mint an authorization code for a principal and PKCE challenge',
    description: 'The code is exchanged at endpoint 1 with the matching `code_verifier` (PKCE S256).',
    body: { schema: named('ControlAuthCodeRequest', AuthCodeRequestSchema), required: true },
    success: [answer('ControlMintedCode', A.MintedCodeSchema, 'The code')],
    client: { name: 'mintAuthorizationCode', doc: 'An authorization code for a principal and PKCE S256 challenge, to exchange at endpoint 1.', body: 'input' },
    handler: () => ({ body, control }) => control.mintAuthorizationCode(body),
  }),
];
