// Rule expired_token_resent: an access token sent again after the service said it expired (401 token_expired).
import { whoOf, type Fact } from './facts.js';
import { finding, type Finding, type Rule } from './rule.js';

export const expiredTokenResent: Rule = {
  rule: 'expired_token_resent',
  severity: 'warning',
  description:
    'An access token presented again after a 401 token_expired for it. An expired token never works again: the client should refresh (or sign in) first, instead of failing every request until it does.',
  applies: (f) => f.client?.access !== undefined,
  check(facts) {
    const expired = new Map<string, Fact>();
    const out: Finding[] = [];
    for (const f of facts) {
      if (!this.applies(f)) continue;
      const fp = f.client!.access!;
      const first = expired.get(fp);
      if (first) {
        out.push(finding(this, `Request ${f.id} sent the access token that request ${first.id} was told had expired.`, whoOf(first), [first.id, f.id]));
        expired.delete(fp); // one finding per expiry; a third try starts a new one
      }
      if (f.status === 401 && f.reason === 'token_expired') expired.set(fp, f);
    }
    return out;
  },
};
