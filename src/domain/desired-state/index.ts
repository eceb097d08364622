// Public API of the pure desired-state domain: normalize, fingerprint, mutate, diff, bundle, compile, plan.
export { normalizeDesiredState, emptyDesiredState } from './normalize.js';
export { fingerprint } from './fingerprint.js';
export { applyMutation, applyMutations } from './mutations.js';
export { diffStates, diffFingerprint } from './diff.js';
export { stateFromBundle } from './bundle.js';
export { compileRelease } from './compile.js';
export { assertOneSource, proposeDesiredState, buildPlan, buildReleaseDiff } from './plan.js';
export type { DesiredState, Mutation, SemanticChange } from '../../schemas/index.js';
