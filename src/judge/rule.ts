// What a rule of the client report is and what it finds (the rules themselves: one file each, listed in rules.ts).
import type { Fact } from './facts.js';

export type Severity = 'error' | 'warning';

export interface Finding {
  rule: string;
  severity: Severity;
  message: string;
  principal: string;
  /** Journal ids of the requests that show it, oldest first. */
  entries: number[];
}

export interface Rule {
  rule: string;
  severity: Severity;
  /** What the rule finds and why it matters (the report's `rules` list and the docs show it). */
  description: string;
  /** The entries the rule looks at (the report's `checked` count). */
  applies(f: Fact): boolean;
  /** Findings over the journal's facts, oldest first; times are the mock clock's. */
  check(facts: readonly Fact[]): Finding[];
}

/** A finding of `rule` about `facts` (their ids, oldest first). */
export const finding = (rule: Rule, message: string, principal: string, ids: number[]): Finding => ({
  rule: rule.rule,
  severity: rule.severity,
  message,
  principal,
  entries: ids,
});
