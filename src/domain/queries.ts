// Read-side indexes over the stored state (a read view), rebuilt only when their collections change; record lookups any reader answers.
import type { ReadView, RecordReader } from '../storage/index.js';
import type { CollectionName, RecordOf } from '../schemas/index.js';
import { sortDesc, type SortKey } from './pagination.js';

/** Groups a collection by project, each group sorted newest first by `keyOf`. */
function byProject<C extends CollectionName>(store: ReadView, c: C, keyOf: (r: RecordOf<C>) => SortKey, keep: (r: RecordOf<C>) => boolean = () => true) {
  return store.derive(`${c}:by-project`, [c], () => {
    const groups = new Map<string, RecordOf<C>[]>();
    for (const r of store.values(c)) {
      if (!keep(r)) continue;
      const pid = (r as { project_id: string }).project_id;
      let g = groups.get(pid);
      if (!g) groups.set(pid, (g = []));
      g.push(r);
    }
    for (const g of groups.values()) sortDesc(g, keyOf);
    return groups;
  });
}

export const userKey = (u: RecordOf<'users'>): SortKey => [u.created_at, u.id];
export const releaseKey = (r: RecordOf<'releases'>): SortKey => [r.generation];

export const runKey = (r: RecordOf<'runs'>): SortKey => [r.created_at, r.id];
export const projectKey = (p: RecordOf<'projects'>): SortKey => [p.created_at, p.id];

/** Every project, newest first. */
export const projectsSorted = (store: ReadView) => store.derive('projects:sorted', ['projects'], () => sortDesc([...store.values('projects')], projectKey));

/** A project's runs newest first, all of them and per status (one index, rebuilt only when runs change). */
export function runsOf(store: ReadView, projectId: string): { all: RecordOf<'runs'>[]; byStatus: Map<string, RecordOf<'runs'>[]> } {
  const index = store.derive('runs:by-project-status', ['runs'], () => {
    const out = new Map<string, { all: RecordOf<'runs'>[]; byStatus: Map<string, RecordOf<'runs'>[]> }>();
    for (const [pid, all] of byProject(store, 'runs', runKey)) {
      const byStatus = new Map<string, RecordOf<'runs'>[]>();
      for (const r of all) {
        let g = byStatus.get(r.status);
        if (!g) byStatus.set(r.status, (g = []));
        g.push(r);
      }
      out.set(pid, { all, byStatus });
    }
    return out;
  });
  return index.get(projectId) ?? { all: [], byStatus: new Map() };
}

export const usersOf = (store: ReadView, projectId: string) => byProject(store, 'users', userKey, (u) => u.status !== 'deleted').get(projectId) ?? [];
export const releasesOf = (store: ReadView, projectId: string) => byProject(store, 'releases', releaseKey).get(projectId) ?? [];
export const jobsOf = (store: ReadView, projectId: string) => byProject(store, 'jobs', (j) => [j.created_at, j.id]).get(projectId) ?? [];
export const approvalsOf = (store: ReadView, projectId: string) => byProject(store, 'approvals', (a) => [a.requested_at, a.id]).get(projectId) ?? [];

/** A project's record by a per-project name: `connection_name`, `approval_id`. */
function lookup<C extends CollectionName>(store: ReadView, c: C, field: string) {
  return store.derive(`${c}:by-${field}`, [c], () => {
    const m = new Map<string, RecordOf<C>>();
    for (const r of store.values(c)) m.set(`${(r as { project_id: string }).project_id}\u0000${(r as Record<string, string>)[field]}`, r);
    return m;
  });
}

export const findConnection = (store: ReadView, projectId: string, name: string) =>
  lookup(store, 'connections', 'connection_name').get(`${projectId}\u0000${name}`);
export const findApproval = (store: ReadView, projectId: string, approvalId: string) =>
  lookup(store, 'approvals', 'approval_id').get(`${projectId}\u0000${approvalId}`);

/** The deployment targets (`live`, `candidate`) that point at each release of a project. */
export function targetsByRelease(store: Pick<RecordReader, 'get'>, projectId: string): Map<string, ('live' | 'candidate')[]> {
  const out = new Map<string, ('live' | 'candidate')[]>();
  for (const name of ['candidate', 'live'] as const) {
    const t = store.get('targets', `${projectId}:${name}`);
    if (t) out.set(t.release_id, [...(out.get(t.release_id) ?? []), name]);
  }
  return out;
}

/** A scoped record that belongs to the project, or undefined (so another project's id reads as missing). */
export function inProject<C extends CollectionName>(reader: Pick<RecordReader, 'get'>, c: C, id: string, projectId: string): RecordOf<C> | undefined {
  const r = reader.get(c, id);
  return r && (r as { project_id?: string }).project_id === projectId ? r : undefined;
}
