// What the engine is told when it is built: its default mode, seed, retention, and who hears what it does.
import type { WriteScope } from '../storage/store.js';
import type { SimulationMode } from '../schemas/simulation.js';
import type { Removed } from './history.js';

export interface EngineOptions {
  /** The mode when the stored settings name none (createApp: off, CLI: auto). */
  defaultMode: SimulationMode;
  /** createApp's seed: the simulation's draws derive from it unless the fixture names one. */
  seed?: string;
  onError(err: unknown): void;
  /** The write scope events run in (the coverage report collects the simulation's transitions there). */
  scope?(): WriteScope;
  /** Each executed event, by kind (the coverage report). */
  onExecuted?(kind: string): void;
  /** A new event was scheduled, inside the transaction that writes it (the driver re-arms its timer after it). */
  onScheduled?(atMs: number): void;
  /** Simulated days a simulated run is kept after it ended when the settings name none (0: everything is kept). */
  retentionDays?: number;
  /** What each retention slice removed (the coverage report). */
  onRemoved?(r: Removed): void;
}
