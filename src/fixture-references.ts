// A fixture's references that valibot cannot express: every id a record names must exist (in its project), once.
import type { Fixture } from './schemas/index.js';
import { checkBehaviourReferences, checkTrafficReferences, scheduleProblem } from './simulation/index.js';

/** `["projects", 0, "project_id"]` -> `.projects[0].project_id`. */
const pathText = (path: (string | number)[]) => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');

/** Reference checks valibot cannot express: each reference that fails becomes a problem line. */
export function referenceProblems(f: Fixture): string[] {
  const ids = (xs: { id: string }[]) => new Set(xs.map((x) => x.id));
  const workspaces = ids(f.workspaces);
  const principals = ids(f.principals);
  const projects = ids(f.projects);
  const releases = new Map(f.releases.map((r) => [r.id, r.project_id]));
  const users = ids(f.users);
  const runs = ids(f.runs);
  const problems: string[] = [];
  const need = (ok: boolean, path: string, what: string) => {
    if (!ok) problems.push(`${path}: unknown ${what}`);
  };
  f.principals.forEach((p, i) =>
    p.memberships.forEach((m, j) => need(workspaces.has(m.workspace_id), `principals[${i}].memberships[${j}].workspace_id`, 'workspace')),
  );
  f.access_tokens.forEach((t, i) => need(principals.has(t.principal_id), `access_tokens[${i}].principal_id`, 'principal'));
  f.authorization_codes.forEach((t, i) => need(principals.has(t.principal_id), `authorization_codes[${i}].principal_id`, 'principal'));
  f.projects.forEach((p, i) => need(workspaces.has(p.workspace_id), `projects[${i}].workspace_id`, 'workspace'));
  const scoped = ['connections', 'releases', 'targets', 'runs', 'approvals', 'users', 'jobs', 'memories', 'traces'] as const;
  for (const key of scoped) (f[key] as { project_id: string }[]).forEach((r, i) => need(projects.has(r.project_id), `${key}[${i}].project_id`, 'project'));
  f.targets.forEach((t, i) => need(releases.get(t.release_id) === t.project_id, `targets[${i}].release_id`, 'release of this project'));
  f.runs.forEach((r, i) => {
    if (r.release_id) need(releases.get(r.release_id) === r.project_id, `runs[${i}].release_id`, 'release of this project');
    if (r.user_id) need(users.has(r.user_id), `runs[${i}].user_id`, 'user');
  });
  f.approvals.forEach((a, i) => {
    if (a.run_id) need(runs.has(a.run_id), `approvals[${i}].run_id`, 'run');
  });
  for (const key of ['memories', 'traces'] as const) f[key].forEach((r, i) => need(users.has(r.user_id), `${key}[${i}].user_id`, 'user'));
  f.jobs.forEach((j, i) => {
    const bad = scheduleProblem(j.schedule);
    if (bad) problems.push(`jobs[${i}].schedule.${bad.field}: ${bad.message}`);
  });
  if (f.simulation) {
    const kinds = new Map(f.connections.map((c) => [c.id, c.kind]));
    for (const p of checkBehaviourReferences(f.simulation.behaviours, (id) => projects.has(id)))
      problems.push(`simulation.behaviours${pathText(p.path)}: ${p.message}`);
    for (const p of checkTrafficReferences(f.simulation.traffic, (id) => kinds.get(id))) problems.push(`simulation.traffic${pathText(p.path)}: ${p.message}`);
  }
  const seen = new Set<string>();
  for (const key of ['projects', 'runs', 'users', 'releases', 'approvals', 'jobs', 'connections'] as const) {
    (f[key] as { id: string }[]).forEach((r, i) => {
      if (seen.has(r.id)) problems.push(`${key}[${i}].id: duplicate id ${r.id}`);
      seen.add(r.id);
    });
  }
  return problems;
}
