// Project-level writes: endpoints 7 (budget), 12 (delete = archive) and 13 (transfer).
import { Router } from './route-list.js';
import * as v from 'valibot';
import type { Deps } from '../deps.js';
import { setBudget } from '../domain/budget.js';
import { archiveProject, transferProject } from '../domain/project-operations.js';
import { budgetView, projectView } from '../domain/views.js';
import { BudgetRequestSchema, DeleteProjectRequestSchema, TransferRequestSchema } from '../schemas/projects.js';
import { endpoint, type ReadBody } from './endpoint.js';
import { ProjectPath } from './path-params.js';

export function projectRoutes(deps: Deps, readBody: ReadBody): Router {
  const router = new Router();
  router.put(
    '/api/v3/projects/:project_id/budget',
    endpoint(
      deps,
      readBody,
      { operation: 'setBudget', level: 'operator', project: true, path: ProjectPath, body: v.optional(BudgetRequestSchema, {}) },
      async ({ path, body }) => budgetView(await setBudget(deps, path.project_id, body)),
    ),
  );
  router.delete(
    '/api/v3/projects/:project_id',
    endpoint(
      deps,
      readBody,
      // allowArchived: deleting an archived project again answers 200 with it.
      {
        operation: 'deleteProject',
        level: 'owner',
        project: true,
        allowArchived: true,
        path: ProjectPath,
        body: DeleteProjectRequestSchema,
        bodyRequired: true,
      },
      async ({ path, body }) => projectView(await archiveProject(deps, path.project_id, body.confirmation)),
    ),
  );
  router.post(
    '/api/v3/projects/:project_id/transfer',
    endpoint(
      deps,
      readBody,
      { operation: 'transferProject', level: 'owner', adminKey: true, project: true, path: ProjectPath, body: TransferRequestSchema, bodyRequired: true },
      async ({ actor, path, body }) => projectView(await transferProject(deps, { actor, projectId: path.project_id, workspaceId: body.workspace_id })),
    ),
  );
  return router;
}
