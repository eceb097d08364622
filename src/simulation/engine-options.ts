// What the engine is told when it is built: its default mode, seed, retention, and who hears what it does.
import type { WriteScope } from '../storage/index.js';
import type { SimulationMode } from '../schemas/index.js';
import type { HistoryOptions } from './history.js';
import type { SentMessage } from './traffic.js';

/** The simulation that drives the engine implements it (no options object or closures of its own per mock). */
export interface EngineOptions extends HistoryOptions {
  /** The mode when the stored settings name none (createApp: off, CLI: auto). */
  readonly defaultMode: SimulationMode;
  /** createApp's seed: the simulation's draws derive from it unless the fixture names one. */
  readonly seed?: string;
  onError(err: unknown): void;
  /** The write scope events run in (the coverage report collects the simulation's transitions there). */
  scope?(): WriteScope;
  /** Each executed event, by kind (the coverage report). */
  onExecuted?(kind: string): void;
  /** A synthetic chat message was sent (the journal shows it as the webhook request it stands for). */
  onMessage?(m: SentMessage): void;
  /** A new event was scheduled, inside the transaction that writes it (the driver re-arms its timer after it). */
  onScheduled?(atMs: number): void;
}
