// App users of a project (endpoints 8, 18, 20) and their memory and trace records.
import * as v from 'valibot';
import { Int, Timestamp, Uuid, intQuery, model, nullish } from './common.js';

const UserStatus = v.picklist(['active', 'deleted']);

export const UserResponseSchema = model({
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

export const UserRecordSchema = model({ ...UserResponseSchema.entries, status: v.optional(UserStatus, 'active') });

export const UserPageQuerySchema = model({ limit: intQuery(1, 200, 50), cursor: v.optional(v.string()) });

export const DeleteUserRequestSchema = model({
  confirmation: v.literal('delete-application-user', "Input should be 'delete-application-user'"),
});

export const UserDeleteResponseSchema = model({
  deleted_memory_count: Int,
  deleted_trace_bundle_count: Int,
  project_id: Uuid,
  status: v.literal('deleted'),
  user_id: Uuid,
});

export const MemoryRecordSchema = model({ id: Uuid, project_id: Uuid, user_id: Uuid, namespace: v.string(), content: v.string() });
export const TraceRecordSchema = model({ id: Uuid, project_id: Uuid, user_id: Uuid, run_id: nullish(Uuid), content: v.string() });
