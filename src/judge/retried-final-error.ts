// Rule retried_final_error: the same write repeated within 60 s after an answer no retry can change (403, 404, 422, a final 409).
import { isWrite, whoOf, type Fact } from './facts.js';
import { finding, type Finding, type Rule } from './rule.js';

const RETRY_WINDOW_MS = 60_000;

/** 409 reasons that a repeat of the same request cannot clear (a conflict with state only another action changes). */
const FINAL_CONFLICTS = new Set([
  'run_not_cancellable',
  'run_not_retryable',
  'approval_not_pending',
  'approval_expired',
  'project_archived',
  'confirmation_mismatch',
  'project_not_empty',
]);

const isFinal = (f: Fact): boolean =>
  f.status === 403 || f.status === 404 || f.status === 422 || (f.status === 409 && f.reason !== null && FINAL_CONFLICTS.has(f.reason));

export const retriedFinalError: Rule = {
  rule: 'retried_final_error',
  severity: 'warning',
  description:
    'The same write (method, path and body) repeated within 60 s of mock time after an answer a retry cannot fix: 403, 404, 422, or a 409 such as run_not_cancellable. Retrying these only adds load; the client should report the error or change the request.',
  applies: isWrite,
  check(facts) {
    const last = new Map<string, Fact>();
    const out: Finding[] = [];
    for (const f of facts) {
      if (!this.applies(f)) continue;
      const key = `${whoOf(f)}\u0000${f.method}\u0000${f.path}\u0000${f.querystring}\u0000${f.requestText ?? ''}`;
      const before = last.get(key);
      if (before && f.atMs - before.atMs <= RETRY_WINDOW_MS) {
        out.push(
          finding(
            this,
            `Request ${f.id} repeated ${f.method} ${f.path} ${Math.round((f.atMs - before.atMs) / 1000)} s after request ${before.id} was refused with ${before.status}${before.reason ? ` ${before.reason}` : ''}, which a retry cannot change.`,
            whoOf(f),
            [before.id, f.id],
          ),
        );
      }
      if (isFinal(f)) last.set(key, f);
      else last.delete(key);
    }
    return out;
  },
};
