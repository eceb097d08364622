// A slip (slips.ts) as a rule of the client report: one finding per request that made it, with the fix.
import { whoOf } from './facts.js';
import { finding, type Rule } from './rule.js';
import type { Slip } from './slips.js';

/** A slip as a rule of the client report: one finding per request that made it. */
export const slipRule = (slip: Slip): Rule => ({
  rule: slip.rule,
  severity: 'warning',
  description: slip.description,
  applies: (f) => f.client?.slips?.some((s) => s.rule === slip.rule) === true,
  check(facts) {
    return facts
      .filter((f) => this.applies(f))
      .map((f) => finding(this, `Request ${f.id} (${f.method} ${f.path}, ${f.status}): ${slip.fix}`, whoOf(f), [f.id]));
  },
});
