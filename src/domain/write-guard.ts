// Preconditions re-checked inside a write transaction: the pipeline checked them before the body was read, and another write may have changed them since.
import { ApiError } from '../errors.js';
import type { Transaction } from '../storage/index.js';
import type { RecordOf } from '../schemas/index.js';
import { authorizeProject, type Actor, type LevelName } from './auth.js';

/** The project as this transaction sees it; a project archived meanwhile refuses the write. */
export function writableProject(tx: Transaction, projectId: string): RecordOf<'projects'> {
  const project = tx.get('projects', projectId);
  if (!project) throw new ApiError('project_not_found');
  if (project.status === 'archived') throw new ApiError('project_archived', { affected_resource: `project:${project.id}` });
  return project;
}

export interface AuthorityNeeded {
  actor: Actor;
  /** The project the request acts on, and the level it needs there. */
  project?: { id: string; level: LevelName; refuseArchived: boolean };
}

/**
 * What each write of a request checks first, on what its transaction reads: the caller's token and role as stored
 * now, and the project's visibility, authority and state. So a write never lands after the authority it was allowed
 * by was stored as gone (a transfer, a revoked token, a role removed), whatever the order the requests raced in.
 */
export function authorityGuard(needed: AuthorityNeeded): (tx: Transaction) => void {
  return (tx) => {
    const actor = needed.actor.reread(tx);
    if (!needed.project) return;
    const project = authorizeProject(actor, tx.get('projects', needed.project.id), needed.project.level);
    if (needed.project.refuseArchived && project.status === 'archived') throw new ApiError('project_archived', { affected_resource: `project:${project.id}` });
  };
}
