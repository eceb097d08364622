// The face of src/domain/: what code outside the folder imports from it (nothing reaches past this file).
export { MockClock, MAX_TIMESTAMP_MS, type TimeSource, clockMove, clockView, type ClockInTransaction, type ClockView } from './clock.js';
export {
  seededFraction,
  uuidFor,
  seededIds,
  seededTokens,
  randomIds,
  randomTokens,
  SeededGenerators,
  type IdGenerator,
  type TokenGenerator,
  type GeneratorPositions,
} from './ids.js';
export { diffFingerprint, compileRelease, fingerprint, normalizeDesiredState, emptyDesiredState, type SemanticChange } from './desired-state/index.js';
export {
  PKCE_VERIFIER,
  pkceS256,
  mintAuthorizationCode,
  ACCESS_TOKEN_TTL_MS,
  REFRESH_TOKEN_TTL_MS,
  AUTHORIZATION_CODE_TTL_MS,
  exchangeToken,
  type MintedCode,
} from './tokens.js';
export { createRun, transitionRun, isLegalTransition, LIFECYCLE_EVENT, pendingApproval, CANCELLABLE } from './run-lifecycle.js';
export {
  applyDesiredState,
  compileReleaseFromHead,
  readDesiredState,
  planDesiredState,
  diffRelease,
  type ApplyResult,
  type DesiredStateView,
} from './desired-state-store.js';
export { brokerSignature, BrokerEventSchema, parseBrokerEvent, reconcileBrokerEvent, verifyBrokerSignature } from './broker-events.js';
export { keysetPage, type Page } from './pagination.js';
export {
  approvalsOf,
  jobsOf,
  projectKey,
  projectsSorted,
  releaseKey,
  releasesOf,
  runKey,
  runsOf,
  targetsByRelease,
  userKey,
  usersOf,
  findApproval,
  findConnection,
  inProject,
} from './queries.js';
export {
  approvalView,
  budgetView,
  effectiveApprovalStatus,
  jobView,
  projectView,
  releaseView,
  runDetailView,
  runView,
  userView,
  connectionView,
} from './views.js';
export { defaultBudget, setBudget } from './budget.js';
export type { RunHooks, WriteDeps, RuntimeConfig } from './write-deps.js';
export { secretEquals, principalOf, authenticate, authorizeProject, type LevelName, type Actor } from './auth.js';
export { RetentionTracker } from './retention.js';
export { denyApproval, denyApprovalTx } from './approval-operations.js';
export { archiveProject, transferProject } from './project-operations.js';
export { ChatUpdateSchema, acceptChatUpdate, findBinding, verifyChatSecret, acceptChatUpdateTx } from './chat-webhook.js';
export { cancelRun, retryRun, retryRunTx } from './run-operations.js';
export { deleteUser } from './user-deletion.js';
export { authorityGuard, type AuthorityNeeded } from './write-guard.js';
