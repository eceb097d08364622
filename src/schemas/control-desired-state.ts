// Bodies of the desired-state control operations (docs/control-surface.md): apply a source, compile a release.
import * as v from 'valibot';
import { Uuid, forbidExtra, model } from './common.js';
import { DeploymentTarget } from './jobs.js';
import { BundleSchema, MutationSchema } from './desired-state.js';

/** POST /_mock/projects/{id}/desired-state/apply. Exactly one of `bundle` and `mutation` is enforced in code. */
export const ApplyDesiredStateSchema = forbidExtra(
  model({
    base_revision_id: v.optional(Uuid),
    bundle: v.optional(BundleSchema),
    mutation: v.optional(MutationSchema),
  }),
);
export type ApplyDesiredStateInput = v.InferInput<typeof ApplyDesiredStateSchema>;
export type ApplyDesiredStateRequest = v.InferOutput<typeof ApplyDesiredStateSchema>;

/** POST /_mock/projects/{id}/releases: optionally move the named deployment target to the new release. */
export const CompileReleaseSchema = forbidExtra(
  model({
    target: v.optional(DeploymentTarget),
  }),
);
export type CompileReleaseInput = v.InferInput<typeof CompileReleaseSchema>;
