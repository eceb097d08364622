// The 20 v3 operations in one table: method, path, and what each can answer and change per the contract (the coverage report's yardstick).

export interface OperationSpec {
  operation: string;
  method: string;
  path: string;
  statuses: number[];
  reason_codes: string[];
  /** Status transitions as `entity: from -> to`; `none` = the record did not exist, `deleted` = it was removed; `*` = any. */
  transitions: string[];
}

const AUTH = ['authentication_required', 'token_expired', 'token_invalid', 'insufficient_authority', 'project_not_found'];
const ADMIN = [...AUTH, 'admin_key_invalid'];
const READ = [200, 401, 403, 404, 422];
const WRITE = [200, 401, 403, 404, 409, 413, 422];

const op = (operation: string, method: string, path: string, statuses: number[], reason_codes: string[], transitions: string[] = []): OperationSpec => ({
  operation,
  method,
  path,
  statuses,
  reason_codes,
  transitions,
});

/** Ordered as the interface numbers them (endpoint 1 .. 20). */
export const OPERATIONS: readonly OperationSpec[] = [
  op(
    'exchangeToken',
    'POST',
    '/api/v3/auth/token',
    [200, 400, 413, 422],
    ['invalid_grant', 'payload_too_large'],
    [
      'authorization_code: unused -> used',
      'access_token: none -> active',
      'refresh_token: none -> active',
      'refresh_token: active -> used',
      'refresh_token: * -> revoked',
      'access_token: active -> revoked',
    ],
  ),
  op('getConnection', 'GET', '/api/v3/projects/{project_id}/connections/{connection_name}', READ, [...ADMIN, 'connection_not_found']),
  op('diffRelease', 'GET', '/api/v3/projects/{project_id}/releases/{release_id}/diff', READ, [...ADMIN, 'release_not_found']),
  op(
    'cancelRun',
    'POST',
    '/api/v3/projects/{project_id}/runs/{run_id}/cancel',
    WRITE,
    [...AUTH, 'run_not_found', 'run_not_cancellable', 'project_archived', 'payload_too_large'],
    [
      'run: queued -> cancelled',
      'run: running -> cancelled',
      'run: waiting_approval -> cancelled',
      'step: pending -> cancelled',
      'approval: pending -> cancelled',
    ],
  ),
  op('getRun', 'GET', '/api/v3/projects/{project_id}/runs/{run_id}', READ, [...AUTH, 'run_not_found']),
  op(
    'retryRun',
    'POST',
    '/api/v3/projects/{project_id}/runs/{run_id}/retry',
    [201, 401, 403, 404, 409, 413, 422],
    [...AUTH, 'run_not_found', 'run_not_retryable', 'project_archived', 'payload_too_large'],
    ['run: none -> queued'],
  ),
  op('setBudget', 'PUT', '/api/v3/projects/{project_id}/budget', WRITE, [...AUTH, 'project_archived', 'payload_too_large']),
  op('listUsers', 'GET', '/api/v3/projects/{project_id}/users', READ, AUTH),
  op('planDesiredState', 'POST', '/api/v3/projects/{project_id}/desired-state/plan', WRITE, [
    ...AUTH,
    'stale_base_revision',
    'unknown_reference',
    'duplicate_reference',
    'payload_too_large',
  ]),
  op('listReleases', 'GET', '/api/v3/projects/{project_id}/releases', READ, AUTH),
  op(
    'denyApproval',
    'POST',
    '/api/v3/projects/{project_id}/approvals/{approval_id}/deny',
    WRITE,
    [...AUTH, 'approval_not_found', 'approval_not_pending', 'approval_expired', 'approval_binding_mismatch', 'project_archived', 'payload_too_large'],
    ['approval: pending -> denied', 'run: waiting_approval -> queued'],
  ),
  op(
    'deleteProject',
    'DELETE',
    '/api/v3/projects/{project_id}',
    WRITE,
    [...AUTH, 'confirmation_mismatch', 'payload_too_large'],
    ['project: active -> archived'],
  ),
  op('transferProject', 'POST', '/api/v3/projects/{project_id}/transfer', WRITE, [
    ...ADMIN,
    'workspace_not_found',
    'project_not_empty',
    'project_archived',
    'payload_too_large',
  ]),
  op('listJobs', 'GET', '/api/v3/projects/{project_id}/jobs', READ, AUTH),
  op('listApprovals', 'GET', '/api/v3/projects/{project_id}/approvals', READ, AUTH),
  op(
    'chatWebhook',
    'POST',
    '/api/v3/connections/{binding_id}/chatapp/webhook',
    [200, 401, 404, 409, 413, 422],
    ['webhook_secret_invalid', 'binding_not_found', 'no_live_agent', 'payload_too_large'],
    ['run: none -> queued', 'user: none -> active'],
  ),
  op('getApproval', 'GET', '/api/v3/projects/{project_id}/approvals/{approval_id}', READ, [...AUTH, 'approval_not_found']),
  op('getUser', 'GET', '/api/v3/projects/{project_id}/users/{user_id}', READ, [...ADMIN, 'user_not_found']),
  op(
    'brokerWebhook',
    'POST',
    '/api/v3/webhooks/broker',
    [200, 401, 413, 422],
    ['broker_signature_invalid', 'payload_too_large'],
    ['connection: * -> active', 'connection: * -> error', 'connection: * -> revoked'],
  ),
  op(
    'deleteUser',
    'DELETE',
    '/api/v3/projects/{project_id}/users/{user_id}',
    WRITE,
    [...ADMIN, 'user_not_found', 'project_archived', 'payload_too_large'],
    ['user: active -> deleted'],
  ),
];

export const OPERATION_NAMES = OPERATIONS.map((o) => o.operation);
