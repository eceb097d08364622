// Rule retry_after_ignored: the same operation requested again before a 429 or 503's Retry-After had passed on the mock clock.
import { whoOf, type Fact } from './facts.js';
import { finding, type Finding, type Rule } from './rule.js';

export const retryAfterIgnored: Rule = {
  rule: 'retry_after_ignored',
  severity: 'error',
  description:
    'A request to the same operation, by the same principal, before the Retry-After of a 429 or 503 had passed (measured on the mock clock). Retrying early keeps an overloaded or rate-limited service down and is answered with the same refusal.',
  applies: (f) => f.operation !== null,
  check(facts) {
    // Per principal and operation: the time before which no request should come, and the refusal that set it.
    const waits = new Map<string, { until: number; refusal: Fact }>();
    const out: Finding[] = [];
    for (const f of facts) {
      if (!this.applies(f)) continue;
      const key = `${whoOf(f)}\u0000${f.operation}`;
      const wait = waits.get(key);
      if (wait && f.atMs < wait.until) {
        const early = Math.round((wait.until - f.atMs) / 1000);
        out.push(
          finding(
            this,
            `Request ${f.id} (${f.operation}) came ${early} s before the Retry-After of request ${wait.refusal.id} (${wait.refusal.status}) had passed.`,
            whoOf(f),
            [wait.refusal.id, f.id],
          ),
        );
        waits.delete(key);
      }
      if (f.retryAfterMs !== null) waits.set(key, { until: f.atMs + f.retryAfterMs, refusal: f });
    }
    return out;
  },
};
