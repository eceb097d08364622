// The conformance capability's public face: compare the mock's answers with a real service's, probe by probe.
export { compareAnswers, envelopeOf, responseSchema, type Answer, type Comparison, type CompareOptions, type Difference } from './compare.js';
export { catalogue, runConformance, shownUrl, TargetUnreachable, type ConformanceOptions, type ConformanceReport, type ConformanceSummary } from './runner.js';
export type { Probe, ProbeResult } from './probe.js';
export { scrubber, REDACTED } from './secrets.js';
