// The settings an instance was started with (the CLI's --simulation, --speed, --traffic, --retain-days): applied over
// the fixture at start, and again whenever the state goes back to fixtures (reset, a fixture load).
import type { Transaction } from '../storage/index.js';
import * as v from 'valibot';
import { TrafficSchema, type SimulationMode, type SimulationRecord } from '../schemas/index.js';

/** Every field optional: what is not given stays as the fixture says. */
export interface StartSettings {
  mode?: SimulationMode;
  /** Simulated ms per real ms; the fixture's frozen clock starts running from its `now`. */
  speed?: number;
  /** Synthetic chat messages an hour on each chat binding of the state. */
  traffic?: number;
  /** Simulated days a simulated run is kept after it ended. */
  retentionDays?: number;
}

export interface StartInput {
  mode?: SimulationMode;
  speed?: number;
  clock?: 'running';
  traffic?: SimulationRecord['traffic'];
  retention_days?: number;
}

/** The settings change that puts `start` over the current state (undefined: nothing to change). */
export function startInput(start: StartSettings, tx: Pick<Transaction, 'filter'>, current: SimulationRecord['traffic']): StartInput | undefined {
  const input: StartInput = {};
  if (start.mode !== undefined) input.mode = start.mode;
  if (start.retentionDays !== undefined) input.retention_days = start.retentionDays;
  if (start.speed !== undefined) Object.assign(input, { speed: start.speed, clock: 'running' });
  if (start.traffic !== undefined) {
    const bindings = tx.filter('connections', (c) => c.kind === 'chatapp').map((c) => c.id);
    const others = current.filter((t) => !bindings.includes(t.binding_id));
    input.traffic = [...others, ...bindings.map((binding_id) => v.parse(TrafficSchema, { binding_id, messages_per_hour: start.traffic }))];
  }
  return Object.keys(input).length > 0 ? input : undefined;
}
