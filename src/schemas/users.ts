// App users of a project (endpoints 8, 18, 20) and their memory and trace records.
import * as v from 'valibot';
import { Timestamp, Uuid, intQuery, nullish } from './common.js';

export const UserStatus = v.picklist(['active', 'deleted']);

export const UserResponseSchema = v.object({
  id: Uuid,
  project_id: Uuid,
  created_at: Timestamp,
  preferred_channel: v.string(),
  status: UserStatus,
  display_name: nullish(v.string()),
  external_provider: nullish(v.string()),
  external_user_id: nullish(v.string()),
  last_active_at: nullish(Timestamp),
});
export type User = v.InferOutput<typeof UserResponseSchema>;

export const UserRecordSchema = v.object({ ...UserResponseSchema.entries, status: v.optional(UserStatus, 'active') });

export const UserPageQuerySchema = v.object({ limit: intQuery(1, 200, 50), cursor: v.optional(v.string()) });

export const DeleteUserRequestSchema = v.object({
  confirmation: v.literal('delete-application-user', 'Input should be \'delete-application-user\''),
});

export const UserDeleteResponseSchema = v.object({
  deleted_memory_count: v.pipe(v.number(), v.integer()),
  deleted_trace_bundle_count: v.pipe(v.number(), v.integer()),
  project_id: Uuid,
  status: v.literal('deleted'),
  user_id: Uuid,
});

export const MemoryRecordSchema = v.object({ id: Uuid, project_id: Uuid, user_id: Uuid, namespace: v.string(), content: v.string() });
export const TraceRecordSchema = v.object({ id: Uuid, project_id: Uuid, user_id: Uuid, run_id: nullish(Uuid), content: v.string() });
export type MemoryRecord = v.InferOutput<typeof MemoryRecordSchema>;
export type TraceRecord = v.InferOutput<typeof TraceRecordSchema>;
