// The conformance capability's public face: compare the mock's answers with a real service's, probe by probe.
export { envelopeOf, responseSchema, type Answer } from '../compare/index.js';
export { compareAnswers } from './compare.js';
export { catalogue, runConformance, shownUrl, TargetUnreachable, type ConformanceOptions, type ConformanceReport } from './runner.js';
export { scrubber } from './secrets.js';
export { differenceLines, jsonReport, junitReport, markdownReport, summaryLine } from './report.js';
