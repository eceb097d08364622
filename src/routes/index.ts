// Every v3 route module, in one list, so app.ts stays a plain assembly.
import type { Router } from './route-list.js';
import type { ReadBody } from './endpoint.js';
import { docsRoutes } from './docs.js';
import { v3Routes } from '../operations/index.js';
import { controlDesiredStateRoutes } from './control-desired-state.js';
import { controlRoutes } from './control.js';
import { controlReproduceRoutes } from './control-reproduce.js';
import { controlRunRoutes } from './control-runs.js';
import { controlProjectRoutes } from './control-projects.js';
import { controlUiRoutes } from './control-ui.js';
import { controlSimulationRoutes } from './control-simulation.js';
import { controlVerifyRoutes } from './control-verify.js';
import { controlSandboxRoutes } from './control-sandboxes.js';

/** A route module, built once per server: the v3 body reader, and the v3 body limit (control modules read more). */
type RouteModule = (readBody: ReadBody, bodyLimit: number) => Router;

export const V3_ROUTES: RouteModule[] = [
  // The 20 v3 operations, each declared once (src/operations).
  v3Routes,
  // /openapi.json and /docs: public, and served also with control off.
  docsRoutes,
];

/** The /_mock control surface (CONTRACT section 8): mounted only when `control` is on. */
// The reproduce module comes first: its /_mock/requests/export must win over /_mock/requests/{request_id}.
export const CONTROL_ROUTES: RouteModule[] = [
  controlReproduceRoutes,
  controlRoutes,
  controlRunRoutes,
  controlDesiredStateRoutes,
  controlSimulationRoutes,
  controlVerifyRoutes,
  controlProjectRoutes,
  controlUiRoutes,
  controlSandboxRoutes,
];
