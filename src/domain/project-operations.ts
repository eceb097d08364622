// Archiving (endpoint 12) and transferring (endpoint 13) a project: the confirmation, emptiness and authority checks, then one write.
import type { WriteDeps } from './write-deps.js';
import { ApiError } from '../errors.js';
import type { RecordOf } from '../schemas/state.js';
import { LEVELS, type Actor } from './auth.js';
import { writableProject } from './write-guard.js';

type Project = RecordOf<'projects'>;

/**
 * Archives the project. The confirmation is checked first, even on an archived project: it guards
 * against deleting the wrong project, so a wrong slug is always refused, while a repeat of the
 * correct request answers 200 with the archived project and writes nothing.
 */
export async function archiveProject(deps: WriteDeps, projectId: string, confirmation: string): Promise<Project> {
  return deps.store.transact((tx) => {
    const now = tx.now();
    const project = tx.get('projects', projectId);
    if (!project) throw new ApiError('project_not_found');
    if (confirmation !== project.slug) {
      throw new ApiError('confirmation_mismatch', { affected_resource: `project:${project.id}`, message: 'The confirmation must equal the project slug.' });
    }
    if (project.status === 'archived') return project;
    return tx.put('projects', { ...project, status: 'archived', updated_at: now });
  });
}

export interface TransferInput {
  actor: Actor;
  projectId: string;
  workspaceId: string;
}

/** Records that make a project non-empty (endpoint 13, docs/operations.md); deleted app users no longer count. */
const HISTORY = ['releases', 'runs', 'users', 'jobs', 'approvals'] as const;

/**
 * Moves an empty project to another workspace. Checks run from the request to the state: the target
 * must exist, the actor must be owner there (an admin key is owner everywhere), then the project
 * must be empty. Transferring to the workspace it is already in changes nothing.
 */
export async function transferProject(deps: WriteDeps, input: TransferInput): Promise<Project> {
  return deps.store.transact((tx) => {
    const now = tx.now();
    const project = writableProject(tx, input.projectId);
    if (!tx.get('workspaces', input.workspaceId)) {
      throw new ApiError('workspace_not_found', { affected_resource: `workspace:${input.workspaceId}` });
    }
    if (input.actor.reread(tx).levelIn(input.workspaceId) < LEVELS.owner) {
      throw new ApiError('insufficient_authority', {
        message: 'Transfer needs owner authority in the target workspace too.',
        affected_resource: `workspace:${input.workspaceId}`,
      });
    }
    const holding = HISTORY.filter(
      (c) => tx.where(c, 'project_id', project.id, (r) => !(c === 'users' && (r as RecordOf<'users'>).status === 'deleted')).length > 0,
    );
    if (holding.length > 0) {
      throw new ApiError('project_not_empty', {
        affected_resource: `project:${project.id}`,
        message: `Only an empty project can be transferred; this one has ${holding.join(', ')}.`,
      });
    }
    if (project.workspace_id === input.workspaceId) return project;
    return tx.put('projects', { ...project, workspace_id: input.workspaceId, updated_at: now });
  });
}
