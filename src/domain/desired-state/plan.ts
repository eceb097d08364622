// Pure assembly of the plan (endpoint 9) and release-diff (endpoint 3) responses from states the caller loaded.
import { ApiError, invalid } from '../../errors.js';
import type { DesiredState, DesiredStateHead, PlanRequest, PlanResponse, ReleaseDiffResponse } from '../../schemas/index.js';
import { stateFromBundle } from './bundle.js';
import { diffFingerprint, diffStates } from './diff.js';
import { fingerprint } from './fingerprint.js';
import { applyMutation } from './mutations.js';

const PLAN_API_VERSION = 'svc.desired-state-plan/v3';

/** Endpoint 9 (docs/api.md): exactly one of `bundle` and `mutation` (422 otherwise). */
export function assertOneSource(request: PlanRequest): void {
  const given = Number(request.bundle !== undefined) + Number(request.mutation !== undefined);
  if (given !== 1) {
    throw invalid(['body'], 'Exactly one of bundle and mutation is required', 'value_error', null, {
      error: given === 0 ? 'neither bundle nor mutation given' : 'both bundle and mutation given',
    });
  }
}

/** The state a plan request proposes: the bundle's whole state, or the base with the mutation applied. */
export function proposeDesiredState(base: DesiredState, request: PlanRequest): DesiredState {
  assertOneSource(request);
  return request.bundle !== undefined ? stateFromBundle(request.bundle) : applyMutation(base, request.mutation!);
}

/**
 * The whole plan response. Order of checks: exactly-one source (422), then stale base (409
 * stale_base_revision), then the source itself (422 / 409 unknown_reference / duplicate_reference).
 */
export function buildPlan(head: DesiredStateHead, base: DesiredState, request: PlanRequest): PlanResponse {
  assertOneSource(request);
  if (request.base_revision_id !== head.revision_id) {
    throw new ApiError('stale_base_revision', { affected_resource: `desired_state_revision:${request.base_revision_id}` });
  }
  const proposed = proposeDesiredState(base, request);
  const changes = diffStates(base, proposed);
  return {
    api_version: PLAN_API_VERSION,
    head: { revision_id: head.revision_id, generation: head.generation, fingerprint: head.fingerprint },
    proposed_fingerprint: fingerprint(proposed),
    semantic_diff_fingerprint: diffFingerprint(changes),
    changes,
  };
}

/** Endpoint 3: `baseline` null (no baseline and no preceding release) diffs against the empty state. */
export function buildReleaseDiff(
  releaseId: string,
  baselineReleaseId: string | null,
  baseline: DesiredState | null,
  release: DesiredState,
): ReleaseDiffResponse {
  const changes = diffStates(baseline, release);
  return {
    release_id: releaseId,
    baseline_release_id: baselineReleaseId,
    semantic_diff_fingerprint: diffFingerprint(changes),
    changes,
  };
}
