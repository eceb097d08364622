// Tool-call approvals (endpoints 11, 15, 17): the redacted response and the stored record.
import * as v from 'valibot';
import { AnyJson, RuntimeMode, Timestamp, Uuid, intQuery, model, nullish } from './common.js';

export const ApprovalStatus = v.picklist(['pending', 'approved', 'denied', 'expired', 'cancelled']);
export type ApprovalStatus = v.InferOutput<typeof ApprovalStatus>;

export const ApprovalResponseSchema = model({
  id: Uuid,
  approval_id: v.string(),
  project_id: Uuid,
  session_id: Uuid,
  user_id: Uuid,
  tool_id: v.string(),
  channel: v.string(),
  action_summary: v.string(),
  runtime_mode: RuntimeMode,
  status: ApprovalStatus,
  requested_at: Timestamp,
  expires_at: Timestamp,
  run_id: nullish(Uuid),
  binding_fingerprint: v.string(),
  decided_at: nullish(Timestamp),
  decision_reason: nullish(v.string()),
});

export const ApprovalRecordSchema = model({
  ...ApprovalResponseSchema.entries,
  tool_arguments: v.optional(AnyJson, {}),
});

export const ApprovalListQuerySchema = model({
  limit: intQuery(1, 200, 50),
  status: v.optional(ApprovalStatus),
  runtime_mode: v.optional(RuntimeMode),
});
export const ApprovalQuerySchema = model({ runtime_mode: v.optional(RuntimeMode) });
export const DenyRequestSchema = model({ binding_fingerprint: v.optional(v.string()), reason: v.optional(v.string()) });
