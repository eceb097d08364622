// The face of src/middleware/: what code outside the folder imports from it (nothing reaches past this file).
export { hostName, isLoopback, controlGuard, hostCheck } from './control-guard.js';
export { journalMiddleware, journalAnswered, type Answered } from './journal.js';
export { coverageMiddleware } from './coverage.js';
export { faultMiddleware } from './faults.js';
export { sharedStorage } from './shared-storage.js';
