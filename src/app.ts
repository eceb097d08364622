// createApp: assembles storage, clock, ids and routes into one Koa app; no listen, no env, no globals.
import Koa from 'koa';
import { appErrorListener, errorMiddleware, type ErrorReporter } from './errors.js';
import { Store } from './storage/store.js';
import { JsonFileAdapter, MemoryAdapter, type StorageAdapter } from './storage/adapters.js';
import { MockClock, type TimeSource } from './domain/clock.js';
import { randomIds, randomTokens, SeededGenerators, type IdGenerator, type TokenGenerator } from './domain/ids.js';
import { bundleSeed } from './reproduce/index.js';
import { EMPTY_FIXTURE, stateFromFixture } from './fixtures.js';
import { bodyReader } from './routes/endpoint.js';
import { CONTROL_ROUTES, V3_ROUTES } from './routes/index.js';
import { routeTable } from './routes/table.js';
import { MockControl, controlParts } from './control/api.js';
import { CoverageTracker } from './control/coverage.js';
import { journalMiddleware } from './middleware/journal.js';
import { ClientObserver } from './judge/index.js';
import type { JournalLimits } from './control/journal.js';
import { coverageMiddleware } from './middleware/coverage.js';
import { faultMiddleware } from './middleware/faults.js';
import { FaultRegistry } from './control/faults/index.js';
import { principalOf } from './domain/auth.js';
import { randomUUID } from 'node:crypto';
import { controlGuard } from './middleware/control-guard.js';
import { sharedStorage } from './middleware/shared-storage.js';
import type { Deps } from './deps.js';
import { RetentionTracker } from './domain/retention.js';
import { inProcess, type InProcess } from './inprocess/index.js';
import { Simulation, type SimulationProgress, type StartSettings } from './simulation/index.js';
import type { WriteScope } from './storage/store.js';
import type { SimulationMode } from './schemas/simulation.js';

export interface CreateAppOptions {
  /**
   * Where state lives: an adapter (lowdb's Adapter interface), 'memory', `postgresStorage({ connectionString })` (several
   * instances share one PostgreSQL database), or by default the JSON file `.data/db.json`.
   */
  storage?: StorageAdapter | 'memory';
  /** A fixture document (object); the default is an empty state. Use `demoFixture()` for the bundled demo. */
  fixtures?: unknown;
  /** Reseed from the fixtures even when the storage already holds state. */
  reset?: boolean;
  /** Base time source in ms (default Date.now); the mock clock freezes or offsets it. */
  clock?: TimeSource;
  /** Id generator (default crypto.randomUUID). */
  ids?: IdGenerator;
  /** Opaque token generator (default nanoid). */
  tokens?: TokenGenerator;
  /** Seed for deterministic ids and tokens (overrides `ids` and `tokens` defaults). */
  seed?: string | number;
  /**
   * A repro bundle (GET /_mock/bundle's document): the mock starts as the one that wrote it was, journal and faults
   * included; its seed seeds this mock unless `seed` is given. A bad bundle rejects with its 422 items.
   */
  bundle?: unknown;
  /** Admin key for X-Admin-Key; overrides the fixture's settings.admin_key. */
  adminKey?: string;
  /** Broker webhook HMAC secret; overrides the fixture's settings.broker_secret. */
  brokerSecret?: string;
  /** 'off' accepts every request as an owner. */
  auth?: 'on' | 'off';
  /** Serve the /_mock control surface (default true). */
  control?: boolean;
  /**
   * Host names or addresses /_mock answers to besides the loopback ones (`localhost`, `*.localhost`, 127.0.0.0/8, ::1);
   * any other Host is 421 `host_not_allowed` (DNS rebinding). `'*'` accepts every Host. The CLI adds the bound host.
   */
  allowedHosts?: string[];
  /** When set, every /_mock request needs header `X-Mock-Control-Token: <controlToken>` (else 401 `control_token_invalid`). */
  controlToken?: string;
  /** Request body limit in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** How much the request journal keeps: newest `entries` (1000), `bytes` in all (8 MiB), each body cut to `bodyBytes` (16 KiB). */
  journal?: JournalLimits;
  /** Called with unexpected (5xx) errors; default console.error. */
  onError?: ErrorReporter;
  /** One-line notices, such as a client whose request timed out; default console.error. */
  log?: (line: string) => void;
  /** The simulation engine: runs, approvals, jobs and spend that move by themselves on the mock clock. */
  simulation?: {
    /** The mode when neither the fixture nor PUT /_mock/simulation sets one: `off` by default (the CLI: `auto`). */
    mode?: SimulationMode;
    /** A run, step or clock move past this many events is refused with 422 (default 1,000,000). */
    maxEvents?: number;
    /** Progress of long runs (about four times a second) and their end. */
    onProgress?(p: SimulationProgress & { done: boolean }): void;
    /**
     * Simulated days a run the simulation created is kept after it ended, when the fixture and PUT /_mock/simulation
     * name none: 0 (the default) keeps everything; the CLI's living demo keeps 7.
     */
    retentionDays?: number;
    /**
     * Settings put over the fixture's at start and again after every reset and fixture load, so a reset returns to
     * what the instance was started with (the CLI's --simulation, --speed, --traffic and --retain-days).
     */
    start?: StartSettings;
  };
}

export interface MockApp {
  /** The Koa application (mount it, or use callback()). */
  readonly app: Koa;
  /** A Node request listener, for http.createServer or supertest. */
  callback(): ReturnType<Koa['callback']>;
  /** WHATWG fetch answered in process, without a socket (a path like '/api/v3/...' is enough). */
  fetch: InProcess['fetch'];
  /** The raw in-process request (light-my-request's options and response). */
  inject: InProcess['inject'];
  /** Answers requests to these origins from global fetch, node:http and node:https until the handle is restored. */
  intercept: InProcess['intercept'];
  /** The in-process control API (same operations as /_mock). */
  readonly control: MockControl;
  readonly store: Store;
  readonly deps: Deps;
  /** Waits until every accepted write is stored, then lets the storage finish (the JSON file folds its log into the snapshot). */
  close(): Promise<void>;
}

export async function createApp(options: CreateAppOptions = {}): Promise<MockApp> {
  if (options.controlToken !== undefined && options.controlToken === '') throw new TypeError('createApp: controlToken must not be empty');
  const adapter = options.storage === 'memory' ? new MemoryAdapter() : (options.storage ?? new JsonFileAdapter('.data/db.json'));
  const seed = stateFromFixture(options.fixtures ?? EMPTY_FIXTURE);
  const existing = options.reset ? null : await adapter.read();
  // The coverage report, the store and the simulation see each other through what they are built with.
  const coverage = new CoverageTracker();
  let simulation: Simulation | undefined;
  const store = new Store(adapter, existing ? existing.state : seed, existing?.seq ?? 0, {
    // Transitions for the coverage report are observed where they happen: at commit.
    observer: (c, before, after, scope) => coverage.onWrite(c, before, after, scope),
    // Instances on one database: events others schedule reach this one's heap (the leader fires them on time). Before
    // the simulation exists there is no heap yet: it is built from the stored events when the simulation loads.
    onCaughtUp: (found) => simulation?.othersWrote(found),
  });
  // A first save that fails stops start-up with the storage's own reason (a 503 is for requests). Shared storage that
  // another instance seeded meanwhile keeps that state; a reset replaces whatever is stored.
  if (!existing) {
    const seeded = await store.save({ ifEmpty: !options.reset }).catch((err: { cause?: unknown }) => Promise.reject(err.cause ?? err));
    if (seeded) await store.writeResetState(seed);
  }

  const seedOption = options.seed ?? bundleSeed(options.bundle);
  const generators = seedOption !== undefined ? new SeededGenerators(String(seedOption)) : null;
  const base: Deps = {
    store,
    view: store,
    clock: new MockClock(options.clock ?? Date.now, () => store.clock),
    ids: options.ids ?? generators?.ids ?? randomIds,
    tokens: options.tokens ?? generators?.tokens ?? randomTokens,
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
  const report = options.onError ?? ((err: unknown) => console.error(err));
  simulation = new Simulation(base, {
    defaultMode: options.simulation?.mode ?? 'off',
    seed: seedOption !== undefined ? String(seedOption) : undefined,
    maxEvents: options.simulation?.maxEvents,
    onProgress: options.simulation?.onProgress,
    onError: (err) => report(err, undefined as never),
    scope: (): WriteScope => coverage.simulatedScope,
    onExecuted: (kind) => coverage.recordSimulated(kind),
    retentionDays: options.simulation?.retentionDays,
    onRemoved: (r) => coverage.recordRemoved(r),
    start: options.simulation?.start,
  });
  // The domain tells the simulation of the runs it moves.
  const deps: Deps = { ...base, runHooks: simulation.engine };
  // Instances sharing storage seal exported secrets with one key, so a state exported from one imports into another.
  const sealSeed = seedOption ?? (await store.secret());
  // Fault draws (probability, delay distributions) follow the seed, so a seeded mock fails the same requests every run.
  const faults = new FaultRegistry({ seed: seedOption !== undefined ? `faults:${seedOption}` : randomUUID(), nowMs: () => deps.clock.nowMs() });
  const control: MockControl = new MockControl(deps, seed, sealSeed, controlParts(deps, options.journal, options.controlToken, faults, coverage), simulation, generators);
  await simulation.load(!existing);
  if (options.bundle !== undefined) await control.importBundle(options.bundle);
  await simulation.applyStart();
  const readBody = bodyReader(deps.config.bodyLimit);

  const app = new Koa();
  app.on('error', appErrorListener(options.log ?? ((line) => console.error(line)), options.onError));
  // Journal outermost (sees the final answer, faults included), then coverage (after errors are rendered),
  // then faults (outside the error renderer, so an injected 404 stays as injected).
  app.use(journalMiddleware(control.journal, deps.clock, new ClientObserver(deps.view)));
  app.use(coverageMiddleware(control.coverageTracker));
  app.use(faultMiddleware(faults, { bodyLimit: deps.config.bodyLimit, principalOf: (authorization) => principalOf(store, authorization) }));
  app.use(errorMiddleware(options.onError));
  // Every /_mock path, whichever module serves it, passes the admin-API checks first.
  if (deps.config.control) app.use(controlGuard({ allowedHosts: options.allowedHosts, controlToken: options.controlToken }));
  // Every module's routes in one flat table (looked up by segments, not by walking each router's layers).
  const modules = deps.config.control ? [...V3_ROUTES, ...CONTROL_ROUTES] : V3_ROUTES;
  const table = routeTable(modules.map((routes) => routes(deps, readBody, control)));
  // Shared storage: a request sees every write acknowledged (by any instance) before it began.
  app.use(store.shared ? sharedStorage(store, table) : table);

  // One request listener serves fetch, inject and interception alike (Koa builds it per callback() call).
  const dispatch = app.callback();
  const local = inProcess(dispatch);

  return {
    app,
    callback: () => app.callback(),
    fetch: local.fetch,
    inject: local.inject,
    intercept: local.intercept,
    control,
    store,
    deps,
    close: async () => {
      await simulation.close();
      await store.close();
    },
  };
}
