// Control routes of the simulation engine: its state, settings, step, run and behaviours.
import { Router } from './route-list.js';
import type { Deps } from '../deps.js';
import { BehavioursSchema, SimulationRunRequestSchema, SimulationSettingsRequestSchema } from '../schemas/simulation.js';
import { endpoint, type ReadBody } from './endpoint.js';
import type { MockControl } from '../control/api.js';

export function controlSimulationRoutes(deps: Deps, readBody: ReadBody, mock: MockControl): Router {
  const router = new Router();
  const control = () => mock;
  router.get(
    '/_mock/simulation',
    endpoint(deps, readBody, { operation: 'controlGetSimulation', level: 'public' }, () => control().simulation()),
  );
  router.put(
    '/_mock/simulation',
    endpoint(deps, readBody, { operation: 'controlSetSimulation', level: 'public', body: SimulationSettingsRequestSchema, bodyRequired: true }, ({ body }) =>
      control().setSimulation(body),
    ),
  );
  router.post(
    '/_mock/simulation/step',
    endpoint(deps, readBody, { operation: 'controlStepSimulation', level: 'public' }, () => control().stepSimulation()),
  );
  router.post(
    '/_mock/simulation/run',
    endpoint(deps, readBody, { operation: 'controlRunSimulation', level: 'public', body: SimulationRunRequestSchema, bodyRequired: true }, ({ body }) =>
      control().runSimulation(body),
    ),
  );
  router.put(
    '/_mock/simulation/behaviours',
    endpoint(deps, readBody, { operation: 'controlSetBehaviours', level: 'public', body: BehavioursSchema, bodyRequired: true }, ({ body }) =>
      control().setBehaviours(body),
    ),
  );
  return router;
}
