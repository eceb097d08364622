// Scheduled jobs (endpoint 14).
import * as v from 'valibot';
import { FreeObject, Int, Timestamp, Uuid, intQuery, model } from './common.js';

export const JobStatus = v.picklist(['active', 'paused', 'completed']);
export const DeploymentTarget = v.picklist(['candidate', 'live']);

export const JobResponseSchema = model({
  id: Uuid,
  project_id: Uuid,
  agent_id: Uuid,
  user_id: Uuid,
  name: v.string(),
  prompt: v.string(),
  max_tokens: Int,
  response_format: v.string(),
  status: JobStatus,
  next_run_at: Timestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
  target: DeploymentTarget,
  target_app_user_id: v.string(),
  context: FreeObject,
  schedule: FreeObject,
  retry_policy: FreeObject,
});

export const JobListQuerySchema = model({ limit: intQuery(1, 200, 50), status: v.optional(JobStatus) });
