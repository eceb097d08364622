// Injected faults: validation, the registry (index, matching, timing, rate limits, snapshot and restore) and the
// transport faults — the public face of control/faults.
export { FaultRegistry, FaultTally, type Fault, type FaultDecision, type FaultSpec, type FaultState } from './registry.js';
export type { RequestFacts } from './match.js';
export { validFault } from './validate.js';
export { operationOf } from './operation-of.js';
export { applyTransport } from './transport/index.js';
export { faultBoundText } from './limits.js';
