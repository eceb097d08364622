// Control routes of the simulation engine: its state, settings, step, run and behaviours.
import { Router } from './route-list.js';
import { BehavioursSchema, SimulationRunRequestSchema, SimulationSettingsRequestSchema } from '../schemas/simulation.js';
import { endpoint, type ReadBody } from './endpoint.js';

export function controlSimulationRoutes(readBody: ReadBody): Router {
  const router = new Router();
  router.get(
    '/_mock/simulation',
    endpoint(readBody, { operation: 'controlGetSimulation', level: 'public' }, ({ control }) => control.simulation()),
  );
  router.put(
    '/_mock/simulation',
    endpoint(readBody, { operation: 'controlSetSimulation', level: 'public', body: SimulationSettingsRequestSchema, bodyRequired: true }, ({ body, control }) =>
      control.setSimulation(body),
    ),
  );
  router.post(
    '/_mock/simulation/step',
    endpoint(readBody, { operation: 'controlStepSimulation', level: 'public' }, ({ control }) => control.stepSimulation()),
  );
  router.post(
    '/_mock/simulation/run',
    endpoint(readBody, { operation: 'controlRunSimulation', level: 'public', body: SimulationRunRequestSchema, bodyRequired: true }, ({ body, control }) =>
      control.runSimulation(body),
    ),
  );
  router.put(
    '/_mock/simulation/behaviours',
    endpoint(readBody, { operation: 'controlSetBehaviours', level: 'public', body: BehavioursSchema, bodyRequired: true }, ({ body, control }) =>
      control.setBehaviours(body),
    ),
  );
  return router;
}
