// Projections from stored records to response bodies: only the response schema's keys, never a secret.
import type * as v from 'valibot';
import { ApprovalResponseSchema } from '../schemas/index.js';
import { ConnectionBindingResponseSchema } from '../schemas/index.js';
import { JobResponseSchema } from '../schemas/index.js';
import { BudgetResponseSchema, ProjectResponseSchema } from '../schemas/index.js';
import { ReleaseResponseSchema } from '../schemas/index.js';
import { RunDetailResponseSchema, RunResponseSchema } from '../schemas/index.js';
import { UserResponseSchema } from '../schemas/index.js';
import type { RecordOf } from '../schemas/index.js';

type ObjectSchema = v.ObjectSchema<v.ObjectEntries, undefined>;

/** Builds a projection that copies exactly the schema's keys that the record has. */
function projector<S extends ObjectSchema>(schema: S) {
  const keys = Object.keys(schema.entries);
  return (record: object): v.InferOutput<S> => {
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const value = (record as Record<string, unknown>)[k];
      if (value !== undefined) out[k] = value;
    }
    return out as v.InferOutput<S>;
  };
}

export const projectView = projector(ProjectResponseSchema);
export const connectionView = projector(ConnectionBindingResponseSchema);
export const runDetailView = projector(RunDetailResponseSchema);
export const runView = projector(RunResponseSchema);
export const userView = projector(UserResponseSchema);
export const jobView = projector(JobResponseSchema);
export const budgetView = projector(BudgetResponseSchema);
const approvalProjection = projector(ApprovalResponseSchema);
const releaseProjection = projector(ReleaseResponseSchema);

/** A pending approval past its expiry reads as expired, by the mock clock. */
export function effectiveApprovalStatus(a: RecordOf<'approvals'>, nowMs: number): RecordOf<'approvals'>['status'] {
  return a.status === 'pending' && Date.parse(a.expires_at) <= nowMs ? 'expired' : a.status;
}

export function approvalView(a: RecordOf<'approvals'>, nowMs: number) {
  const view = approvalProjection(a);
  view.status = effectiveApprovalStatus(a, nowMs);
  return view;
}

export function releaseView(r: RecordOf<'releases'>, targets: ('live' | 'candidate')[]) {
  const view = releaseProjection(r);
  view.targets = targets;
  return view;
}
