// Project, budget and the request bodies of the project-level writes (endpoints 7, 12, 13).
import * as v from 'valibot';
import { Bool, Float, FreeObject, Int, NonNegFloat, NonNegInt, Timestamp, Uuid, model } from './common.js';

const ProjectStatus = v.picklist(['active', 'archived']);

export const ProjectResponseSchema = model({
  id: Uuid,
  name: v.string(),
  slug: v.string(),
  status: ProjectStatus,
  workspace_id: Uuid,
  created_at: Timestamp,
  updated_at: Timestamp,
});

const Amount = NonNegFloat;
const FundingMode = v.picklist(['free_sandbox', 'prepaid', 'invoiced']);

const BudgetLimitsSchema = model({
  project_daily_usd: v.optional(v.nullable(Amount), null),
  project_monthly_usd: v.optional(v.nullable(Amount), null),
  user_daily_usd: v.optional(v.nullable(Amount), null),
  user_monthly_usd: v.optional(v.nullable(Amount), null),
});
export type BudgetLimits = v.InferOutput<typeof BudgetLimitsSchema>;

export const BudgetResponseSchema = model({
  project_id: Uuid,
  funding_mode: FundingMode,
  credit_balance_usd: Float,
  current_daily_spend_usd: Float,
  current_monthly_spend_usd: Float,
  runtime_config_epoch: Int,
  limits: BudgetLimitsSchema,
});

/** Budget as fixtures write it: everything but the project has a default. */
const BudgetFixtureSchema = model({
  funding_mode: v.optional(FundingMode, 'free_sandbox'),
  credit_balance_usd: v.optional(Float, 0),
  current_daily_spend_usd: v.optional(Float, 0),
  current_monthly_spend_usd: v.optional(Float, 0),
  runtime_config_epoch: v.optional(NonNegInt, 0),
  limits: v.optional(BudgetLimitsSchema, {}),
});

export const BudgetRequestSchema = model({
  clear: v.optional(Bool),
  funding_mode: v.optional(FundingMode),
  project_daily_usd: v.optional(Amount),
  project_monthly_usd: v.optional(Amount),
  user_daily_usd: v.optional(Amount),
  user_monthly_usd: v.optional(Amount),
});
export type BudgetRequest = v.InferOutput<typeof BudgetRequestSchema>;

export const DeleteProjectRequestSchema = model({ confirmation: v.string() });
export const TransferRequestSchema = model({ workspace_id: Uuid });

export const ProjectFixtureSchema = model({
  ...ProjectResponseSchema.entries,
  status: v.optional(ProjectStatus, 'active'),
  desired_state: v.optional(FreeObject),
  budget: v.optional(BudgetFixtureSchema),
});
