// Public API of the pure desired-state domain: normalize, fingerprint, mutate, diff, bundle, compile, plan.
export { normalizeDesiredState, canonicalState, emptyDesiredState, EMPTY_DESIRED_STATE } from './normalize.js';
export { fingerprint, canonicalJson, sha256Hex, sameJson } from './fingerprint.js';
export { applyMutation, applyMutations } from './mutations.js';
export { diffStates, diffFingerprint, sortChanges } from './diff.js';
export { stateFromBundle } from './bundle.js';
export { compileRelease, RELEASE_SCHEMA_VERSION, COMPILER_VERSION } from './compile.js';
export { assertOneSource, proposeDesiredState, buildPlan, buildReleaseDiff, PLAN_API_VERSION } from './plan.js';
export type {
  Agent,
  Bundle,
  Connection,
  DesiredState,
  DesiredStateHead,
  Mutation,
  MutationOf,
  MutationType,
  PlanRequest,
  PlanResponse,
  ReleaseDiffResponse,
  ReleaseDocument,
  SemanticChange,
} from '../../schemas/index.js';
