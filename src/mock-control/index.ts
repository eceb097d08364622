// The face of src/mock-control/: what code outside the folder imports from it (nothing reaches past this file).
export { MockControl, controlParts, mockJournal, moveClock } from './api.js';
export type { SandboxDirectory } from './sandbox-directory.js';
