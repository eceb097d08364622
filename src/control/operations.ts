// The coverage report's yardstick: the 20 v3 operations with what each can answer and change per the contract,
// derived from their declarations (src/operations).
import { V3_DECLARATIONS, coverageSpec, type CoverageSpec } from '../operations/index.js';

export type OperationSpec = CoverageSpec;

/** Ordered as the interface numbers them (endpoint 1 .. 20). */
export const OPERATIONS: readonly OperationSpec[] = V3_DECLARATIONS.map(coverageSpec);

export const OPERATION_NAMES = OPERATIONS.map((o) => o.operation);
