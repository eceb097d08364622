// Every reason code the mock answers with, its HTTP status and default wording: the one table the docs mirror.

export interface ReasonCodeSpec {
  status: number;
  message: string;
  next_action?: string;
}

export const REASON_CODES = {
  // 400: token grant failures (endpoint 1); a body whose bytes are not text (FastAPI's "error parsing the body")
  invalid_grant: { status: 400, message: 'The grant is invalid, expired, already used or revoked.', next_action: 'authenticate' },
  sandbox_conflict: { status: 400, message: 'The request names two different sandboxes (path prefix, X-Mock-Sandbox header, {id}.localhost host).' },
  host_invalid: { status: 400, message: 'The request has more than one Host header, or a Host that disagrees with its absolute-form target.' },
  body_unreadable: { status: 400, message: 'There was an error parsing the body: its bytes are not UTF-8, UTF-16 or UTF-32 text.' },

  // 401: authentication
  authentication_required: { status: 401, message: 'Credentials are required.', next_action: 'authenticate' },
  token_expired: { status: 401, message: 'The access token has expired.', next_action: 'refresh_token' },
  token_invalid: { status: 401, message: 'The access token is unknown or revoked.', next_action: 'authenticate' },
  admin_key_invalid: { status: 401, message: 'The admin key is not valid.', next_action: 'check_admin_key' },
  webhook_secret_invalid: { status: 401, message: 'The webhook secret token is missing or wrong.', next_action: 'check_webhook_secret' },
  broker_signature_invalid: { status: 401, message: 'The broker signature is missing or wrong.', next_action: 'check_broker_secret' },
  control_token_invalid: { status: 401, message: 'The X-Mock-Control-Token header is missing or wrong.', next_action: 'check_control_token' },

  // 403: authority
  insufficient_authority: { status: 403, message: 'The actor lacks the required Project authority.' },
  origin_not_allowed: { status: 403, message: 'Requests from this origin are not allowed on the control surface.' },

  // 404: missing (or not visible to this actor)
  project_not_found: { status: 404, message: 'Project not found.' },
  connection_not_found: { status: 404, message: 'Connection not found.' },
  release_not_found: { status: 404, message: 'Release not found.' },
  run_not_found: { status: 404, message: 'Run not found.' },
  approval_not_found: { status: 404, message: 'Approval not found.' },
  user_not_found: { status: 404, message: 'App user not found.' },
  binding_not_found: { status: 404, message: 'Connection binding not found.' },
  workspace_not_found: { status: 404, message: 'Workspace not found.' },
  principal_not_found: { status: 404, message: 'Principal not found.' },
  route_not_found: { status: 404, message: 'No route matches this path.' },
  sandbox_not_found: { status: 404, message: 'No such sandbox: never created, deleted, or expired.' },
  snapshot_not_found: { status: 404, message: 'No snapshot of that name.' },
  request_not_found: { status: 404, message: 'No such request in the journal: never recorded, or no longer held.' },

  // 405
  method_not_allowed: { status: 405, message: 'This method is not allowed on this path.' },

  // 409: invariants
  run_not_cancellable: { status: 409, message: 'The run is not in a cancellable state.' },
  run_not_retryable: { status: 409, message: 'Only failed background runs can be retried.' },
  illegal_transition: { status: 409, message: 'The run cannot move to that status from its current one.' },
  approval_not_pending: { status: 409, message: 'The approval is not pending.' },
  approval_expired: { status: 409, message: 'The approval has expired.' },
  approval_binding_mismatch: { status: 409, message: 'The binding fingerprint does not match the approval.' },
  confirmation_mismatch: { status: 409, message: 'The confirmation does not match the project slug.' },
  project_archived: { status: 409, message: 'The project is archived; it is read-only.' },
  project_not_empty: { status: 409, message: 'Only an empty project can be transferred.' },
  stale_base_revision: { status: 409, message: 'base_revision_id is not the current desired-state head.' },
  unknown_reference: { status: 409, message: 'The mutation refers to something that does not exist.' },
  duplicate_reference: { status: 409, message: 'The mutation creates something that already exists.' },
  no_live_agent: { status: 409, message: 'No live release attaches an agent to this connection.' },

  fault_limit: { status: 409, message: 'This mock holds as many faults (or fault bytes) as it may; clear some first.' },
  snapshot_limit: { status: 409, message: 'This mock holds as many snapshots (or snapshot bytes) as it may; delete one first.' },
  session_not_replayable: { status: 409, message: 'This session cannot be exported as a replayable test.' },

  // 413
  payload_too_large: { status: 413, message: 'The request body is larger than the limit.' },
  export_too_large: { status: 413, message: 'An exported test replays at most 10,000 requests.' },

  // 415, 421: the control surface as an admin API (JSON bodies only; Host names it answers to)
  unsupported_media_type: { status: 415, message: 'The control surface takes JSON bodies only (Content-Type application/json).' },
  host_not_allowed: { status: 421, message: 'This Host is not allowed on the control surface.' },

  // 417: a verification of the journal (POST /_mock/verify...) did not hold
  verification_failed: { status: 417, message: 'The journal does not satisfy the verification.' },

  // 429: a rate limit a test set up with a fault (`rate_limit`), counted on the mock clock
  rate_limited: { status: 429, message: 'Too many requests; retry after the time Retry-After gives.', next_action: 'retry_later' },
  // 429: a bound of the server (not of the real service)
  sandbox_limit: { status: 429, message: 'As many sandboxes are live as the server allows.', next_action: 'retry_later' },

  // 5xx: a defect of the mock, except faults a test injected on purpose and storage that is down
  internal_error: { status: 500, message: 'Internal error in the mock (a defect).' },
  storage_unavailable: { status: 503, message: 'The change could not be stored, so it was not made. Try again later.', next_action: 'retry_later' },
} as const satisfies Record<string, ReasonCodeSpec>;

export type ReasonCode = keyof typeof REASON_CODES;
