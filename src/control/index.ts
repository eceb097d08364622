// The face of src/control/: what code outside the folder imports from it (nothing reaches past this file).
export {
  JOURNAL_LIMITS,
  Journal,
  type JournalLimits,
  type ClientFacts,
  type Stored,
  type FaultMarker,
  type JournalEntry,
  type JournalFilter,
  type JournalSummary,
  type JournalRecord,
  type JournalMessage,
} from './journal.js';
export { JournalBudget } from './journal-budget.js';
export { NamedSnapshots, type NamedSnapshotInfo } from './snapshots.js';
export { CoverageTracker, type CoverageReport } from './coverage.js';
export { gapText, gate, parseRequirement, type GateResult, type Requirement } from './coverage-gate.js';
export { keptText, jsonBody, rawBody, BodyText, truncationMarker, bodyParts, type KeptBody } from './journal-text.js';
export { OPERATION_NAMES, type OperationSpec } from './operations.js';
export {
  applyTransport,
  FaultRegistry,
  FaultTally,
  operationOf,
  validFault,
  faultBoundText,
  type FaultDecision,
  type RequestFacts,
  type Fault,
  type FaultSpec,
  type FaultState,
} from './faults/index.js';
export { heldSecrets } from './held-secrets.js';
export { Verifier, type VerifyAnswer, type VerifyListRequest, type VerifyRequest, type VerificationKind } from './verify/index.js';
export { sealedStateStream, sealedStateChunks } from './state-stream.js';
export { validateFixture } from './fixture-errors.js';
export { timeline, type Timeline } from './timeline.js';
export { Sealer, SEAL_KEY_HINT, sealedFields, type Sealed } from './sealing.js';
export { SimulationWatch } from './simulation-watch.js';
export { parseQuery } from './journal-view.js';
export { Redactor, isSecretField, type SecretIndex } from './redact.js';
export { DRIFT_MAX_BYTES, EXAMPLES_PER_GROUP, DriftBudget, DriftLog, type Refusal } from './drift-log.js';
export { harOf } from './har.js';
