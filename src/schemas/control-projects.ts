// Query parameters of the read-only project views of the control surface (GET /_mock/projects/...): keyset pages as v3's.
import * as v from 'valibot';
import { intQuery, model } from './common.js';
import { ApprovalStatus } from './approvals.js';
import { JobStatus } from './jobs.js';
import { RunStatus } from './runs.js';

/** The v3 list pages' parameters: `limit` 1..200 (default 50) and the opaque `next_cursor` of the previous page. */
const page = { limit: intQuery(1, 200, 50), cursor: v.optional(v.string()) };

export const ControlPageQuerySchema = model(page);
/**
 * `order`: `newest` (by creation, the default) or `stored`, the order the state holds them in: the fixture's, then
 * each project created since (what the inspector opens on first).
 */
export const ControlProjectPageQuerySchema = model({ ...page, order: v.optional(v.picklist(['newest', 'stored']), 'newest') });
export const ControlRunPageQuerySchema = model({ ...page, status: v.optional(RunStatus) });
/** `status` is the status as read now: a pending approval past its expiry is `expired`. */
export const ControlApprovalPageQuerySchema = model({ ...page, status: v.optional(ApprovalStatus) });
export const ControlJobPageQuerySchema = model({ ...page, status: v.optional(JobStatus) });

export type ControlPageQuery = v.InferOutput<typeof ControlPageQuerySchema>;
export type ControlProjectPageQuery = v.InferOutput<typeof ControlProjectPageQuerySchema>;
export type ControlRunPageQuery = v.InferOutput<typeof ControlRunPageQuerySchema>;
export type ControlApprovalPageQuery = v.InferOutput<typeof ControlApprovalPageQuerySchema>;
export type ControlJobPageQuery = v.InferOutput<typeof ControlJobPageQuerySchema>;
