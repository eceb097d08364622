// The simulation engine's public face: runs, approvals, jobs and spend move by themselves on the mock clock.
export { Simulation, MAX_EVENTS_PER_RUN, eventView, type SimulationObserver, type SimulationSettings } from './simulation.js';
export type { SimulationProgress } from './drain.js';
export type { StartSettings } from './start.js';
export type { SentMessage } from './traffic.js';
export { DEFAULT_BEHAVIOUR, behaviourFor } from './behaviours.js';
export { nextRunAfter, scheduleProblem } from './jobs.js';
export { checkBehaviourReferences, checkTrafficReferences } from './references.js';
export { DAY_MS, SLICE_RUNS, endedAt, type Removed } from './history.js';
