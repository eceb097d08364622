// Reproducing a session: repro bundles, the HAR export and replayable test files (the public face of src/reproduce).
export { bundleSeed, bundleStream, openBundle } from './bundle.js';
export { harOf } from './har.js';
export { ReplaySession } from './session.js';
export { type TestExportRequest } from './test-export.js';
