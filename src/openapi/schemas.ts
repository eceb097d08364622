// Valibot schemas that only the OpenAPI document needs: the management error shape, list pages, and response bodies
// that the route modules build inline (the validation error's, built per pydantic row, is src/document/validation-error.ts). Request and record schemas live in src/schemas and are reused as is.
import * as v from 'valibot';
import { Uuid } from '../schemas/index.js';
import { ApprovalResponseSchema } from '../schemas/index.js';
import { JobResponseSchema } from '../schemas/index.js';
import { ReleaseResponseSchema } from '../schemas/index.js';
import { UserResponseSchema } from '../schemas/index.js';
import { REASON_CODES, type ReasonCode } from '../reason-codes.js';

const reasonCodes = Object.keys(REASON_CODES) as [ReasonCode, ...ReasonCode[]];

/** Management error envelope (docs/errors.md). */
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

const cursor = v.nullable(v.string());
export const UserPageSchema = v.object({ items: v.array(UserResponseSchema), next_cursor: cursor });
export const ReleasePageSchema = v.object({ items: v.array(ReleaseResponseSchema), next_cursor: cursor });
export const JobPageSchema = v.object({ items: v.array(JobResponseSchema) });
export const ApprovalPageSchema = v.object({ items: v.array(ApprovalResponseSchema) });
export const ApprovalDecisionResponseSchema = v.object({ approval: ApprovalResponseSchema, enqueued: v.boolean() });

/** Endpoint 16 answer (docs/auth-and-webhooks.md). */
export const ChatWebhookResponseSchema = v.object({ accepted: v.literal(true), run_id: Uuid, duplicate: v.boolean() });
/** Endpoint 19 answer: secret-free flags. */
export const BrokerCallbackResponseSchema = v.object({ accepted: v.boolean(), stored: v.boolean() });
