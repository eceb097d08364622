// Reproducing a session: repro bundles, the HAR export and replayable test files (the public face of src/reproduce).
export { bundleSeed, bundleStream, openBundle, type BundleSource, type OpenedBundle } from './bundle.js';
export { harOf } from './har.js';
