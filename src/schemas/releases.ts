// Releases, deployment targets and desired-state revisions as stored and listed (endpoint 10).
import * as v from 'valibot';
import { FreeObject, Timestamp, Uuid, intQuery } from './common.js';
import { DeploymentTarget } from './jobs.js';
import { ReleaseDocumentSchema } from './desired-state.js';

export const HeadSchema = v.object({
  revision_id: Uuid,
  generation: v.pipe(v.number(), v.integer(), v.minValue(0)),
  fingerprint: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
});
export type Head = v.InferOutput<typeof HeadSchema>;

export const ReleaseResponseSchema = v.object({
  id: Uuid,
  project_id: Uuid,
  generation: v.pipe(v.number(), v.integer(), v.minValue(1)),
  created_at: Timestamp,
  desired_state_head: HeadSchema,
  /** The compiled document (CONTRACT section 6), as the compiler writes it. */
  document: ReleaseDocumentSchema,
  targets: v.optional(v.array(DeploymentTarget)),
});
export type Release = v.InferOutput<typeof ReleaseResponseSchema>;

// Stored documents are checked as JSON objects only: the compiler wrote them, and older data files stay loadable.
export const ReleaseRecordSchema = v.object({ ...ReleaseResponseSchema.entries, document: FreeObject, targets: v.optional(v.array(DeploymentTarget)) });
export type ReleaseRecord = Omit<Release, 'targets'>;

export const RevisionRecordSchema = v.object({
  revision_id: Uuid,
  project_id: Uuid,
  generation: v.pipe(v.number(), v.integer(), v.minValue(0)),
  fingerprint: v.string(),
  created_at: Timestamp,
  document: FreeObject,
});
export type RevisionRecord = v.InferOutput<typeof RevisionRecordSchema>;

export const TargetRecordSchema = v.object({ project_id: Uuid, name: DeploymentTarget, release_id: Uuid });
export type TargetRecord = v.InferOutput<typeof TargetRecordSchema>;

export const ReleasePageQuerySchema = v.object({ limit: intQuery(1, 200, 50), cursor: v.optional(v.string()) });
export const ReleaseDiffQuerySchema = v.object({ baseline_release_id: v.optional(Uuid) });
