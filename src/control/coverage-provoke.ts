// How to provoke each gap of the coverage report: control calls (mock.control, ready to paste) and the request that follows.
import type { OperationSpec } from './operations.js';

/** Control calls that set the state up, and the v3 request to send then. */
export interface Provocation {
  calls: string[];
  then: string;
}

const P = 'PROJECT';
const run = (status: string, extra = '') => `const run = await mock.control.createRun(${P}, { status: '${status}'${extra} });`;

/** By reason code: the state that makes the operation answer it. */
const BY_REASON: Record<string, (op: OperationSpec) => Provocation> = {
  run_not_cancellable: () => ({
    calls: [run('running'), `await mock.control.transitionRun(${P}, run.id, { to: 'succeeded' });`],
    then: 'cancel run.id: a terminal run is not cancellable (409)',
  }),
  run_not_retryable: () => ({ calls: [run('running')], then: 'retry run.id: only failed background runs can be retried (409)' }),
  run_not_found: (op) => ({ calls: [], then: `${op.method} ${op.path} with a run_id no run has, e.g. 00000000-0000-4000-8000-000000000000` }),
  approval_not_found: (op) => ({ calls: [], then: `${op.method} ${op.path} with an approval_id no approval has` }),
  approval_not_pending: () => ({
    calls: [run('waiting_approval'), `await mock.control.transitionRun(${P}, run.id, { to: 'cancelled' });`],
    then: 'deny run.approval.approval_id: it is no longer pending (409)',
  }),
  approval_expired: () => ({
    calls: [run('waiting_approval', ', approval: { expires_in_ms: 1000 }'), 'await mock.control.advanceClock(1001);'],
    then: 'deny run.approval.approval_id: it expired (409)',
  }),
  approval_binding_mismatch: () => ({
    calls: [run('waiting_approval')],
    then: "deny run.approval.approval_id with a binding_fingerprint that is not the approval's (409)",
  }),
  project_archived: (op) => ({
    calls: [],
    then: `DELETE /api/v3/projects/{project_id} (archives it, with the confirmation), then ${op.method} ${op.path} on it (409)`,
  }),
  token_expired: (op) => ({
    calls: [
      'const { code } = await mock.control.mintAuthorizationCode({ principal_id: PRINCIPAL, code_challenge: CHALLENGE });',
      '// exchange code for an access token (POST /api/v3/auth/token), then:',
      'await mock.control.advanceClock(60 * 60 * 1000 + 1);',
    ],
    then: `${op.method} ${op.path} with that access token (401 token_expired)`,
  }),
  token_invalid: (op) => ({ calls: [], then: `${op.method} ${op.path} with Authorization: Bearer not-a-token (401)` }),
  authentication_required: (op) => ({ calls: [], then: `${op.method} ${op.path} without an Authorization header (401)` }),
  insufficient_authority: (op) => ({ calls: [], then: `${op.method} ${op.path} with a token of a principal whose role is below the operation's (403)` }),
  project_not_found: (op) => ({ calls: [], then: `${op.method} ${op.path} with a project_id the principal cannot see (404)` }),
  payload_too_large: (op) => ({ calls: [], then: `${op.method} ${op.path} with a body over the body limit (1 MiB by default) (413)` }),
  invalid_grant: () => ({ calls: [], then: 'POST /api/v3/auth/token with a code or refresh token that was already used (400)' }),
};

/** By status, when no reason code is asked for. */
const BY_STATUS: Record<number, (op: OperationSpec) => Provocation> = {
  401: BY_REASON.authentication_required,
  403: BY_REASON.insufficient_authority,
  413: BY_REASON.payload_too_large,
  422: (op) => ({ calls: [], then: `${op.method} ${op.path} with a body or query that fails validation (422)` }),
  404: (op) => ({ calls: [], then: `${op.method} ${op.path} with an id that does not exist (404)` }),
};

/** What would provoke `operation` answering `status` (with `reason`): never empty (a hint when no recipe is known). */
export function provoke(op: OperationSpec, status: number | null, reason?: string): Provocation {
  const by = (reason && BY_REASON[reason]) || (status !== null ? BY_STATUS[status] : undefined);
  if (by) return by(op);
  const what = [status, reason].filter((x) => x !== undefined && x !== null).join(' ');
  return { calls: [], then: `${op.method} ${op.path} in the state where the contract says it answers ${what || 'this'} (see docs/operations.md)` };
}
