// The run operations of v3: cancel (4), show (5) and retry (6).
import { ApiError } from '../errors.js';
import { inProject } from '../domain/queries.js';
import { runDetailView, runView } from '../domain/views.js';
import { cancelRun, retryRun } from '../domain/run-operations.js';
import { CANCELLABLE } from '../domain/run-lifecycle.js';
import { CancelRequestSchema, RetryRequestSchema, RunDetailQuerySchema, RunDetailResponseSchema, RunResponseSchema } from '../schemas/runs.js';
import { BEARER, READ_ERRORS, WRITE_ERRORS, json, named } from '../openapi/operation-spec.js';
import { cachedJson } from '../routes/json-text.js';
import { Reply } from '../routes/endpoint.js';
import { RunPath } from '../routes/path-params.js';
import { AUTH, declare } from './declare.js';

// Every field of the cancel, retry, deny and budget bodies is optional, so an absent body reads as {}.
export const V3_RUN_OPERATIONS = [
  declare({
    operationId: 'cancelRun',
    endpoint: 4,
    method: 'post',
    path: '/api/v3/projects/{project_id}/runs/{run_id}/cancel',
    tag: 'runs',
    summary: 'Cancel a cancellable run and all its pending checkpoints in one transaction',
    description: `Endpoint 4. Cancellable: ${CANCELLABLE.join(', ')} (else 409 \`run_not_cancellable\`). The run, its pending steps and its pending approvals are cancelled in one transaction; the reason is kept in \`result.cancel_reason\`.`,
    security: BEARER,
    level: 'operator',
    project: true,
    pathParams: RunPath,
    body: { schema: named('RunCancelRequestV3', CancelRequestSchema), required: false },
    success: [json(200, 'RunDetailResponseV3', RunDetailResponseSchema, 'The cancelled run')],
    errors: WRITE_ERRORS,
    reasonCodes: [...AUTH, 'run_not_found', 'run_not_cancellable', 'project_archived', 'payload_too_large'],
    transitions: [...CANCELLABLE.map((status) => `run: ${status} -> cancelled`), 'step: pending -> cancelled', 'approval: pending -> cancelled'],
    client: { doc: 'Cancel a run.' },
    handler:
      () =>
      async ({ path, body, deps }) =>
        runDetailView(await cancelRun(deps, { projectId: path.project_id, runId: path.run_id, reason: body.reason })),
  }),
  declare({
    operationId: 'getRun',
    endpoint: 5,
    method: 'get',
    path: '/api/v3/projects/{project_id}/runs/{run_id}',
    tag: 'runs',
    summary: 'Show a run with its steps, events, result, usage, release and trace identity',
    description: "Endpoint 5. A `runtime_mode` that is not the run's mode is 404. After the run's user is deleted, `trace_content_status` is `unavailable`.",
    security: BEARER,
    level: 'viewer',
    project: true,
    pathParams: RunPath,
    query: RunDetailQuerySchema,
    success: [json(200, 'RunDetailResponseV3', RunDetailResponseSchema, 'The run detail')],
    errors: READ_ERRORS,
    reasonCodes: [...AUTH, 'run_not_found'],
    client: { doc: 'Show a run.' },
    handler: () => {
      // A record read again and again is serialized once (per server, shared by every mock: records are immutable; bounded).
      const runDetailJson = cachedJson(runDetailView);
      return ({ path, query, deps }) => {
        const run = inProject(deps.view, 'runs', path.run_id, path.project_id);
        if (!run || (query.runtime_mode && run.runtime_mode !== query.runtime_mode)) {
          throw new ApiError('run_not_found', { affected_resource: `run:${path.run_id}` });
        }
        return runDetailJson(run);
      };
    },
  }),
  declare({
    operationId: 'retryRun',
    endpoint: 6,
    method: 'post',
    path: '/api/v3/projects/{project_id}/runs/{run_id}/retry',
    tag: 'runs',
    summary: 'Retry a failed background run as a new release-pinned durable run',
    description:
      "Endpoint 6. Only `failed` runs with surface `background` (else 409 `run_not_retryable`). The new run's `request_metadata` is the old one merged with the body's free-form `metadata`, plus `retry_of` and `retry_reason`.",
    security: BEARER,
    level: 'operator',
    project: true,
    pathParams: RunPath,
    body: { schema: named('RunRetryRequestV3', RetryRequestSchema), required: false },
    success: [
      {
        ...json(201, 'RunResponseV3', RunResponseSchema, 'The new run'),
        headers: { Location: { description: 'The new run: `/api/v3/projects/{project_id}/runs/{new_run_id}`', required: true } },
      },
    ],
    errors: WRITE_ERRORS,
    reasonCodes: [...AUTH, 'run_not_found', 'run_not_retryable', 'project_archived', 'payload_too_large'],
    transitions: ['run: none -> queued'],
    client: { doc: 'Retry a failed background run (201 and `Location`).' },
    handler:
      () =>
      async ({ path, body, deps }) => {
        const run = await retryRun(deps, { projectId: path.project_id, runId: path.run_id, metadata: body.metadata, reason: body.reason });
        return new Reply(201, runView(run), { Location: `/api/v3/projects/${run.project_id}/runs/${run.id}` });
      },
  }),
];
