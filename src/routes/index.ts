// Every v3 route module, in one list, so app.ts stays a plain assembly.
import type Router from '@koa/router';
import type { Deps } from '../deps.js';
import type { ReadBody } from './endpoint.js';
import { approvalRoutes } from './approvals.js';
import { connectionRoutes } from './connections.js';
import { jobRoutes } from './jobs.js';
import { releaseRoutes } from './releases.js';
import { runRoutes } from './runs.js';
import { userRoutes } from './users.js';

export const V3_ROUTES: ((deps: Deps, readBody: ReadBody) => Router)[] = [
  connectionRoutes,
  runRoutes,
  userRoutes,
  releaseRoutes,
  jobRoutes,
  approvalRoutes,
];
