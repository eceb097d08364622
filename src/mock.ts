// One whole mock on its own store: clock, ids, simulation, journal, faults, coverage and control surface (no HTTP: the
// server's one app answers every mock's requests). createApp builds its default mock here, and every sandbox the same way.
import type { ErrorReporter } from './errors.js';
import type { Store, StoreOptions } from './storage/index.js';
import type { StateData } from './schemas/index.js';
import { MockClock } from './domain/index.js';
import { randomIds, randomTokens, SeededGenerators, type IdGenerator, type TokenGenerator } from './domain/index.js';
import { RetentionTracker } from './domain/index.js';
import type { ReadBody } from './pipeline/index.js';
import { MockControl, controlParts, mockJournal } from './mock-control/index.js';
import { SimulationWatch } from './control/index.js';
import { CoverageTracker } from './control/index.js';
import { FaultRegistry, type FaultTally } from './control/index.js';
import type { JournalBudget } from './control/index.js';
import type { NamedSnapshots } from './control/index.js';
import type { AddressedMock } from './pipeline/index.js';
import { ClientObserver, type Fingerprints } from './judge/index.js';
import { Simulation, type SimulationSettings, type StartSettings } from './simulation/index.js';
import type { Sandboxes } from './sandboxes/index.js';
import type { Deps, RuntimeConfig } from './deps.js';
import type { CreateAppOptions } from './app-options.js';
import type { MockShadow, ShadowServer } from './shadow/index.js';
import { DriftLog, heldSecrets } from './control/index.js';
import type { ScopeCells, ServerMetrics } from './metrics/index.js';

/** What every mock of one server shares: its options, the error reporter, the body reader, the journals' byte budget. */
export interface ServerParts {
  options: CreateAppOptions;
  report: ErrorReporter;
  readBody: ReadBody;
  journalBudget: JournalBudget;
  /** One-line notices (createApp's `log`). */
  log: (line: string) => void;
  /** The shadow target every mock of the server also sends its v3 requests to (null: none). */
  shadow: ShadowServer | null;
  /** The key (made at first use) and the table that fingerprint credentials for every mock's client report. */
  fingerprints: Fingerprints;
  /** What every mock's simulation is built with. */
  simulation: SimulationSettings;
  /** The control and shadow tokens: neither may show in what a mock records (the journal and the drift record redact them). */
  heldKeys: readonly (string | undefined)[];
  /** What the server counts for GET /_mock/metrics. */
  metrics: ServerMetrics;
  /** The faults every mock of the server holds, counted together (none: no request looks one up). */
  faultTally: FaultTally;
}

/** One mock's settings for the domain: the server's options, and the keys its stored settings hold unless the options name them. */
class MockConfig implements RuntimeConfig {
  readonly auth: 'on' | 'off';
  readonly control: boolean;
  readonly controlTokenRequired: boolean;
  readonly bodyLimit: number;
  constructor(
    private readonly options: CreateAppOptions,
    private readonly store: Store,
  ) {
    this.auth = options.auth ?? 'on';
    this.control = options.control ?? true;
    this.controlTokenRequired = options.controlToken !== undefined;
    this.bodyLimit = options.bodyLimit ?? 1024 * 1024;
  }
  adminKey(): string | null {
    return this.options.adminKey ?? this.store.settings.admin_key ?? null;
  }
  brokerSecret(): string | null {
    return this.options.brokerSecret ?? this.store.settings.broker_secret ?? null;
  }
}

/** What makes one mock itself: its store, the state it resets to, its seed, its snapshots, the sandboxes it manages. */
export interface OwnParts {
  /** Opens the store with the hooks the mock's coverage and simulation need; `fresh`: it holds only the seed state. */
  open(hooks: StoreOptions): Promise<{ store: Store; fresh: boolean }>;
  /** What reset returns to. */
  state: StateData;
  seed: string | number | undefined;
  /** The key that seals secrets in exported state derives from it (random when undefined; never from the seed). */
  sealKey(store: Store): Promise<string | undefined>;
  /** createApp's own generators (the default mock only; a sandbox has its seed or random ones). */
  ids?: IdGenerator;
  tokens?: TokenGenerator;
  snapshots: NamedSnapshots;
  /** The sandboxes the default mock manages (their control routes answer from it). */
  sandboxes: Sandboxes | null;
  /** A repro bundle to restore once built (createApp's `bundle`). */
  bundle?: unknown;
  /** Simulation settings put over the fixture's at start and after every reset (the default mock: the CLI's flags). */
  start?: StartSettings;
  /** What its requests and commits count into (the server's default-mock cells, or its sandboxes'). */
  meter: ScopeCells;
}

/** One whole mock: the server's default one, or a sandbox. Requests reach it through the server's app (src/server.ts). */
export interface Mock extends AddressedMock {
  store: Store;
  close(): Promise<void>;
}

export async function assembleMock(own: OwnParts, server: ServerParts): Promise<Mock> {
  const { options } = server;
  // The coverage report, the store and the simulation see each other through what they are built with.
  const coverage = new CoverageTracker();
  let simulation: Simulation | undefined;
  const { store, fresh } = await own.open({
    // Transitions for the coverage report are observed where they happen: at commit.
    observer: (c, before, after, scope) => coverage.onWrite(c, before, after, scope),
    // Instances on one database: events others schedule reach this one's heap (the leader fires them on time). Before
    // the simulation exists there is no heap yet: it is built from the stored events when the simulation loads.
    onCaughtUp: (found) => simulation?.othersWrote(found),
    meter: own.meter,
    // Writes read the mock clock through their transactions (`tx.now()`), on the same real time as its reads.
    time: options.clock ?? Date.now,
  });
  own.meter.opened++;
  const generators = own.seed !== undefined ? new SeededGenerators(String(own.seed)) : null;
  const base: Deps = {
    store,
    view: store,
    clock: new MockClock(options.clock ?? Date.now, store),
    ids: own.ids ?? generators?.ids ?? randomIds,
    tokens: own.tokens ?? generators?.tokens ?? randomTokens,
    retention: new RetentionTracker(),
    config: new MockConfig(options, store),
  };
  const keys = server.heldKeys;
  // Built before the simulation: its synthetic chat messages are journaled as they are sent.
  const journal = mockJournal(base, options.journal, keys, server.journalBudget);
  const observer = new SimulationWatch(coverage, journal);
  simulation = new Simulation(base, server.simulation, { seed: own.seed !== undefined ? String(own.seed) : undefined, start: own.start, observer });
  // The domain tells the simulation of the runs it moves: its deps are the mock's.
  const deps = simulation.deps;
  const sealKey = await own.sealKey(store);
  // Fault draws (probability, delay distributions) follow the seed, so a seeded mock fails the same requests every run.
  const faults = new FaultRegistry(own.seed !== undefined ? `faults:${own.seed}` : undefined, deps.clock, undefined, server.faultTally);
  // Without a shadow target the record stays empty and disabled (shadow mode's code is never loaded).
  const drift = server.shadow?.driftLog() ?? new DriftLog(null, null);
  const parts = controlParts(journal, faults, { snapshots: own.snapshots, sandboxes: own.sandboxes, drift }, coverage);
  const control: MockControl = new MockControl(deps, own.state, sealKey, parts, simulation, generators);
  const opened = store.seq;
  await simulation.load(fresh);
  if (own.bundle !== undefined) await control.importBundle(own.bundle);
  await simulation.applyStart();
  // The first session begins here: what an exported test of it rebuilds (a fresh store nothing wrote to holds own.state).
  control.startFirstSession(fresh && own.bundle === undefined && store.seq === opened ? own.state : undefined);

  const shadow = server.shadow && { drift, secrets: heldSecrets(deps, keys) };
  return new AssembledMock(control, store, deps, new ClientObserver(deps.view, server.fingerprints), shadow, simulation, own.meter);
}

/** An assembled mock: its parts, and how it closes (a method: a mock holds no closure for it). */
class AssembledMock implements Mock {
  constructor(
    readonly control: MockControl,
    readonly store: Store,
    readonly deps: Deps,
    readonly observer: ClientObserver,
    readonly shadow: MockShadow | null,
    private readonly sim: Simulation,
    readonly meter: ScopeCells,
  ) {}

  async close(): Promise<void> {
    await this.sim.close();
    await this.store.close();
    // Its shares of the server's byte budgets (the journal's, the drift records') are free again.
    this.control.journal.clear();
    // And its faults leave the server's count of faults held.
    this.control.faultRegistry.clear();
    this.shadow?.drift.clear();
    this.meter.closed++;
  }
}
