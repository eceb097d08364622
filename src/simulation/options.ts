// What a simulation is built with: the server's settings (one object for all its mocks) and what each mock adds.
import type { WriteScope } from '../storage/index.js';
import type { SimEventRecord, SimulationMode } from '../schemas/index.js';
import type { SimulationProgress } from './drain.js';
import type { Removed } from './history.js';
import type { StartSettings } from './start.js';
import type { SentMessage } from './traffic.js';

export const MAX_EVENTS_PER_RUN = 1_000_000;

/** The same for every mock of a server (shared, so a mock holds no copy of its own). */
export interface SimulationSettings {
  /** The mode when neither the fixture nor PUT /_mock/simulation set one (createApp: off; the CLI: auto). */
  defaultMode?: SimulationMode;
  /** A run, step or clock move that would execute more events than this is refused with 422 (default 1,000,000). */
  maxEvents?: number;
  /** Called about four times a second during a long run, and once at its end. */
  onProgress?(p: SimulationProgress & { done: boolean }): void;
  onError?(err: unknown): void;
  /** Simulated days a simulated run is kept after it ended when the settings name none (createApp: 0, everything kept). */
  retentionDays?: number;
  /** Called once per executed event (the server's metrics count them). */
  executed?(): void;
}

/** Hears what the simulation did (the coverage report, the journal). */
export interface SimulationObserver {
  /** The write scope events run in. */
  readonly simulatedScope: WriteScope;
  /** Each executed event's kind. */
  recordSimulated(kind: string): void;
  /** What each removal of simulated history took. */
  recordRemoved(r: Removed): void;
  /** Each synthetic chat message sent (the journal shows it, marked simulated). */
  recordMessage?(m: SentMessage): void;
}

/** What one mock's simulation adds to the server's settings. */
export interface OwnSimulation {
  /** Seed of the simulation's draws (createApp's `seed`); a fixture's `simulation.seed` wins. */
  seed?: string;
  /** Settings put over the fixture's at start and after every reset and fixture load (the CLI's flags). */
  start?: StartSettings;
  observer?: SimulationObserver;
}

/** One pending event as GET /_mock/simulation shows it. */
export function eventView(e: SimEventRecord): SimEventView {
  const out: SimEventView = { at: e.at, kind: e.kind };
  for (const k of ['project_id', 'run_id', 'job_id', 'approval_id'] as const) if (e[k] !== undefined) out[k] = e[k];
  return out;
}

/** What the view shows of an event: its time, kind and what it belongs to. */
type SimEventView = Pick<SimEventRecord, 'at' | 'kind' | 'project_id' | 'run_id' | 'job_id' | 'approval_id'>;
