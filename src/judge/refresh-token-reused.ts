// Rule refresh_token_reused: a refresh token presented again after it was rotated (a stolen-token signal; the family is revoked).
import { whoOf, type Fact } from './facts.js';
import { finding, type Finding, type Rule } from './rule.js';

export const refreshTokenReused: Rule = {
  rule: 'refresh_token_reused',
  severity: 'error',
  description:
    'A refresh token presented again after a successful refresh rotated it. The service treats reuse as theft and revokes the whole token family, logging the user out everywhere; a client must store the new refresh token of every refresh before using it again.',
  applies: (f) => f.operation === 'exchangeToken' && f.client?.grant === 'refresh_token' && f.client.refresh !== undefined,
  check(facts) {
    const rotatedBy = new Map<string, Fact>();
    const out: Finding[] = [];
    for (const f of facts) {
      if (!this.applies(f)) continue;
      const fp = f.client!.refresh!;
      const first = rotatedBy.get(fp);
      if (first)
        out.push(
          finding(this, `Refresh token rotated by request ${first.id} was presented again by request ${f.id} (answered ${f.status}).`, whoOf(first), [
            first.id,
            f.id,
          ]),
        );
      else if (f.status === 200) rotatedBy.set(fp, f);
    }
    return out;
  },
};
