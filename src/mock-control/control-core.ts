// What the parts of a mock's control API share: its collaborators, its per-mock records, the seal, the session and the reset point.
import type { Deps } from '../deps.js';
import type { Store, Writer } from '../storage/index.js';
import type { StateData } from '../schemas/index.js';
import type { Simulation } from '../simulation/index.js';
import type { SeededGenerators } from '../domain/index.js';
import type { ReplaySession } from './replay-session.js';
import type { DriftSource } from '../schemas/index.js';
import type { Journal } from '../control/index.js';
import type { FaultRegistry } from '../control/index.js';
import type { CoverageTracker } from '../control/index.js';
import type { Sealer } from '../control/index.js';
import type { NamedSnapshots } from '../control/index.js';
import type { SandboxDirectory } from './sandbox-directory.js';

/** A mock's named snapshots, and the sandboxes it manages (the default mock only: sandboxes do not nest). */
export interface SandboxParts {
  snapshots: NamedSnapshots;
  sandboxes: SandboxDirectory | null;
}

/** What each mock keeps of its own traffic, built by createApp before the store and the control surface. */
export interface ControlParts extends SandboxParts {
  journal: Journal;
  faults: FaultRegistry;
  coverage: CoverageTracker;
  /** What shadow mode found (an empty record without a shadow target). */
  drift: DriftSource;
}

/**
 * What a reset returns to: the fixtures last loaded. Shared storage keeps it, so every instance resets to the fixtures
 * last loaded through any of them; `seed` (the state the mock was built from) answers while the storage holds none.
 */
export class ResetPoint {
  constructor(
    private readonly deps: Deps,
    private seed: StateData,
  ) {}

  async read(): Promise<StateData> {
    return (await this.deps.store.readResetState()) ?? this.seed;
  }

  /** Stores `state` as what reset returns to. */
  async write(state: StateData): Promise<void> {
    this.seed = state;
    await this.deps.store.writeResetState(state);
  }
}

/** The one object every control part is built from: nothing here is copied, each part reads what it needs. */
export interface ControlCore {
  readonly deps: Deps;
  readonly sim: Simulation;
  readonly parts: ControlParts;
  readonly sealer: Sealer;
  /** Where the current session began: what an exported test rebuilds. */
  readonly session: ReplaySession;
  readonly resetPoint: ResetPoint;
  /** The seeded id and token generators (null without a seed): a repro bundle holds their positions. */
  readonly generators: SeededGenerators | null;
}

/**
 * What a control write may do with the store: transactions and whole-state writes (which answer the clock as they left
 * it). No record, count or clock reads: a write reads time and state through its own transaction.
 */
type WholeStateWriter = Writer & Pick<Store, 'replace' | 'restore'>;

/**
 * What the control parts that write whole states or move the clock are given for their writes: the core without the
 * whole deps, with the store's write face and the simulation's writes.
 */
export interface ControlWrites extends Omit<ControlCore, 'deps' | 'sim'> {
  readonly store: WholeStateWriter;
  readonly sim: Pick<Simulation, 'load' | 'applyStart' | 'moveClock'>;
}

/** The control writes of a core (the same objects, the store narrowed to its write face). */
export function controlWrites(core: ControlCore): ControlWrites {
  const { deps, sim, parts, sealer, session, resetPoint, generators } = core;
  return { store: deps.store, sim, parts, sealer, session, resetPoint, generators };
}

/** After the stored state was replaced whole: the simulation reloads from it and a new session begins there. */
export async function reloaded(core: Pick<ControlWrites, 'sim' | 'session'>): Promise<void> {
  await core.sim.load(false);
  core.session.begin();
}
