// The answer comparator shared by the conformance command and shadow mode: a leaf, given the document and the fingerprint.
export { compareAnswers, envelopeOf, responseSchema, type Answer, type Comparison, type CompareOptions, type Difference } from './answers.js';
export { MAX_SHOWN, checkShape, resolve, type Schema, type ShapeFindings } from './shape.js';
