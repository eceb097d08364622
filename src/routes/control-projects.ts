// Read-only project views of the control surface (GET /_mock/projects/...): paged state for the inspector page and for tests.
import { Router } from './route-list.js';
import type { MockControl } from '../control/api.js';
import { ControlApprovalPageQuerySchema, ControlJobPageQuerySchema, ControlPageQuerySchema, ControlRunPageQuerySchema } from '../schemas/control-projects.js';
import { endpoint, type ReadBody } from './endpoint.js';
import { ProjectPath, RunPath } from './path-params.js';

export function controlProjectRoutes(readBody: ReadBody): Router {
  const router = new Router();
  const level = 'public';
  router.get(
    '/_mock/projects',
    endpoint(readBody, { operation: 'controlListProjects', level, query: ControlPageQuerySchema }, ({ query, control }) => control.projects(query)),
  );
  router.get(
    '/_mock/projects/:project_id',
    endpoint(readBody, { operation: 'controlGetProject', level, path: ProjectPath }, ({ path, control }) => control.projectOverview(path.project_id)),
  );
  router.get(
    '/_mock/projects/:project_id/runs/:run_id',
    endpoint(readBody, { operation: 'controlGetRun', level, path: RunPath }, ({ path, control }) => control.run(path.project_id, path.run_id)),
  );
  // One page of a project's records each: the in-process method validates the query again (it is also called directly).
  const pages = [
    ['runs', 'controlListRuns', ControlRunPageQuerySchema, (control: MockControl, id: string, q: object) => control.runs(id, q)],
    ['approvals', 'controlListApprovals', ControlApprovalPageQuerySchema, (control: MockControl, id: string, q: object) => control.approvals(id, q)],
    ['users', 'controlListUsers', ControlPageQuerySchema, (control: MockControl, id: string, q: object) => control.users(id, q)],
    ['jobs', 'controlListJobs', ControlJobPageQuerySchema, (control: MockControl, id: string, q: object) => control.jobs(id, q)],
    ['releases', 'controlListReleases', ControlPageQuerySchema, (control: MockControl, id: string, q: object) => control.releases(id, q)],
  ] as const;
  for (const [name, operation, query, read] of pages) {
    router.get(
      `/_mock/projects/:project_id/${name}`,
      endpoint(readBody, { operation, level, path: ProjectPath, query }, ({ path, query: q, control }) => read(control, path.project_id, q)),
    );
  }
  return router;
}
