// The route modules server.ts mounts: the v3 operations, /openapi.json and /docs always; the /_mock operations, the
// inspector page and /_mock/metrics (built per server, from its meters) when control is on. And routeTable (table.ts),
// which compiles the modules' route lists into the one table a request is looked up in.
import type { Router } from '../pipeline/index.js';
import type { ReadBody } from '../pipeline/index.js';
import { docsRoutes } from './docs.js';
import { controlRoutes, v3Routes } from '../operations/index.js';
import { controlUiRoutes } from './control-ui.js';

export { controlMetricsRoutes } from './control-metrics.js';

/** A route module, built once per server: the v3 body reader, and the v3 body limit (control modules read more). */
type RouteModule = (readBody: ReadBody, bodyLimit: number) => Router;

export const V3_ROUTES: RouteModule[] = [
  // The 20 v3 operations, each declared once (src/operations).
  v3Routes,
  // /openapi.json and /docs: public, and served also with control off.
  docsRoutes,
];

/** The /_mock control surface (docs/control-surface.md): mounted only when `control` is on. */
export const CONTROL_ROUTES: RouteModule[] = [
  // Every documented /_mock operation, each declared once (src/operations).
  controlRoutes,
  controlUiRoutes,
];
export { routeTable, type RouteTable } from './table.js';
