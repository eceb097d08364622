// Valibot schemas that only the OpenAPI document needs: the two error shapes, list pages, and response bodies
// that the route modules build inline. Request and record schemas live in src/schemas and are reused as is.
import * as v from 'valibot';
import { FreeObject, Uuid } from '../schemas/common.js';
import { ApprovalResponseSchema } from '../schemas/approvals.js';
import { JobResponseSchema } from '../schemas/jobs.js';
import { ReleaseResponseSchema } from '../schemas/releases.js';
import { UserResponseSchema } from '../schemas/users.js';
import { REASON_CODES, type ReasonCode } from '../reason-codes.js';

const reasonCodes = Object.keys(REASON_CODES) as [ReasonCode, ...ReasonCode[]];

/** Management error envelope (interface "Errors"; CONTRACT section 2). */
export const ManagementErrorSchema = v.object({
  detail: v.object({
    reason_code: v.picklist(reasonCodes),
    message: v.string(),
    affected_resource: v.optional(v.string()),
    next_action: v.optional(v.string()),
    operation_id: v.optional(Uuid),
    phase: v.optional(v.string()),
  }),
});

/** FastAPI/pydantic validation error: `loc` starts with body, query, path or header. */
export const ValidationErrorSchema = v.object({
  detail: v.pipe(
    v.array(
      v.object({
        loc: v.pipe(v.array(v.union([v.string(), v.number()])), v.minLength(1)),
        msg: v.string(),
        type: v.string(),
        input: v.optional(v.unknown()),
        ctx: v.optional(FreeObject),
      }),
    ),
    v.minLength(1),
  ),
});

const cursor = v.nullable(v.string());
export const UserPageSchema = v.object({ items: v.array(UserResponseSchema), next_cursor: cursor });
export const ReleasePageSchema = v.object({ items: v.array(ReleaseResponseSchema), next_cursor: cursor });
export const JobPageSchema = v.object({ items: v.array(JobResponseSchema) });
export const ApprovalPageSchema = v.object({ items: v.array(ApprovalResponseSchema) });
export const ApprovalDecisionResponseSchema = v.object({ approval: ApprovalResponseSchema, enqueued: v.boolean() });

/** Endpoint 16 answer (CONTRACT 5.16). */
export const ChatWebhookResponseSchema = v.object({ accepted: v.literal(true), run_id: Uuid, duplicate: v.boolean() });
/** Endpoint 19 answer: secret-free flags. */
export const BrokerCallbackResponseSchema = v.object({ accepted: v.boolean(), stored: v.boolean() });

/** Any JSON value: control answers whose exact shape belongs to the control surface, not to v3. */
export const AnyJsonSchema = v.unknown();
