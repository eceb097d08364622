// Deleting an app user (endpoint 20): the user, their memories and full-content traces go; their runs keep only trace identity.
import type { WriteDeps } from './write-deps.js';
import { ApiError } from '../errors.js';
import { writableProject } from './write-guard.js';

export interface UserDeleteResult {
  deleted_memory_count: number;
  deleted_trace_bundle_count: number;
  project_id: string;
  status: 'deleted';
  user_id: string;
}

/**
 * One transaction: the user record is removed (not tombstoned, so nothing of the person remains),
 * with their memories and traces; their runs stay for accounting but report that trace content is
 * gone. A second delete is then 404, like any read of the user.
 */
export async function deleteUser(deps: WriteDeps, projectId: string, userId: string): Promise<UserDeleteResult> {
  return deps.store.transact((tx) => {
    writableProject(tx, projectId);
    const user = tx.get('users', userId);
    if (!user || user.project_id !== projectId || user.status === 'deleted') {
      throw new ApiError('user_not_found', { affected_resource: `user:${userId}` });
    }
    const inProject = (r: { project_id: string }) => r.project_id === projectId;
    const memories = tx.where('memories', 'user_id', userId, inProject);
    const traces = tx.where('traces', 'user_id', userId, inProject);
    for (const m of memories) tx.delete('memories', m.id);
    for (const t of traces) tx.delete('traces', t.id);
    for (const run of tx.where('runs', 'user_id', userId, inProject)) {
      tx.put('runs', { ...run, trace_content_status: 'unavailable', steps: run.steps.map((s) => ({ ...s, content_available: false })) });
    }
    tx.delete('users', user.id);
    return { deleted_memory_count: memories.length, deleted_trace_bundle_count: traces.length, project_id: projectId, status: 'deleted', user_id: user.id };
  });
}
