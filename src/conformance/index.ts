// The conformance capability's public face: compare the mock's answers with a real service's, probe by probe.
export { envelopeOf, responseSchema, type Answer, type Comparison, type Difference } from '../compare/index.js';
export { compareAnswers, type ConformanceCompareOptions as CompareOptions } from './compare.js';
export { catalogue, runConformance, shownUrl, TargetUnreachable, type ConformanceOptions, type ConformanceReport, type ConformanceSummary } from './runner.js';
export type { Probe, ProbeResult } from './probe.js';
export { scrubber, REDACTED } from './secrets.js';
export { differenceLines, jsonReport, junitReport, markdownReport, summaryLine } from './report.js';
