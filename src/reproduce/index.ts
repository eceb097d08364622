// Reproducing a session: repro bundles and replayable test files (the public face of src/reproduce). Nothing outside
// imports it statically: mock.control loads it at the first bundle, bundle restore or test export.
export { bundleSeed, bundleStream, openBundle, type BundleSource, type OpenedBundle } from './bundle.js';
export type { SessionStart } from './session-start.js';
export { type ReplayStep } from './replay-steps.js';
export { exportTestStream, type TestExportRequest } from './test-export.js';
export type { TestFormat } from './test-file.js';
