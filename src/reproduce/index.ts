// Reproducing a session: repro bundles, the HAR export and replayable test files (the public face of src/reproduce).
export { bundleSeed, bundleStream, openBundle, type BundleSource, type OpenedBundle } from './bundle.js';
export { harOf } from './har.js';
export { ReplaySession } from './session.js';
export { EXPORT_MAX_REQUESTS, type ReplayStep } from './replay-steps.js';
export { CLOCK_FIELDS, ID_FIELDS, type TestExportRequest } from './test-export.js';
export type { TestFormat } from './test-file.js';
