// Rule code_reused: an authorization code presented twice (codes are single use; a second try revokes what the first gave).
import { whoOf, type Fact } from './facts.js';
import { finding, type Finding, type Rule } from './rule.js';

export const codeReused: Rule = {
  rule: 'code_reused',
  severity: 'error',
  description:
    'An authorization code presented twice. Codes are single use (RFC 6749 section 4.1.2): the second exchange fails and revokes the tokens the first one issued, so a client that retries an exchange loses its session.',
  applies: (f) => f.operation === 'exchangeToken' && f.client?.grant === 'authorization_code' && f.client.code !== undefined,
  check(facts) {
    const seen = new Map<string, Fact>();
    const out: Finding[] = [];
    for (const f of facts) {
      if (!this.applies(f)) continue;
      const first = seen.get(f.client!.code!);
      if (first)
        out.push(
          finding(
            this,
            `Authorization code first presented by request ${first.id} was presented again by request ${f.id} (answered ${f.status}).`,
            whoOf(first),
            [first.id, f.id],
          ),
        );
      else seen.set(f.client!.code!, f);
    }
    return out;
  },
};
