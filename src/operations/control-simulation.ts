// The /_mock operations of the simulation engine: its state, settings, step, run and behaviours.
import { BehavioursSchema, SimulationRunRequestSchema, SimulationSettingsRequestSchema } from '../schemas/simulation.js';
import * as A from '../openapi/control-schemas.js';
import { named } from '../openapi/operation-spec.js';
import { Simulation, answer } from './answers.js';
import { declareControl } from './declare.js';

// prettier-ignore
export const CONTROL_SIMULATION_OPERATIONS = [
  declareControl({
    operationId: 'controlGetSimulation',
    method: 'get',
    path: '/_mock/simulation',
    summary: 'The simulation: mode, speed and the next pending events',
    description: 'Answers `{mode, speed, now, clock, pending_count, pending, behaviours, traffic, retention_days}`; `pending` is at most 100 events in time order, each `{at, kind, project_id?, run_id?, job_id?, approval_id?}`.',
    errors: [],
    success: [Simulation],
    client: { name: 'simulation', doc: 'The simulation: mode, speed, and the next pending events (at most 100) in time order.' },
    handler: () => ({ control }) => control.simulation(),
  }),
  declareControl({
    operationId: 'controlSetSimulation',
    method: 'put',
    path: '/_mock/simulation',
    summary: 'Set the simulation mode, the speed of a running clock, and synthetic chat traffic',
    description: '`mode`: `auto` (events fire as the clock reaches them), `step` (only step and run execute them) or `off`. `speed`: simulated ms per real ms of a running clock. `traffic`: replaces the synthetic chat sources. `retention_days`: runs the simulation created (and their approvals, traces and chat updates) are removed this many simulated days after they ended; 0 keeps everything. Answers the simulation.',
    body: { schema: named('SimulationSettingsRequest', SimulationSettingsRequestSchema), required: true },
    success: [Simulation],
    client: { name: 'setSimulation', doc: 'Sets the mode (`auto`, `step`, `off`), the speed of a running clock, and the synthetic chat traffic.', body: 'input' },
    handler: () => ({ body, control }) => control.setSimulation(body),
  }),
  declareControl({
    operationId: 'controlStepSimulation',
    method: 'post',
    path: '/_mock/simulation/step',
    summary: 'Execute exactly the next simulated event',
    description: 'The clock jumps to the event\'s time when that is later. Answers `{executed, now, pending_count}`; `executed` is null when nothing is pending.',
    success: [answer('ControlSimulationStep', A.SimulationStepAnswerSchema, 'The event executed')],
    client: { name: 'stepSimulation', doc: 'Executes exactly the next event (the clock jumps to its time when later); `executed` is null when none is pending.' },
    handler: () => ({ control }) => control.stepSimulation(),
  }),
  declareControl({
    operationId: 'controlRunSimulation',
    method: 'post',
    path: '/_mock/simulation/run',
    summary: 'Execute simulated events up to a time, or until no run has work left',
    description: 'Exactly one of `until` (the clock then reads `until`) and `idle: true`. More than 1,000,000 events is refused with 422 and changes nothing. Answers a summary: `{executed, by_kind, from, now, pending_count, elapsed_ms}`.',
    body: { schema: named('SimulationRunRequest', SimulationRunRequestSchema), required: true },
    success: [answer('ControlSimulationRun', A.SimulationRunAnswerSchema, 'A summary of the run')],
    client: { name: 'runSimulation', doc: 'Executes every event up to `until`, or until no run has work left (`idle: true`).', body: 'input' },
    handler: () => ({ body, control }) => control.runSimulation(body),
  }),
  declareControl({
    operationId: 'controlSetBehaviours',
    method: 'put',
    path: '/_mock/simulation/behaviours',
    summary: 'Replace the behaviours of simulated runs',
    description: 'Validated (422 items with `loc`, also for an unknown project or an approval gate on a step that is not a tool step). Runs queued from then on follow them.',
    body: { schema: named('SimulationBehaviours', BehavioursSchema), required: true },
    success: [answer('SimulationBehaviours', A.SimulationBehavioursAnswerSchema, 'The behaviours now in force')],
    client: { name: 'setBehaviours', doc: 'Replaces the behaviours of simulated runs.', body: 'input' },
    handler: () => ({ body, control }) => control.setBehaviours(body),
  }),
];
