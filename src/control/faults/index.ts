// Injected faults: the registry (matching, counts, snapshot and restore) — the public face of control/faults.
export { FaultRegistry, type Fault, type FaultSpec, type FaultState } from './registry.js';
