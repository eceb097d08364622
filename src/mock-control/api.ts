// mock.control, the in-process control API (docs/control-surface.md): every method it offers and the part that serves
// it, in one table. Each part owns one job; this file only builds them and lends their methods to mock.control.
import type { Deps } from '../deps.js';
import type { StateData } from '../schemas/index.js';
import type { Simulation } from '../simulation/index.js';
import type { ClockView, SeededGenerators } from '../domain/index.js';
import type { DriftSource } from '../schemas/index.js';
import { heldSecrets } from '../control/index.js';
import { Journal, type JournalLimits } from '../control/index.js';
import type { JournalBudget } from '../control/index.js';
import type { FaultRegistry } from '../control/index.js';
import { CoverageTracker } from '../control/index.js';
import { Verifier } from '../control/index.js';
import { Sealer } from '../control/index.js';
import { ResetPoint } from './control-core.js';
import { ReplaySession } from './replay-session.js';
import { controlWrites, type ControlCore } from './control-core.js';
import { type ControlParts } from './control-core.js';
import { type SandboxParts } from './control-core.js';
import { StateControl } from './state-control.js';
import { ClockControl } from './clock-control.js';
import { SnapshotControl } from './snapshot-control.js';
import { SandboxControl } from './sandbox-control.js';
import type { SandboxDirectory } from './sandbox-directory.js';
import { DomainControl } from './domain-control.js';
import { ProjectReads } from './project-reads.js';
import { JournalControl } from './journal-control.js';
import { TrafficControl } from './traffic-control.js';
import { ReproControl } from './repro-control.js';

export type { ControlParts } from './control-core.js';

/** A mock's parts, for the routes that need more than mock.control offers (set in MockControl's static block). */
let partsOf: (control: MockControl) => Parts;

/** POST /_mock/clock: the move, answered with the whole clock as its write left it (mock.control's setClock and advanceClock resolve its `now`). */
export function moveClock(control: MockControl, body: { now?: string; advance_ms?: number }): Promise<ClockView> {
  return ClockControl.move(partsOf(control).clock, body);
}

/**
 * The journal of one mock: it hides the secrets `deps` holds and `keys` (the control and shadow tokens), and shares
 * `budget` (its bytes) with the journals of the server's other mocks.
 */
export function mockJournal(deps: Deps, limits: JournalLimits | undefined, keys: readonly (string | undefined)[], budget?: JournalBudget): Journal {
  return new Journal(limits, heldSecrets(deps, keys), budget);
}

/** The per-mock parts, from the journal, faults and coverage report built first. */
export function controlParts(
  journal: Journal,
  faults: FaultRegistry,
  own: SandboxParts & { drift: DriftSource },
  coverage = new CoverageTracker(),
): ControlParts {
  return { journal, faults, coverage, drift: own.drift, snapshots: own.snapshots, sandboxes: own.sandboxes };
}

/** The parts mock.control is made of, each owning one job (their files document each method). */
const PARTS = {
  /** Reset, fixture loads, the whole state's export and import. */
  state: StateControl,
  /** The mock clock. */
  clock: ClockControl,
  /** In-process and named snapshots. */
  snapshots: SnapshotControl,
  /** Sandboxes (the default mock only). */
  sandboxes: SandboxControl,
  /** Runs, codes, desired state, the simulation's settings: what drives the domain. */
  domain: DomainControl,
  /** Read-only, paged views per project. */
  reads: ProjectReads,
  /** The request journal and the assertions over it. */
  journal: JournalControl,
  /** Faults, coverage, drift and the timeline. */
  traffic: TrafficControl,
  /** What takes a session away: bundles, exported tests, the HAR, the client report. */
  repro: ReproControl,
} as const;
// A sandbox's control is a MockControl itself: the sandbox part is typed with it here, where that type is known.
type Parts = { [P in keyof typeof PARTS]: P extends 'sandboxes' ? SandboxControl<MockControl> : InstanceType<(typeof PARTS)[P]> };

/** Every method of mock.control, by the part that serves it: mock.control's prototype is made from this table. */
const SERVED_BY = {
  state: ['reset', 'loadFixtures', 'exportState', 'exportStateStream', 'importState'],
  clock: ['now', 'setClock', 'advanceClock', 'clock'],
  snapshots: ['snapshot', 'restore', 'saveSnapshot', 'snapshots', 'restoreSnapshot', 'deleteSnapshot', 'namedState'],
  sandboxes: ['createSandbox', 'sandboxes', 'sandbox', 'deleteSandbox', 'sandboxControl'],
  domain: [
    'simulation',
    'setSimulation',
    'stepSimulation',
    'runSimulation',
    'setBehaviours',
    'applyDesiredState',
    'compileRelease',
    'createRun',
    'transitionRun',
    'mintAuthorizationCode',
  ],
  reads: ['projects', 'projectOverview', 'runs', 'run', 'approvals', 'users', 'jobs', 'releases', 'getDesiredState'],
  journal: ['requests', 'journalEntry', 'verify', 'verifySequence', 'verifyOnly', 'clearRequests'],
  traffic: ['addFault', 'faults', 'clearFaults', 'coverage', 'assertCoverage', 'coverageNext', 'drift', 'timeline'],
  repro: [
    'exportBundleStream',
    'exportBundle',
    'importBundle',
    'startSession',
    'startFirstSession',
    'exportTestStream',
    'exportTest',
    'unseal',
    'har',
    'clientReport',
    'assertCleanClient',
  ],
} as const satisfies { [P in keyof Parts]: readonly (keyof Parts[P])[] };

/** The methods a part lends mock.control, typed (and documented) as the part declares them. */
type ServedBy<P extends keyof Parts> = Pick<Parts[P], Extract<(typeof SERVED_BY)[P][number], keyof Parts[P]>>;
/** Every public method of every part is in the table: a part's method nobody can call fails the type check. */
type Unserved = { [P in keyof Parts]: Exclude<keyof Parts[P], (typeof SERVED_BY)[P][number]> }[keyof Parts];
const everyPartMethodIsServed: [Unserved] extends [never] ? true : Unserved = true;
void everyPartMethodIsServed;

// The class below gets these methods on its prototype from SERVED_BY (a test pins every name and arity).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface MockControl
  extends
    ServedBy<'state'>,
    ServedBy<'clock'>,
    ServedBy<'snapshots'>,
    ServedBy<'sandboxes'>,
    ServedBy<'domain'>,
    ServedBy<'reads'>,
    ServedBy<'journal'>,
    ServedBy<'traffic'>,
    ServedBy<'repro'> {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class MockControl {
  /** The request journal (per mock). */
  readonly journal: Journal;
  /** Checks of the journal (what POST /_mock/verify... answer). */
  readonly verifier: Verifier;
  /** Injected faults (per instance). */
  readonly faultRegistry: FaultRegistry;
  /** What the v3 traffic so far exercised. */
  readonly coverageTracker: CoverageTracker;
  private readonly parts: Parts;

  constructor(
    deps: Deps,
    /** The state the fixtures describe: what reset returns to. */
    seed: StateData,
    /** The seal key (createApp's `sealKey`, the CLI's --seal-key, or shared storage's secret): random without one. */
    sealKey: string | undefined,
    /** The per-instance parts createApp built first: the request journal, injected faults, the coverage report. */
    parts: ControlParts,
    /** The simulation engine. */
    sim: Simulation,
    /** The seeded id and token generators (null without a seed): a repro bundle holds their positions. */
    generators: SeededGenerators | null = null,
  ) {
    const sealer = new Sealer(sealKey);
    const session = new ReplaySession({ deps, sim, sealer, journal: parts.journal, faults: parts.faults, generators });
    const core: ControlCore = { deps, sim, parts, sealer, session, resetPoint: new ResetPoint(deps, seed), generators };
    this.journal = parts.journal;
    this.verifier = new Verifier(parts.journal);
    this.faultRegistry = parts.faults;
    this.coverageTracker = parts.coverage;
    // The parts that write whole states or move the clock get the store's write face and no clock; reads get their own.
    const writes = controlWrites(core);
    this.parts = {
      state: new StateControl(writes, deps.store),
      clock: new ClockControl(writes, deps),
      snapshots: new SnapshotControl(writes, deps.store),
      // The registry hands out each sandbox's control, built by this class: MockControl by construction.
      sandboxes: new SandboxControl(parts.sandboxes as SandboxDirectory<MockControl> | null),
      domain: new DomainControl(deps, sim),
      reads: new ProjectReads(deps),
      journal: new JournalControl(parts.journal, this.verifier),
      traffic: new TrafficControl(core),
      repro: new ReproControl(writes, { store: deps.store, sim, config: deps.config }),
    };
  }

  static {
    partsOf = (control) => control.parts;
    for (const part of Object.keys(SERVED_BY) as (keyof Parts)[]) {
      const methods = PARTS[part].prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
      for (const name of SERVED_BY[part]) {
        const lent = {
          [name](this: MockControl, ...args: unknown[]): unknown {
            return (this.parts[part] as unknown as typeof methods)[name](...args);
          },
        }[name];
        // The arity the part declares, so mock.control's methods read as the part's (Function.length).
        Object.defineProperty(lent, 'length', { value: methods[name].length });
        Object.defineProperty(MockControl.prototype, name, { value: lent, writable: true, configurable: true });
      }
    }
  }
}
