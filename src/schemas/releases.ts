// Releases, deployment targets and desired-state revisions as stored and listed (endpoint 10).
import * as v from 'valibot';
import { FreeObject, Int, Timestamp, Uuid, intQuery, model } from './common.js';
import { DeploymentTarget } from './jobs.js';
import { ReleaseDocumentSchema } from './desired-state.js';

const HeadSchema = model({
  revision_id: Uuid,
  generation: v.pipe(Int, v.minValue(0)),
  fingerprint: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
});

export const ReleaseResponseSchema = model({
  id: Uuid,
  project_id: Uuid,
  generation: v.pipe(Int, v.minValue(1)),
  created_at: Timestamp,
  desired_state_head: HeadSchema,
  /** The compiled document (docs/desired-state.md), as the compiler writes it. */
  document: ReleaseDocumentSchema,
  targets: v.optional(v.array(DeploymentTarget)),
});

// Stored documents are checked as JSON objects only: the compiler wrote them, and older data files stay loadable.
export const ReleaseRecordSchema = model({ ...ReleaseResponseSchema.entries, document: FreeObject, targets: v.optional(v.array(DeploymentTarget)) });

export const RevisionRecordSchema = model({
  revision_id: Uuid,
  project_id: Uuid,
  generation: v.pipe(Int, v.minValue(0)),
  fingerprint: v.string(),
  created_at: Timestamp,
  document: FreeObject,
});

export const TargetRecordSchema = model({ project_id: Uuid, name: DeploymentTarget, release_id: Uuid });

export const ReleasePageQuerySchema = model({ limit: intQuery(1, 200, 50), cursor: v.optional(v.string()) });
export const ReleaseDiffQuerySchema = model({ baseline_release_id: v.optional(Uuid) });
