// The conformance command's comparison: the shared answer comparator, held to the mock's own /openapi.json (control off).
import { compareAnswers as compareWith, type Answer, type Comparison, type CompareOptions } from '../compare/index.js';
import { diffFingerprint, type SemanticChange } from '../domain/index.js';
import { openApiDocument } from '../document/index.js';

/** What a conformance comparison may change: another document, and whether the probe's own inputs must agree too. */
export type ConformanceCompareOptions = Partial<CompareOptions> & { ownInput?: boolean };

/** The fingerprint the contract gives a list of semantic changes. */
const fingerprint = (changes: unknown[]): string => diffFingerprint(changes as SemanticChange[]);

/** Compares one request's answers from the mock and the target (by default against the mock's /openapi.json). */
export function compareAnswers(operation: string, mock: Answer, target: Answer, options: ConformanceCompareOptions = {}): Comparison {
  return compareWith(operation, mock, target, {
    document: options.document ?? openApiDocument(false),
    fingerprint,
    ...(options.ownInput ? { ownInput: true } : {}),
  });
}
