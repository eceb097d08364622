// Project, budget and the request bodies of the project-level writes (endpoints 7, 12, 13).
import * as v from 'valibot';
import { FreeObject, Timestamp, Uuid } from './common.js';

export const ProjectStatus = v.picklist(['active', 'archived']);

export const ProjectResponseSchema = v.object({
  id: Uuid,
  name: v.string(),
  slug: v.string(),
  status: ProjectStatus,
  workspace_id: Uuid,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Project = v.InferOutput<typeof ProjectResponseSchema>;

const Amount = v.pipe(v.number(), v.finite(), v.minValue(0, 'Input should be greater than or equal to 0'));
export const FundingMode = v.picklist(['free_sandbox', 'prepaid', 'invoiced']);

export const BudgetLimitsSchema = v.object({
  project_daily_usd: v.optional(v.nullable(Amount), null),
  project_monthly_usd: v.optional(v.nullable(Amount), null),
  user_daily_usd: v.optional(v.nullable(Amount), null),
  user_monthly_usd: v.optional(v.nullable(Amount), null),
});
export type BudgetLimits = v.InferOutput<typeof BudgetLimitsSchema>;

export const BudgetResponseSchema = v.object({
  project_id: Uuid,
  funding_mode: FundingMode,
  credit_balance_usd: v.number(),
  current_daily_spend_usd: v.number(),
  current_monthly_spend_usd: v.number(),
  runtime_config_epoch: v.pipe(v.number(), v.integer()),
  limits: BudgetLimitsSchema,
});
export type Budget = v.InferOutput<typeof BudgetResponseSchema>;

/** Budget as fixtures write it: everything but the project has a default. */
export const BudgetFixtureSchema = v.object({
  funding_mode: v.optional(FundingMode, 'free_sandbox'),
  credit_balance_usd: v.optional(v.number(), 0),
  current_daily_spend_usd: v.optional(v.number(), 0),
  current_monthly_spend_usd: v.optional(v.number(), 0),
  runtime_config_epoch: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  limits: v.optional(BudgetLimitsSchema, {}),
});

export const BudgetRequestSchema = v.object({
  clear: v.optional(v.boolean()),
  funding_mode: v.optional(FundingMode),
  project_daily_usd: v.optional(Amount),
  project_monthly_usd: v.optional(Amount),
  user_daily_usd: v.optional(Amount),
  user_monthly_usd: v.optional(Amount),
});
export type BudgetRequest = v.InferOutput<typeof BudgetRequestSchema>;

export const DeleteProjectRequestSchema = v.object({ confirmation: v.string() });
export const TransferRequestSchema = v.object({ workspace_id: Uuid });

export const ProjectFixtureSchema = v.object({
  ...ProjectResponseSchema.entries,
  status: v.optional(ProjectStatus, 'active'),
  desired_state: v.optional(FreeObject),
  budget: v.optional(BudgetFixtureSchema),
});
