// The client report: every rule over the journal's entries, with how many entries each looked at and how many had left the journal.
import type { Stored } from '../control/index.js';
import { factOf } from './facts.js';
import type { Finding, Severity } from './rule.js';
import { RULES } from './rules.js';

export interface ClientReport {
  findings: Finding[];
  rules: { rule: string; severity: Severity; description: string; checked: number }[];
  /** The journal the report read: entries held, and entries that had left it (not judged). */
  journal: { entries: number; left: number };
}

export function clientReport(records: readonly Stored[], left: number): ClientReport {
  const facts = records.map(factOf);
  const findings = RULES.flatMap((r) => r.check(facts));
  findings.sort((a, b) => a.entries[a.entries.length - 1] - b.entries[b.entries.length - 1]);
  return {
    findings,
    rules: RULES.map((r) => ({
      rule: r.rule,
      severity: r.severity,
      description: r.description,
      checked: facts.reduce((n, f) => n + (r.applies(f) ? 1 : 0), 0),
    })),
    journal: { entries: records.length, left },
  };
}
