// The judge of the client under test: the report's rules (one file each, listed in rules.ts) and what it notes per request.
export { ClientObserver, Fingerprints, type Arrival, type Departure } from './observe.js';
export { clientReport, type ClientReport } from './report.js';
export { assertClean } from './assert-clean.js';
