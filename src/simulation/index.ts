// The simulation engine's public face: runs, approvals, jobs and spend move by themselves on the mock clock.
export { Simulation, type SimulationObserver, type SimulationSettings } from './simulation.js';
export type { SimulationProgress } from './drain.js';
export type { StartSettings } from './start.js';
export type { SentMessage } from './traffic.js';
export { scheduleProblem } from './jobs.js';
export { checkBehaviourReferences, checkTrafficReferences } from './references.js';
export { type Removed } from './history.js';
