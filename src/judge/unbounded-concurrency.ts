// Rule unbounded_concurrency: more than 32 requests of one principal in flight at once.
import { whoOf } from './facts.js';
import { finding, type Finding, type Rule } from './rule.js';

const MAX_IN_FLIGHT = 32;

export const unboundedConcurrency: Rule = {
  rule: 'unbounded_concurrency',
  severity: 'warning',
  description:
    'More than 32 requests of one principal in flight at once. A client that fans out without a limit overloads the service (and itself) under load; bound it with a pool or a queue.',
  applies: (f) => f.client !== undefined && f.client.inFlight > 0,
  check(facts) {
    const out: Finding[] = [];
    // One finding per burst: from the first request past the bound until that principal's count falls back.
    const burst = new Map<string, { ids: number[]; most: number }>();
    const flush = (who: string) => {
      const b = burst.get(who);
      if (b)
        out.push(finding(this, `${b.most} requests were in flight at once (more than ${MAX_IN_FLIGHT}), from request ${b.ids[0]}.`, who, b.ids.slice(0, 100)));
      burst.delete(who);
    };
    for (const f of facts) {
      if (!this.applies(f)) continue;
      const who = whoOf(f);
      const n = f.client!.inFlight;
      if (n > MAX_IN_FLIGHT) {
        const b = burst.get(who) ?? { ids: [], most: 0 };
        b.ids.push(f.id);
        b.most = Math.max(b.most, n);
        burst.set(who, b);
      } else if (n === 1) flush(who);
    }
    for (const who of [...burst.keys()]) flush(who);
    return out;
  },
};
