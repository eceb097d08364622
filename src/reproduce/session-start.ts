// Where a session begins: what the mock was at start-up or at its last reset, fixture load, state import, bundle restore or snapshot restore.
import type { Snapshot } from '../storage/index.js';
import { COLLECTION_NAMES, type StateData } from '../schemas/index.js';
import type { SimulationMode } from '../schemas/index.js';
import type { GeneratorPositions } from '../domain/index.js';
import type { FaultState } from '../control/index.js';

/**
 * What an exported test builds its mock from. The state is a store snapshot: maps of the stored records, which are
 * immutable and shared with the live store, so one start costs a map of references (bounded by the state), not a copy.
 */
export interface SessionStart {
  /** A store snapshot, or the very document a fresh store was built from when nothing was written since (no copy at all). */
  state: Snapshot | StateData;
  generators: GeneratorPositions | null;
  faults: FaultState;
  /** The journal id of the session's first request. */
  firstId: number;
  mode: SimulationMode;
  /** The simulated days runs were kept then. */
  retentionDays: number;
  /** The clock was frozen: requests can be replayed at the very times they arrived. */
  frozen: boolean;
  /** The keys in force (a createApp option or the state's settings): the replay gets them through the sealed state. */
  adminKey: string | null;
  brokerSecret: string | null;
}

/** The snapshot as a state document, with the keys in force written into its settings. */
export function startState(start: SessionStart): StateData {
  const { state } = start;
  const settings = { ...state.settings, admin_key: start.adminKey, broker_secret: start.brokerSecret };
  if (!('maps' in state)) return { ...state, settings } as StateData;
  const data = { clock: state.clock, settings } as Record<string, unknown>;
  const maps = state.maps as unknown as Record<string, Map<string, unknown>>;
  for (const c of COLLECTION_NAMES) data[c] = Array.from(maps[c].values());
  return data as StateData;
}
