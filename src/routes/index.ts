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

type RouteModule = (deps: Deps, readBody: ReadBody) => Router;

export const V3_ROUTES: RouteModule[] = [
  connectionRoutes,
  runRoutes,
  userRoutes,
  releaseRoutes,
  jobRoutes,
  approvalRoutes,
];

/** The /_mock control surface (CONTRACT section 8): mounted only when `control` is on. */
export const CONTROL_ROUTES: RouteModule[] = [];
