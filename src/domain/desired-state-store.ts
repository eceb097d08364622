// The desired state as stored: a project's head revision, committing revisions, compiling releases, plans and release diffs.
//
// The pure engine lives in ./desired-state/; this file only loads its inputs from the store and writes
// its outputs back, each write in ONE transaction (one persisted write). Plans and diffs never write.
import type { WriteDeps } from './write-deps.js';
import { ApiError } from '../errors.js';
import type { ReadView, RecordReader, Transaction } from '../storage/index.js';
import type { RecordOf } from '../schemas/index.js';
import type { ApplyDesiredStateRequest } from '../schemas/index.js';
import type { DesiredState, DesiredStateHead, PlanRequest, PlanResponse, ReleaseDiffResponse, ReleaseDocument, SemanticChange } from '../schemas/index.js';
import {
  assertOneSource,
  buildPlan,
  buildReleaseDiff,
  compileRelease,
  diffStates,
  emptyDesiredState,
  fingerprint,
  normalizeDesiredState,
  proposeDesiredState,
} from './desired-state/index.js';
import { uuidFor } from './ids.js';
import { inProject, releasesOf, targetsByRelease } from './queries.js';
import { releaseView } from './views.js';

/** Reads committed state (the read view) or a transaction's view of it. */
type Reader = RecordReader;

export interface DesiredStateView {
  head: DesiredStateHead;
  document: DesiredState;
}

export interface ApplyResult extends DesiredStateView {
  /** False when the source produced the head's own state: no revision was created (a no-op apply). */
  committed: boolean;
  previous_head: DesiredStateHead;
  /** What changed from the previous head to the new one (empty for a no-op). */
  changes: SemanticChange[];
}

const headOf = (r: RecordOf<'revisions'>): DesiredStateHead => ({ revision_id: r.revision_id, generation: r.generation, fingerprint: r.fingerprint });

function projectOrThrow(reader: Reader, projectId: string): RecordOf<'projects'> {
  const project = reader.get('projects', projectId);
  if (!project) throw new ApiError('project_not_found', { affected_resource: `project:${projectId}` });
  return project;
}

function writableProject(tx: Transaction, projectId: string): RecordOf<'projects'> {
  const project = projectOrThrow(tx, projectId);
  if (project.status === 'archived') throw new ApiError('project_archived', { affected_resource: `project:${project.id}` });
  return project;
}

/**
 * The project's head revision. A project without one (only possible through PUT /_mock/state) has the
 * same implicit generation-0 empty revision that fixtures create for a project without desired state;
 * it is materialized by the first write that needs it.
 */
function headRevision(reader: Reader, project: RecordOf<'projects'>): { revision: RecordOf<'revisions'>; stored: boolean } {
  const stored = project.head_revision_id ? reader.get('revisions', project.head_revision_id) : undefined;
  if (stored) return { revision: stored, stored: true };
  return {
    revision: {
      revision_id: project.head_revision_id ?? uuidFor(`${project.id}:revision:0`),
      project_id: project.id,
      generation: 0,
      fingerprint: fingerprint(emptyDesiredState()),
      created_at: project.created_at,
      document: emptyDesiredState() as unknown as Record<string, unknown>,
    },
    stored: false,
  };
}

/** A stored revision's document, normalized (imported state may hold any valid document). */
const documentOf = (r: RecordOf<'revisions'>): DesiredState => normalizeDesiredState(r.document);

/** `GET /_mock/projects/{id}/desired-state`: the head identity and its document. Archived projects are readable. */
export function readDesiredState(deps: { store: ReadView }, projectId: string): DesiredStateView {
  const { revision } = headRevision(deps.store, projectOrThrow(deps.store, projectId));
  return { head: headOf(revision), document: documentOf(revision) };
}

/** Endpoint 9: the plan against the current head. Reads only: not a record, counter or byte changes. */
export function planDesiredState(deps: { store: ReadView }, project: RecordOf<'projects'>, request: PlanRequest): PlanResponse {
  const { revision } = headRevision(deps.store, project);
  return buildPlan(headOf(revision), documentOf(revision), request);
}

/**
 * Commits a mutation or bundle as the project's new head revision (generation + 1), in one transaction.
 * `base_revision_id`, when given, must be the head (409 stale_base_revision). Checks run in the plan's
 * order (one source 422, stale base 409, then the source itself), so apply refuses exactly what plan refuses.
 * A source that yields the head's own state (same fingerprint) commits nothing and answers `committed: false`.
 */
export async function applyDesiredState(deps: WriteDeps, projectId: string, request: ApplyDesiredStateRequest): Promise<ApplyResult> {
  return deps.store.transact((tx) => {
    const project = writableProject(tx, projectId);
    const { revision: base, stored } = headRevision(tx, project);
    const previous = headOf(base);
    const source = { base_revision_id: previous.revision_id, bundle: request.bundle, mutation: request.mutation };
    // The checks of endpoint 9, in its order: one source (422), stale base (409), the source itself.
    assertOneSource(source);
    if (request.base_revision_id !== undefined && request.base_revision_id !== previous.revision_id) {
      throw new ApiError('stale_base_revision', { affected_resource: `desired_state_revision:${request.base_revision_id}` });
    }
    const before = documentOf(base);
    const document = proposeDesiredState(before, source);
    const proposed = fingerprint(document);
    if (proposed === previous.fingerprint) {
      return { committed: false, previous_head: previous, head: previous, document: before, changes: [] };
    }
    if (!stored) tx.put('revisions', base);
    const revision: RecordOf<'revisions'> = {
      revision_id: deps.ids(),
      project_id: project.id,
      generation: base.generation + 1,
      fingerprint: proposed,
      created_at: tx.now(),
      document: document as unknown as Record<string, unknown>,
    };
    tx.put('revisions', revision);
    tx.put('projects', { ...project, head_revision_id: revision.revision_id });
    return { committed: true, previous_head: previous, head: headOf(revision), document, changes: diffStates(before, document) };
  });
}

/**
 * Compiles the head revision into a new immutable release (generation = the project's highest + 1) and,
 * when `target` is given, moves that deployment target to it; one transaction. Every call creates a
 * release, even when the head did not change since the last one (a release is a deployment unit).
 */
export async function compileReleaseFromHead(deps: WriteDeps, projectId: string, options: { target?: 'live' | 'candidate' } = {}) {
  return deps.store.transact((tx) => {
    const project = writableProject(tx, projectId);
    const { revision, stored } = headRevision(tx, project);
    if (!stored) tx.put('revisions', revision);
    const generation = Math.max(0, ...tx.where('releases', 'project_id', project.id).map((r) => r.generation)) + 1;
    const record: RecordOf<'releases'> = {
      id: deps.ids(),
      project_id: project.id,
      generation,
      created_at: tx.now(),
      desired_state_head: headOf(revision),
      document: compileRelease(documentOf(revision)) as unknown as Record<string, unknown>,
    };
    tx.put('releases', record);
    if (options.target) tx.put('targets', { project_id: project.id, name: options.target, release_id: record.id });
    return releaseView(record, targetsByRelease(tx, projectId).get(record.id) ?? []);
  });
}

/**
 * The desired state a release was compiled from: its head revision's document. Should that revision be
 * missing (state imported without it), the state is re-derived from the immutable release document; a
 * soul is then known only by its fingerprint, and identity, metadata and policy are not in the document.
 */
function releaseState(store: RecordReader, release: RecordOf<'releases'>): DesiredState {
  const revision = store.get('revisions', release.desired_state_head.revision_id);
  if (revision && revision.project_id === release.project_id) return documentOf(revision);
  const doc = release.document as unknown as ReleaseDocument;
  const resources = (kind: string) => (doc.resources ?? []).filter((r) => r.kind === kind);
  const entities = (kind: string) => resources(kind).map((r) => ({ id: r.id, display_name: r.display_name }));
  return normalizeDesiredState({
    agents: (doc.execution_plans ?? []).map((p) => ({
      id: p.agent_id,
      display_name: p.display_name,
      soul: p.soul_fingerprint ?? '',
      model: p.model,
      limits: p.limits,
      config: p.config,
      skills: p.skills.map((s) => s.id),
      capabilities: p.capabilities.map((c) => c.id),
      connections: p.connections.map((c) => c.name),
      memory: p.memory_grants,
      delegations: p.delegations,
    })),
    skills: entities('skill'),
    capabilities: entities('capability'),
    credential_requirements: entities('credential_requirement'),
    memory_namespaces: entities('memory_namespace'),
    connections: resources('connection').map((r) => ({ id: r.id, display_name: r.display_name, kind: r.connection_kind ?? 'unknown' })),
  });
}

/**
 * Endpoint 3. The release and an explicit baseline must both belong to the project (else 404
 * release_not_found); without a baseline, the preceding release (highest generation below it) is used,
 * or none for the project's first release (every entity then reads `created`).
 */
export function diffRelease(deps: { store: ReadView }, projectId: string, releaseId: string, baselineReleaseId?: string): ReleaseDiffResponse {
  const { store } = deps;
  const release = inProject(store, 'releases', releaseId, projectId);
  if (!release) throw new ApiError('release_not_found', { affected_resource: `release:${releaseId}` });
  let baseline: RecordOf<'releases'> | undefined;
  if (baselineReleaseId !== undefined) {
    baseline = inProject(store, 'releases', baselineReleaseId, projectId);
    if (!baseline)
      throw new ApiError('release_not_found', { affected_resource: `release:${baselineReleaseId}`, message: 'Baseline release not found in this project.' });
  } else {
    // releasesOf is sorted by generation, newest first: the first one below is the preceding release.
    baseline = releasesOf(store, projectId).find((r) => r.generation < release.generation);
  }
  return buildReleaseDiff(release.id, baseline?.id ?? null, baseline ? releaseState(store, baseline) : null, releaseState(store, release));
}
