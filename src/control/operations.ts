// The coverage report's yardstick: the 20 v3 operations with what each can answer and change per the contract. The
// rows are derived from the declarations (src/operations) at build time (scripts/operation-table.ts), since those
// declarations' handlers stand above control.
import { V3_OPERATION_TABLE } from './operation-table.js';

/** What an operation can answer and change per the contract: the coverage report's yardstick. */
export interface OperationSpec {
  operation: string;
  method: string;
  path: string;
  statuses: number[];
  reason_codes: string[];
  /** Status transitions as `entity: from -> to`; `none` = the record did not exist, `deleted` = it was removed; `*` = any. */
  transitions: string[];
}

/** Ordered as the interface numbers them (endpoint 1 .. 20). */
export const OPERATIONS: readonly OperationSpec[] = V3_OPERATION_TABLE;

export const OPERATION_NAMES = OPERATIONS.map((o) => o.operation);
