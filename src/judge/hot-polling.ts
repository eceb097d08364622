// Rule hot_polling: one resource read more than 5 times within a second of mock time while its answer did not change.
import { whoOf, type Fact } from './facts.js';
import { finding, type Finding, type Rule } from './rule.js';

const POLLS_PER_SECOND = 5;

export const hotPolling: Rule = {
  rule: 'hot_polling',
  severity: 'warning',
  description:
    'One resource (the same GET, path and query) read more than 5 times within one second of mock time while its answer stayed the same. Such a loop costs the service without learning anything; poll with a delay (the mock clock is the one that counts) or back off.',
  applies: (f) => f.method === 'GET' && f.status === 200,
  check(facts) {
    // Per principal and resource: the reads since its answer last changed, within the last second.
    const streaks = new Map<string, { text: string | null; reads: Fact[]; reported: boolean }>();
    const out: Finding[] = [];
    for (const f of facts) {
      if (!this.applies(f)) continue;
      const key = `${whoOf(f)}\u0000${f.path}?${f.querystring}`;
      let s = streaks.get(key);
      if (!s || s.text !== f.responseText) streaks.set(key, (s = { text: f.responseText, reads: [], reported: false }));
      s.reads.push(f);
      while (s.reads.length > 0 && s.reads[0].atMs <= f.atMs - 1000) s.reads.shift();
      if (s.reads.length > POLLS_PER_SECOND && !s.reported) {
        s.reported = true;
        out.push(
          finding(
            this,
            `GET ${f.path}${f.querystring ? `?${f.querystring}` : ''} was read ${s.reads.length} times within one second of mock time, unchanged.`,
            whoOf(f),
            s.reads.map((r) => r.id),
          ),
        );
      }
    }
    return out;
  },
};
