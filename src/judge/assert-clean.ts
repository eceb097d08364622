// The in-process verdict on a client report: an AssertionError names every finding of severity `error`; warnings pass.
import { AssertionError } from 'node:assert';
import type { ClientReport } from './report.js';

/** Answers the report when it holds no error; else throws, listing each error finding with its rule, principal and requests. */
export function assertClean(report: ClientReport): ClientReport {
  const errors = report.findings.filter((f) => f.severity === 'error');
  if (errors.length === 0) return report;
  throw new AssertionError({
    message: `The client misbehaved:\n${errors.map((f) => `  ${f.rule} (${f.principal}, requests ${f.entries.join(', ')}): ${f.message}`).join('\n')}`,
    actual: errors,
    expected: [],
    operator: 'assertCleanClient',
  });
}
