// One whole mock on its own store: clock, ids, simulation, journal, faults, coverage and control surface (no HTTP: the
// server's one app answers every mock's requests). createApp builds its default mock here, and every sandbox the same way.
import { randomUUID } from 'node:crypto';
import type { ErrorReporter } from './errors.js';
import type { Store, StoreOptions, WriteScope } from './storage/store.js';
import type { StateData } from './schemas/state.js';
import { MockClock } from './domain/clock.js';
import { randomIds, randomTokens, SeededGenerators, type IdGenerator, type TokenGenerator } from './domain/ids.js';
import { RetentionTracker } from './domain/retention.js';
import type { ReadBody } from './routes/endpoint.js';
import { MockControl, controlParts } from './control/api.js';
import { CoverageTracker } from './control/coverage.js';
import { FaultRegistry } from './control/faults/index.js';
import type { JournalBudget } from './control/journal-budget.js';
import type { NamedSnapshots } from './control/snapshots.js';
import type { AddressedMock } from './middleware/addressed.js';
import { ClientObserver, type Fingerprints } from './judge/index.js';
import { Simulation, type StartSettings } from './simulation/index.js';
import type { Sandboxes } from './sandboxes/index.js';
import { withRunHooks, type Deps } from './deps.js';
import type { CreateAppOptions } from './app.js';
import { driftLog, type ShadowServer } from './shadow/index.js';
import { heldSecrets } from './control/held-secrets.js';

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
}

/** What makes one mock itself: its store, the state it resets to, its seed, its snapshots, the sandboxes it manages. */
export interface OwnParts {
  /** Opens the store with the hooks the mock's coverage and simulation need; `fresh`: it holds only the seed state. */
  open(hooks: StoreOptions): Promise<{ store: Store; fresh: boolean }>;
  /** What reset returns to. */
  state: StateData;
  seed: string | number | undefined;
  /** The key that seals secrets in exported state derives from it (random when undefined). */
  sealSeed(store: Store): Promise<string | number | undefined>;
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
  });
  const generators = own.seed !== undefined ? new SeededGenerators(String(own.seed)) : null;
  const base: Deps = {
    store,
    view: store,
    clock: new MockClock(options.clock ?? Date.now, () => store.clock),
    ids: own.ids ?? generators?.ids ?? randomIds,
    tokens: own.tokens ?? generators?.tokens ?? randomTokens,
    retention: new RetentionTracker(),
    config: {
      auth: options.auth ?? 'on',
      control: options.control ?? true,
      controlTokenRequired: options.controlToken !== undefined,
      bodyLimit: options.bodyLimit ?? 1024 * 1024,
      adminKey: () => options.adminKey ?? store.settings.admin_key ?? null,
      brokerSecret: () => options.brokerSecret ?? store.settings.broker_secret ?? null,
    },
  };
  simulation = new Simulation(base, {
    defaultMode: options.simulation?.mode ?? 'off',
    seed: own.seed !== undefined ? String(own.seed) : undefined,
    maxEvents: options.simulation?.maxEvents,
    onProgress: options.simulation?.onProgress,
    onError: (err) => server.report(err, undefined as never),
    scope: (): WriteScope => coverage.simulatedScope,
    onExecuted: (kind) => coverage.recordSimulated(kind),
    retentionDays: options.simulation?.retentionDays,
    onRemoved: (r) => coverage.recordRemoved(r),
    start: own.start,
  });
  // The domain tells the simulation of the runs it moves.
  const deps = withRunHooks(base, simulation.engine);
  const sealSeed = await own.sealSeed(store);
  // Fault draws (probability, delay distributions) follow the seed, so a seeded mock fails the same requests every run.
  const faults = new FaultRegistry({ seed: own.seed !== undefined ? `faults:${own.seed}` : randomUUID(), nowMs: () => deps.clock.nowMs() });
  // Neither token may show in what the mock records: the journal and the drift record redact them as held secrets.
  const keys = [options.controlToken, server.shadow?.settings.token];
  const drift = driftLog(server.shadow);
  const ownParts = { budget: server.journalBudget, snapshots: own.snapshots, sandboxes: own.sandboxes, drift };
  const parts = controlParts(deps, options.journal, keys, faults, ownParts, coverage);
  const control: MockControl = new MockControl(deps, own.state, sealSeed, parts, simulation, generators);
  const opened = store.seq;
  await simulation.load(fresh);
  if (own.bundle !== undefined) await control.importBundle(own.bundle);
  await simulation.applyStart();
  // The first session begins here: what an exported test of it rebuilds (a fresh store nothing wrote to holds own.state).
  control.startFirstSession(fresh && own.bundle === undefined && store.seq === opened ? own.state : undefined);

  const sim = simulation;
  return {
    control,
    store,
    deps,
    observer: new ClientObserver(deps.view, server.fingerprints),
    shadow: server.shadow && { drift, secrets: heldSecrets(deps, keys) },
    close: async () => {
      await sim.close();
      await store.close();
      // Its journal's share of the server's byte budget is free again.
      control.journal.clear();
    },
  };
}
