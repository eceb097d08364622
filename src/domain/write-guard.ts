// Re-reads the project inside a write transaction: the pipeline's check ran before the body was read, and another write may have archived it since.
import { ApiError } from '../errors.js';
import type { Transaction } from '../storage/store.js';
import type { RecordOf } from '../schemas/state.js';

/** The project as this transaction sees it; a project archived meanwhile refuses the write. */
export function writableProject(tx: Transaction, projectId: string): RecordOf<'projects'> {
  const project = tx.get('projects', projectId);
  if (!project) throw new ApiError('project_not_found');
  if (project.status === 'archived') throw new ApiError('project_archived', { affected_resource: `project:${project.id}` });
  return project;
}
